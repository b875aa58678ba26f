// `mds backup --to DIR`: a consistent copy of a data dir, also while a server runs on it (no need
// to stop it); the copy is a data dir of its own that `mds serve --data-dir DIR` starts from.
import { mkdirSync, readdirSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../config.ts';
import { backupStore, checkStoreFile, hasStore } from '../store/index.ts';

export const BACKUP_HELP = `Usage: mds backup --to DIR [options]

Copies the store of a data dir to DIR, consistently, while a server may be running on it: the copy
holds everything committed when the backup began. DIR must be new or empty; start a server on the
copy with 'mds serve --data-dir DIR'. The copy is written as DIR/mds.mdb.partial and renamed to
DIR/mds.mdb once complete: an interrupted backup leaves no mds.mdb. A history import being applied
when the backup began comes along whole: its staging file is copied to DIR/imports/, and a server
started on the copy finishes applying it (its /health says so meanwhile).

Options:
  --to DIR           where the copy goes (created if missing; must hold no files)
  --data-dir DIR     the data dir to copy (default ./data, env MDS_DATA_DIR)
  --compact          leave free pages out of the copy (slower, smaller)
  -h, --help         this text
`;

export interface BackupIo {
  out(text: string): void;
}

export async function runBackup(argv: string[], env: Record<string, string | undefined>, io: BackupIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { to: { type: 'string' }, 'data-dir': { type: 'string' }, compact: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nRun 'mds backup --help' for the options.`);
  }
  if (values.help) {
    io.out(BACKUP_HELP);
    return 0;
  }
  if (!values.to) throw new UsageError("backup needs --to DIR: where the copy goes. Run 'mds backup --help' for the options.");
  const dataDir = resolve(values['data-dir'] ?? env.MDS_DATA_DIR ?? './data');
  const target = resolve(values.to);
  if (!hasStore(dataDir)) throw new UsageError(`no store in ${dataDir}: give the data dir to copy with --data-dir`);
  checkStoreFile(dataDir);
  if (target === dataDir) throw new UsageError('--to must be another directory than the data dir');
  if (existsSync(target) && readdirSync(target).length > 0) throw new UsageError(`${target} is not empty: back up into a new or empty directory`);
  mkdirSync(target, { recursive: true });
  const started = performance.now();
  io.out(`backing up ${dataDir} to ${target}${values.compact ? ' (compacting)' : ''}\n`);
  const { path, bytes, carriedImports } = await backupStore(dataDir, target, { compact: values.compact === true, imports: 'carry' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (carriedImports > 0) io.out(`${carriedImports} history import(s) were being applied: their staging files are in ${target}/imports; a server started on the copy finishes them\n`);
  io.out(`wrote ${path} (${(bytes / 1e6).toFixed(0)} MB) in ${seconds}s; start a server on it with: mds serve --data-dir ${target}\n`);
  return 0;
}
