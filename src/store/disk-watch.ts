// Free space on the data dir's file system against the operator's threshold (--min-free-disk):
// read fresh for each /health and every few seconds in the background, so crossing the threshold
// is logged once each way rather than found when a commit fails.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';

export interface DiskStatus {
  /** Bytes free for this process on the data dir's file system; null when it cannot be read. */
  freeBytes: number | null;
  /** The threshold under which free space is reported low (0: never). */
  minFreeBytes: number;
  isLow: boolean;
}

/** Free bytes for unprivileged writers on the file system holding `dir` (or its nearest existing parent), or null. */
export function freeBytesAt(dir: string): number | null {
  for (let at = dir; ; at = dirname(at)) {
    try {
      const s = statfsSync(at);
      return s.bavail * s.bsize;
    } catch {
      if (dirname(at) === at) return null;
    }
  }
}

export class DiskWatch {
  private isLow = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly dir: string,
    readonly minFreeBytes: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Reads free space now; logs when it falls under the threshold and when it is back over. */
  check(): DiskStatus {
    const freeBytes = freeBytesAt(this.dir);
    const isLow = freeBytes !== null && freeBytes < this.minFreeBytes;
    if (isLow !== this.isLow) {
      this.isLow = isLow;
      if (isLow) this.log(`warning: ${lowDiskText(freeBytes, this.minFreeBytes)} (${this.dir}); free space, or shorten --retain, before writes fail`);
      else this.log(`free disk space is back over --min-free-disk: ${formatBytes(freeBytes)} free`);
    }
    return { freeBytes, minFreeBytes: this.minFreeBytes, isLow };
  }

  /** Checks every `intervalMs` until stopped (the timer does not keep the process alive). */
  start(intervalMs: number): void {
    this.check();
    this.timer ??= setInterval(() => this.check(), intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export function lowDiskText(freeBytes: number | null, minFreeBytes: number): string {
  return `free disk space ${formatBytes(freeBytes)} is under --min-free-disk ${formatBytes(minFreeBytes)}`;
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return 'unknown';
  if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(1)} GiB`;
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(0)} KiB`;
}
