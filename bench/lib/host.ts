// What a bench run depends on, measured at its start (issue 33): the CPU, how busy the machine
// already is, and what a durable commit costs on the disk the benches put their data dirs on.
// The same bench gave 2–3× lower numbers on other machines of this kind; a recorded run says which
// kind of host it ran on, so two runs are compared knowing why they differ.
import { closeSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { cpus, freemem, getPriority, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { removeDir, tempDir } from './proc.ts';

export interface FsyncProbe {
  /** Directory probed: where the benches make their temp data dirs. */
  dir: string;
  /** Mount point, device and file system type of `dir` (from /proc/mounts; null elsewhere). */
  mount: { path: string; device: string; type: string } | null;
  /** Calls made (fewer than asked when the time cap came first). */
  calls: number;
  /** Bytes written before each fdatasync. */
  bytesPerCall: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

export interface HostFacts {
  cpuModel: string;
  cores: number;
  /** Nominal MHz of the first core as the kernel reports it (null when unknown). */
  cpuMhz: number | null;
  /** 1, 5 and 15 minute load averages at the start. */
  loadAvg: [number, number, number];
  /** Share of CPU time the hypervisor took (steal) over the probe, 0–1; null without /proc/stat. */
  stealShare: number | null;
  /** Nice value of the bench process (its children inherit it). */
  nice: number;
  memTotalMiB: number;
  memFreeMiB: number;
  bun: string;
  platform: string;
  fsync: FsyncProbe;
}

/** Small write + fdatasync calls (what LMDB does per durable commit on Linux). */
const PROBE_CALLS = 200;
const PROBE_BYTES = 4096;
/** A slow disk (50 ms per sync) still ends the probe in a few seconds. */
const PROBE_MAX_MS = 4000;

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The mount holding `dir`: the longest mount point that is a prefix of it. */
function mountOf(dir: string): FsyncProbe['mount'] {
  let text: string;
  try {
    text = readFileSync('/proc/mounts', 'utf8');
  } catch {
    return null;
  }
  let best: FsyncProbe['mount'] = null;
  for (const line of text.split('\n')) {
    const [device, path, type] = line.split(' ');
    if (!device || !path || !type) continue;
    const inside = path === '/' || dir === path || dir.startsWith(path + '/');
    if (inside && (best === null || path.length >= best.path.length)) best = { path, device, type };
  }
  return best;
}

/** Times `calls` appends of `bytes` each followed by fdatasync, on a temp file in the bench temp dir. */
export function probeFsync(calls = PROBE_CALLS, bytes = PROBE_BYTES): FsyncProbe {
  const dir = tempDir('mds-bench-fsync-');
  const file = join(dir, 'probe');
  const page = new Uint8Array(bytes).fill(0x5a);
  const times: number[] = [];
  const fd = openSync(file, 'w');
  try {
    const deadline = performance.now() + PROBE_MAX_MS;
    for (let i = 0; i < calls && performance.now() < deadline; i++) {
      const t0 = performance.now();
      writeSync(fd, page, 0, bytes, i * bytes);
      fdatasyncSync(fd);
      times.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
    removeDir(dir);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { dir: tmpdir(), mount: mountOf(tmpdir()), calls: times.length, bytesPerCall: bytes, medianMs: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted[sorted.length - 1] ?? NaN };
}

/** [total, steal] jiffies of all CPUs, or null without /proc/stat. */
function cpuJiffies(): [number, number] | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest counted inside user)
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return [total, fields[7] ?? 0];
  } catch {
    return null;
  }
}

function cpuInfo(): { model: string; mhz: number | null } {
  const model = cpus()[0]?.model;
  let mhz: number | null = null;
  let fromProc: string | null = null;
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    fromProc = text.match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? null;
    const m = text.match(/^cpu MHz\s*:\s*([\d.]+)$/m);
    if (m) mhz = Math.round(Number(m[1]));
  } catch {
    // not Linux: os.cpus() is all there is
  }
  return { model: fromProc ?? model ?? 'unknown', mhz };
}

export function measureHost(): HostFacts {
  const before = cpuJiffies();
  const loadAvg = loadavg().map((n) => Math.round(n * 100) / 100) as [number, number, number];
  const fsync = probeFsync();
  const after = cpuJiffies();
  const stealShare = before && after && after[0] > before[0] ? (after[1] - before[1]) / (after[0] - before[0]) : null;
  const { model, mhz } = cpuInfo();
  return {
    cpuModel: model,
    cores: cpus().length,
    cpuMhz: mhz,
    loadAvg,
    stealShare,
    nice: getPriority(),
    memTotalMiB: Math.round(totalmem() / 2 ** 20),
    memFreeMiB: Math.round(freemem() / 2 ** 20),
    bun: Bun.version,
    platform: `${process.platform} ${process.arch}`,
    fsync,
  };
}

/** The host facts as the lines the runner prints before the benches. */
export function describeHost(h: HostFacts): string[] {
  const f = h.fsync;
  const where = f.mount ? `${f.dir} on ${f.mount.path} (${f.mount.type}, ${f.mount.device})` : f.dir;
  return [
    `host: ${h.cpuModel}, ${h.cores} cores${h.cpuMhz === null ? '' : ` at ${h.cpuMhz} MHz`}, ${h.memTotalMiB.toLocaleString('en-US')} MiB (${h.memFreeMiB.toLocaleString('en-US')} free); ${h.platform}; bun ${h.bun}`,
    `host: load average ${h.loadAvg.map((n) => n.toFixed(2)).join(' ')} (1/5/15 min) on ${h.cores} cores${h.stealShare === null ? '' : `; steal ${(h.stealShare * 100).toFixed(1)}% during the probe`}; nice ${h.nice}`,
    `host: fsync ${f.medianMs.toFixed(2)} ms median, ${f.p99Ms.toFixed(2)} ms p99, ${f.maxMs.toFixed(2)} ms max (${f.calls} × ${f.bytesPerCall} B write + fdatasync, as an LMDB commit does) in ${where}`,
  ];
}
