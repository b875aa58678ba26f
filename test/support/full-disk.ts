// A small tmpfs mounted for a test (root only, as in CI) and a file that fills it, so writes fail
// for real with ENOSPC; deleting the file gives the space back.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  path: string;
  /** Writes a file until the file system is full; deleting the returned path frees the space. */
  fill(): string;
  unmount(): void;
}

export function mountSmallDisk(sizeMb: number): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), 'mds-disk-'));
  const mounted = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', path]);
  if (mounted.exitCode !== 0) throw new Error(`mounting a tmpfs needs root: ${mounted.stderr.toString()}`);
  return {
    path,
    fill: () => fillDisk(path),
    unmount: () => {
      Bun.spawnSync(['umount', '-l', path]);
      rmSync(path, { recursive: true, force: true });
    },
  };
}

function fillDisk(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 4096]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}
