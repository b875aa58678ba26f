// `mds compact`: gives the space of removed bars and ticks back to the file system, with no server
// running on the data dir (the copy needs about the compacted size free on the same disk).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../config.ts';
import { compactStore, formatBytes, freeBytesAt, hasStore } from '../store/index.ts';
import { lockDataDir } from './data-dir-lock.ts';

export const COMPACT_HELP = `Usage: mds compact [options]

Rewrites the store of a data dir without its free pages, so the space of bars removed by --retain
(and of other removed records) goes back to the file system: LMDB reuses freed pages but never
shrinks its file. No server may run on the data dir. The compacted copy is written beside the
store and renamed over it once complete, so a failure (or a kill) leaves the store as it was; it
needs about the compacted size free on the same disk.

Options:
  --data-dir DIR     the data dir (default ./data, env MDS_DATA_DIR)
  -h, --help         this text
`;

export interface CompactIo {
  out(text: string): void;
}

export async function runCompact(argv: string[], env: Record<string, string | undefined>, io: CompactIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nRun 'mds compact --help' for the options.`);
  }
  if (values.help) {
    io.out(COMPACT_HELP);
    return 0;
  }
  const dataDir = resolve(values['data-dir'] ?? env.MDS_DATA_DIR ?? './data');
  if (!hasStore(dataDir)) throw new UsageError(`no store in ${dataDir}: give the data dir to compact with --data-dir`);
  const unlock = lockDataDir(dataDir);
  try {
    const started = performance.now();
    io.out(`compacting ${dataDir} (${formatBytes(freeBytesAt(dataDir))} free on its disk)\n`);
    let result;
    try {
      result = await compactStore(dataDir);
    } catch (err) {
      throw new UsageError(`compacting failed, the store is unchanged: ${err instanceof Error ? err.message : String(err)} (${formatBytes(freeBytesAt(dataDir))} free; the copy needs about the compacted size)`);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.out(`compacted ${dataDir}: ${formatBytes(result.beforeBytes)} -> ${formatBytes(result.afterBytes)} in ${seconds}s\n`);
    return 0;
  } finally {
    unlock();
  }
}
