// The journal of history imports: an import's validated bars are staged (packed blocks per series,
// in a file of their own beside the store) and only then applied to the bars, by whichever process
// owns the data dir's writes (the running server, or the import itself when none runs). Staging is
// what makes a file all or nothing: a file that fails validation is dropped unstaged; an import is
// marked `applying` durably before its first bar is written, so a store that holds part of one
// knows it (its /health says so), and one cut short (a crash) is applied again from its blocks at
// the next start, which changes nothing twice. The staging file lives until the outcome is
// recorded: a backup carries it along (store/backup.ts). The blocks are read back with plain
// reads, not through the store's map, so a large import does not leave gigabytes of mapped pages
// resident.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreDbs } from './env.ts';
import { BAR_BYTES } from './codecs.ts';
/**
 * staging → staged → applying → applied | failed. `applying`: bars of it may be written, not all
 * yet. A `failed` import whose apply had begun (`result.halfApplied`) left part of itself.
 */
export type ImportState = 'staging' | 'staged' | 'applying' | 'applied' | 'failed';

/** Where an import's staging file lies in a data dir. */
export function stageFileOf(dataDir: string, id: number): string {
  return join(dataDir, 'imports', `${id}.stage`);
}

/** An import of which the store holds part: being applied, cut short, or failed midway. */
export interface HalfAppliedImport {
  id: number;
  source: string;
  /** applying: being applied now; resuming: cut short by a stop, being finished; failed: cannot be finished. */
  state: 'applying' | 'resuming' | 'failed';
  /** Why it failed (failed only). */
  error: string | null;
}

/** What the applying process reports back, per timeframe of bars written. */
export interface ImportResult {
  /** Bars written (added or replaced) per timeframe. */
  written: Record<string, number>;
  added: number;
  replaced: number;
  unchanged: number;
  /** Stored bars kept where an imported one differed (on-conflict skip). */
  kept: number;
  /** Bars at or after a live series' bar in progress, left to the live feed. */
  live: number;
  /** Why applying failed, when `state` is failed. */
  error?: string;
  /** Failed after its apply had begun: the store may hold part of it (see `completedBy`). */
  halfApplied?: boolean;
  /** A later import of the same file applied whole, which completed this half-applied one. */
  completedBy?: number;
  appliedMs: number;
}

export interface ImportRecord {
  id: number;
  state: ImportState;
  /** The file (or `ticks:` file) the import reads; shown in logs. */
  source: string;
  /** How bars meet stored bars of the same start. */
  onConflict: 'skip' | 'replace';
  /** The process that stages it: a `staging` record whose process is gone was cut short. */
  pid: number;
  createdMs: number;
  /** Series staged: [registry key, tfIndex, blocks as [offset, bytes] in the staging file]. */
  series: [string, number, [number, number][]][];
  /** Symbols the import added to the registry (the server loads them before applying). */
  newSymbols: number;
  /** When a process found it `applying` after the one applying it had stopped (it is finished from its blocks). */
  cutShortMs?: number;
  result?: ImportResult;
}

const VERSION_KEY = 'importsVersion';
const NEXT_ID_KEY = 'nextImportId';

/** The staging file an import writes: its blocks, appended. */
interface StageFile {
  fd: number;
  bytes: number;
}

export class ImportJournal {
  private seen = -1;
  private readonly open = new Map<number, StageFile>();
  private halfAppliedCache: { version: number; list: HalfAppliedImport[] } | null = null;

  constructor(
    private readonly dbs: StoreDbs,
    private readonly dataDir: string,
  ) {}

  private stagePath(id: number): string {
    return stageFileOf(this.dataDir, id);
  }

  /** Whether an import's staging file is there (a staged import can be applied from it). */
  hasStageFile(id: number): boolean {
    return existsSync(this.stagePath(id));
  }

  /** Opens an import: its record, in state `staging`. */
  begin(source: string, onConflict: 'skip' | 'replace', pid: number, nowMs: number): ImportRecord {
    let record!: ImportRecord;
    this.dbs.root.transactionSync(() => {
      const id = ((this.dbs.meta.get(NEXT_ID_KEY) as number | undefined) ?? 1);
      this.dbs.meta.putSync(NEXT_ID_KEY, id + 1);
      record = { id, state: 'staging', source, onConflict, pid, createdMs: nowMs, series: [], newSymbols: 0 };
      this.dbs.imports.putSync(id, record);
    });
    return record;
  }

  /** Appends one block of a series' bars (packed records, ascending t) to the import's staging file; returns where it lies. */
  stageBlock(id: number, records: Float64Array, count: number): [number, number] {
    let file = this.open.get(id);
    if (!file) {
      mkdirSync(join(this.dataDir, 'imports'), { recursive: true });
      this.open.set(id, (file = { fd: openSync(this.stagePath(id), 'w'), bytes: 0 }));
    }
    const bytes = new Uint8Array(records.buffer, records.byteOffset, count * BAR_BYTES);
    let written = 0;
    while (written < bytes.length) written += writeSync(file.fd, bytes, written, bytes.length - written, file.bytes + written);
    const at = file.bytes;
    file.bytes += bytes.length;
    return [at, bytes.length];
  }

  /** Makes the staged blocks durable and closes the staging file. */
  closeStage(id: number): void {
    const file = this.open.get(id);
    if (!file) return;
    this.open.delete(id);
    try {
      fsyncSync(file.fd);
    } finally {
      closeSync(file.fd);
    }
  }

  /** Marks the import complete and ready to apply, durably; the server notices through the version. */
  async markStaged(record: ImportRecord): Promise<void> {
    this.closeStage(record.id);
    await this.dbs.root.transaction(() => {
      this.dbs.imports.put(record.id, { ...record, state: 'staged' });
      this.bumpVersion();
    });
  }

  /**
   * Marks the import `applying`, durably, before its first bar is written: from here until
   * `finish` the store may hold part of it. An import found `applying` already was cut short.
   */
  async markApplying(record: ImportRecord, nowMs: number): Promise<ImportRecord> {
    let marked = record;
    await this.dbs.root.transaction(() => {
      const now = this.get(record.id) ?? record;
      marked = now.state === 'applying' ? { ...now, cutShortMs: now.cutShortMs ?? nowMs } : { ...now, state: 'applying' };
      this.dbs.imports.put(record.id, marked);
      this.bumpVersion();
    });
    return marked;
  }

  /** Marks every `applying` import cut short: called by the process that now owns the writes, before it finishes them. */
  async markCutShort(nowMs: number): Promise<void> {
    const cut = this.inState('applying').filter((r) => r.cutShortMs === undefined);
    if (cut.length === 0) return;
    await this.dbs.root.transaction(() => {
      for (const r of cut) this.dbs.imports.put(r.id, { ...r, cutShortMs: nowMs });
      this.bumpVersion();
    });
  }

  /** Drops an import's staged blocks and its record (a file that failed validation). */
  async discard(id: number): Promise<void> {
    this.removeStage(id);
    await this.dbs.imports.remove(id);
  }

  /**
   * Records the outcome and drops the staged blocks. This commit is where an import counts as
   * whole: `applied` is written only after every bar of it is committed. An import that failed
   * after bars of it were written (`result.halfApplied`) is completed by a later import of the
   * same file applied whole.
   */
  async finish(id: number, state: 'applied' | 'failed', result: ImportResult): Promise<void> {
    const record = this.get(id);
    if (!record) return;
    const completed = state === 'applied' ? this.halfApplied().filter((h) => h.state === 'failed' && h.source === record.source) : [];
    await this.dbs.root.transaction(() => {
      this.dbs.imports.put(id, { ...record, state, result });
      for (const h of completed) {
        const old = this.get(h.id)!;
        this.dbs.imports.put(h.id, { ...old, result: { ...old.result!, completedBy: id } });
      }
      this.bumpVersion();
    });
    this.removeStage(id);
  }

  /** Imports of which the store holds part, oldest first (cheap: recomputed only after a change). */
  halfApplied(): HalfAppliedImport[] {
    const version = (this.dbs.meta.get(VERSION_KEY) as number | undefined) ?? 0;
    if (this.halfAppliedCache?.version === version) return this.halfAppliedCache.list;
    const list: HalfAppliedImport[] = [];
    for (const { value } of this.dbs.imports.getRange()) {
      const r = value as ImportRecord;
      if (r.state === 'applying') list.push({ id: r.id, source: r.source, state: r.cutShortMs === undefined ? 'applying' : 'resuming', error: null });
      else if (r.state === 'failed' && r.result?.halfApplied && r.result.completedBy === undefined) list.push({ id: r.id, source: r.source, state: 'failed', error: r.result.error ?? null });
    }
    this.halfAppliedCache = { version, list };
    return list;
  }

  get(id: number): ImportRecord | undefined {
    return this.dbs.imports.get(id) as ImportRecord | undefined;
  }

  /** True once after each change of the journal made by any process (a cheap read of one record). */
  changed(): boolean {
    const version = (this.dbs.meta.get(VERSION_KEY) as number | undefined) ?? 0;
    if (version === this.seen) return false;
    this.seen = version;
    return true;
  }

  /** Imports in a state, oldest first. */
  inState(state: ImportState): ImportRecord[] {
    const out: ImportRecord[] = [];
    for (const { value } of this.dbs.imports.getRange()) {
      const record = value as ImportRecord;
      if (record.state === state) out.push(record);
    }
    return out;
  }

  /** The staged blocks of one series in order, each as packed records (a copy). */
  *blocks(record: ImportRecord, symbolKey: string, tfIndex: number): Generator<Float64Array> {
    const series = record.series.find(([key, tf]) => key === symbolKey && tf === tfIndex);
    if (!series || series[2].length === 0) return;
    const fd = openSync(this.stagePath(record.id), 'r');
    try {
      for (const [offset, length] of series[2]) {
        const out = new Float64Array(length / 8);
        const bytes = new Uint8Array(out.buffer);
        let read = 0;
        while (read < length) {
          const n = readSync(fd, bytes, read, length - read, offset + read);
          if (n === 0) throw new Error(`import ${record.id}: its staging file ends early`);
          read += n;
        }
        yield out;
      }
    } finally {
      closeSync(fd);
    }
  }

  private bumpVersion(): void {
    this.dbs.meta.put(VERSION_KEY, ((this.dbs.meta.get(VERSION_KEY) as number | undefined) ?? 0) + 1);
  }

  private removeStage(id: number): void {
    const file = this.open.get(id);
    if (file) {
      this.open.delete(id);
      closeSync(file.fd);
    }
    rmSync(this.stagePath(id), { force: true });
  }
}
