// A consistent copy of a data dir's LMDB environment, taken while a server may be writing to it:
// LMDB copies one read snapshot, so the copy holds every transaction committed before it began.
// History imports are whole in every copy: one being applied when the copy began comes along with
// its staging file (the server on the copy finishes it), or the copy waits until it is applied.
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { stageFileOf, type ImportRecord } from './imports.ts';
import { checkStoreFile, PARTIAL_STORE_FILE, STORE_FILE } from './store-file.ts';

export interface BackupResult {
  /** The copy's file. */
  path: string;
  bytes: number;
  /** Imports half-applied or staged in the copy, whose staging files came along (`carry`). */
  carriedImports: number;
}

/**
 * How the copy keeps an import being applied whole. `carry`: its staging file is copied too (into
 * `imports/` beside the store), and the server started on the copy finishes it. `wait`: the copy
 * is taken again once it is applied (a store snapshot is one file: nothing comes along).
 */
export type ImportsInCopy = 'carry' | 'wait';

export interface BackupOptions {
  compact: boolean;
  imports: ImportsInCopy;
  /** `wait`: a copy held imports being applied; it is taken again once they are (ids given). */
  onWaiting?(importIds: number[]): void;
}

/** How long `wait` waits for imports being applied before it gives up. */
const IMPORT_WAIT_MS = 10 * 60_000;
/** Copies retaken because an import finished between the copy and its staging file's copy. */
const MAX_RETAKES = 5;

const IMPORTS_DB = { name: 'imports', encoding: 'msgpack', keyEncoding: 'uint32' } as const;

/** True when `dataDir` holds a store. */
export function hasStore(dataDir: string): boolean {
  return existsSync(join(dataDir, STORE_FILE));
}

/**
 * Copies the environment in `dataDir` to `targetDir/mds.mdb` (the directory must exist and hold no
 * store). `compact` leaves free pages out: slower, smaller. The copy is written under a temporary
 * name, synced and only then renamed: an interrupted backup leaves no `mds.mdb` that looks whole.
 */
export async function backupStore(dataDir: string, targetDir: string, { compact, imports, onWaiting }: BackupOptions): Promise<BackupResult> {
  checkStoreFile(dataDir);
  const root = open({ path: join(dataDir, STORE_FILE), compression: false, maxDbs: 32 });
  const partial = join(targetDir, PARTIAL_STORE_FILE);
  const path = join(targetDir, STORE_FILE);
  let carried: number;
  try {
    const deadline = performance.now() + IMPORT_WAIT_MS;
    for (let take = 1; ; take++) {
      await root.backup(partial, compact);
      const settled = await settleImports(root, dataDir, targetDir, partial, imports);
      if (settled.whole) {
        carried = settled.carried;
        break;
      }
      rmSync(partial, { force: true });
      rmSync(join(targetDir, 'imports'), { recursive: true, force: true });
      if (imports === 'carry' && take >= MAX_RETAKES) throw new Error(`imports kept finishing while the copy was taken (${take} times): try again`);
      if (imports === 'wait') {
        onWaiting?.(settled.open);
        await untilNoImportApplying(root, deadline);
      }
    }
  } finally {
    await root.close();
  }
  syncFile(partial);
  renameSync(partial, path);
  syncFile(targetDir);
  return { path, bytes: statSync(path).size, carriedImports: carried };
}

/**
 * Makes the imports in a fresh copy whole: a staging that was never marked staged is dropped (its
 * importer goes on in the original); a staged or half-applied one gets its staging file (`carry`)
 * or sends the copy back to be taken again (`wait`). Not whole also when an import finished
 * between the copy and its staging file's copy: the copy is taken again, holding it applied.
 */
async function settleImports(source: RootDatabase, dataDir: string, targetDir: string, partial: string, mode: ImportsInCopy): Promise<{ whole: boolean; carried: number; open: number[] }> {
  const copy = open({ path: partial, compression: false, maxDbs: 32 });
  try {
    const db = copy.openDB<ImportRecord, number>(IMPORTS_DB);
    const records = [...db.getRange()].map(({ value }) => value);
    const staging = records.filter((r) => r.state === 'staging');
    const staged = records.filter((r) => r.state === 'staged' || r.state === 'applying');
    if (staging.length > 0) {
      await copy.transaction(() => {
        for (const r of staging) db.remove(r.id);
      });
    }
    const open = staged.map((r) => r.id);
    if (open.length === 0) return { whole: true, carried: 0, open };
    if (mode === 'wait') return { whole: false, carried: 0, open };
    mkdirSync(join(targetDir, 'imports'), { recursive: true });
    const live = source.openDB<ImportRecord, number>(IMPORTS_DB);
    let carried = 0;
    for (const r of staged) {
      try {
        copyFileSync(stageFileOf(dataDir, r.id), stageFileOf(targetDir, r.id));
        syncFile(stageFileOf(targetDir, r.id));
        carried++;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        // Finished since the copy began: take it again. Still open in the original: its file is
        // lost there too, and the copy is as the original (its /health says the import is half-applied).
        const now = live.get(r.id)?.state;
        if (now !== 'staged' && now !== 'applying') return { whole: false, carried: 0, open };
      }
    }
    syncFile(join(targetDir, 'imports'));
    return { whole: true, carried, open };
  } finally {
    await copy.close();
    rmSync(`${partial}-lock`, { force: true });
  }
}

/** Waits until the original holds no import staged or being applied (its server applies them). */
async function untilNoImportApplying(source: RootDatabase, deadline: number): Promise<void> {
  const live = source.openDB<ImportRecord, number>(IMPORTS_DB);
  const isOpen = () => [...live.getRange()].some(({ value }) => value.state === 'staged' || value.state === 'applying');
  while (isOpen()) {
    if (performance.now() > deadline) throw new Error(`an import is still being applied after ${IMPORT_WAIT_MS / 60_000} minutes: no copy taken`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
