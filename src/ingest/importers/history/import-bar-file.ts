// One file of a history import, start to end: validate and stage its rows, add the symbols it
// needs, mark it ready, then apply it here (no server runs) or wait for the running server to
// apply it. A file whose faults pass the bound, or that cannot be read to its end, leaves nothing.
import type { ImportRecord, ImportResult, Store } from '../../../store/index.ts';
import { applyImport } from './apply-bars.ts';
import { isProcessAlive } from './import-watcher.ts';
import { BarStager, type BarRows, type StageOptions, type StageReport } from './stage-bars.ts';

/** Commits of merged bars (65,536 rows each) between full collections while applying here. */
const COLLECT_EVERY_COMMITS = 4;

export type FileOutcome =
  /** Staged and applied: `result` says what was written. */
  | 'applied'
  /** More faults than allowed: nothing of the file was kept. */
  | 'rejected'
  /** No row to stage (every row refused within the bound, or an empty file). */
  | 'empty'
  /** Staged, and the server that was to apply it stopped first: it applies it at its next start. */
  | 'pending'
  /** Applying failed (`error`). */
  | 'failed';

export interface FileImport {
  outcome: FileOutcome;
  report: StageReport;
  result: ImportResult | null;
  error?: string;
  importId: number;
}

export interface FileImportOptions extends StageOptions {
  /** The process that applies staged imports: this one (null), or a running server's pid. */
  serverPid: number | null;
  /** Called once when the file is staged and waits for the server. */
  onWaiting?(pid: number): void;
  /** Between waits for the server (tests drive it; default 50 ms). */
  waitMs?: number;
}

export async function importBarFile(store: Store, source: string, batches: AsyncIterable<BarRows>, opts: FileImportOptions): Promise<FileImport> {
  const begun = store.imports.begin(source, opts.onConflict, process.pid, opts.nowMs);
  const stager = new BarStager(store, begun, opts);
  let record: ImportRecord;
  try {
    for await (const rows of batches) {
      if (!(await stager.add(rows))) break;
    }
    record = stager.finish();
  } catch (err) {
    await store.imports.discard(begun.id);
    throw err;
  }
  const report = stager.report;
  if (report.aborted || report.staged === 0) {
    await store.imports.discard(begun.id);
    return { outcome: report.aborted ? 'rejected' : 'empty', report, result: null, importId: begun.id };
  }
  const created = stager.newSymbols();
  if (created.length > 0) store.registry.upsert(created);
  await store.imports.markStaged(record);

  if (opts.serverPid === null) {
    // A full collection after each commit keeps a long import's memory flat: left to itself the
    // runtime lets the merge's buffers pile up to several times what is live (200 MB vs 60 MB).
    let commits = 0;
    const done = await applyImport(store, record, opts.nowMs, { committed: () => ++commits % COLLECT_EVERY_COMMITS === 0 && Bun.gc(true) });
    if (done.state === 'applied') return { outcome: 'applied', report, result: done.result, importId: record.id };
    return { outcome: 'failed', report, result: null, error: done.error, importId: record.id };
  }

  opts.onWaiting?.(opts.serverPid);
  for (;;) {
    const now = store.imports.get(record.id);
    if (now?.state === 'applied') return { outcome: 'applied', report, result: now.result ?? null, importId: record.id };
    if (now?.state === 'failed') return { outcome: 'failed', report, result: null, error: now.result?.error, importId: record.id };
    if (!isProcessAlive(opts.serverPid)) return { outcome: 'pending', report, result: null, importId: record.id };
    await new Promise((resolve) => setTimeout(resolve, opts.waitMs ?? 50));
  }
}
