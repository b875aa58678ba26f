// The journal of history imports: an import's validated bars are staged here (packed blocks per
// series) and only then applied to the bars, by whichever process owns the data dir's writes (the
// running server, or the import itself when none runs). Staging is what makes a file all or
// nothing: a file that fails validation is dropped unstaged, and an applied import that was cut
// short (a crash) is applied again from its blocks at the next start, which changes nothing twice.
import type { StoreDbs } from './env.ts';
import { BAR_BYTES, f64View } from './codecs.ts';

export type ImportState = 'staging' | 'staged' | 'applied' | 'failed';

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
  /** Series staged: [registry key, tfIndex, blocks]. */
  series: [string, number, number][];
  /** Symbols the import added to the registry (the server loads them before applying). */
  newSymbols: number;
  result?: ImportResult;
}

const VERSION_KEY = 'importsVersion';
const NEXT_ID_KEY = 'nextImportId';

export class ImportJournal {
  private seen = -1;

  constructor(private readonly dbs: StoreDbs) {}

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

  /** Stages one block of a series' bars (packed records, ascending t, blocks in order). */
  stageBlock(id: number, symbolKey: string, tfIndex: number, block: number, records: Float64Array, count: number): Promise<unknown> {
    const bytes = Buffer.from(records.buffer, records.byteOffset, count * BAR_BYTES);
    return this.dbs.importStage.put([id, symbolKey, tfIndex, block], Buffer.from(bytes));
  }

  /** Marks the import complete and ready to apply, durably; the server notices through the version. */
  async markStaged(record: ImportRecord): Promise<void> {
    await this.dbs.root.transaction(() => {
      this.dbs.imports.put(record.id, { ...record, state: 'staged' });
      this.bumpVersion();
    });
  }

  /** Drops an import's staged blocks and its record (a file that failed validation). */
  async discard(id: number): Promise<void> {
    await this.removeBlocks(id);
    await this.dbs.imports.remove(id);
  }

  /** Records the outcome and drops the staged blocks. */
  async finish(id: number, state: 'applied' | 'failed', result: ImportResult): Promise<void> {
    const record = this.get(id);
    if (!record) return;
    await this.dbs.root.transaction(() => {
      this.dbs.imports.put(id, { ...record, state, result });
      this.bumpVersion();
    });
    await this.removeBlocks(id);
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
  *blocks(id: number, symbolKey: string, tfIndex: number): Generator<Float64Array> {
    for (const { value } of this.dbs.importStage.getRange({ start: [id, symbolKey, tfIndex], end: [id, symbolKey, tfIndex + 1] })) {
      yield f64View(Uint8Array.prototype.slice.call(value));
    }
  }

  private bumpVersion(): void {
    this.dbs.meta.put(VERSION_KEY, ((this.dbs.meta.get(VERSION_KEY) as number | undefined) ?? 0) + 1);
  }

  private async removeBlocks(id: number): Promise<void> {
    let last: Promise<unknown> = Promise.resolve();
    let n = 0;
    for (const key of this.dbs.importStage.getKeys({ start: [id], end: [id + 1] })) {
      last = this.dbs.importStage.remove(key);
      // Bounded batches: a large import's removal is not one huge transaction.
      if (++n % 4096 === 0) await last;
    }
    await last;
  }
}
