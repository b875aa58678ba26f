// `mds import splits|dividends` without the terminal: the whole file is read and checked first
// (bad rows collected with their line numbers and skipped), and only then are its good actions
// written, in one transaction: a file is applied whole or not at all, also next to a running
// server (which reads them from its next request). An action replaces the stored one of the same
// symbol, kind and date, so importing a file again changes nothing.
import type { CorporateActionKind, Dividend, Split } from '../../domain/corporate-actions.ts';
import type { ActionsWriteSummary, Store } from '../../store/index.ts';
import { readActionsFile, type ActionsFormat } from './corporate-actions-file.ts';

export interface ActionsImportOptions {
  format: ActionsFormat;
  strict?: boolean;
  onProgress?: (bytesRead: number, rows: number) => void;
  onBadRow?: (line: number, error: string) => void;
}

export interface ActionsImportReport {
  rows: number;
  badRows: number;
  symbols: number;
  /** Null when nothing was written (a strict import with bad rows, or no good row). */
  written: ActionsWriteSummary | null;
}

export async function importCorporateActions(store: Store, kind: CorporateActionKind, path: string, opts: ActionsImportOptions): Promise<ActionsImportReport> {
  const splits: Split[] = [];
  const dividends: Dividend[] = [];
  let rows = 0;
  let badRows = 0;
  for await (const row of readActionsFile(path, kind, opts.format, (bytes) => opts.onProgress?.(bytes, rows))) {
    rows++;
    if ('error' in row) {
      badRows++;
      opts.onBadRow?.(row.line, row.error);
    } else if ('split' in row) splits.push(row.split);
    else dividends.push(row.dividend);
  }
  const symbols = new Set([...splits.map((s) => s.symbol), ...dividends.map((d) => d.symbol)]);
  if ((opts.strict && badRows > 0) || symbols.size === 0) return { rows, badRows, symbols: symbols.size, written: null };
  const written = await writeCorporateActions(store, splits, dividends);
  return { rows, badRows, symbols: symbols.size, written };
}

/**
 * Stores checked actions in one transaction (the same symbol, kind and date replaces) and, when
 * something changed, notes their symbols for an ingest node to publish to its edges
 * (store/history-changes.ts). The import and the upstream feeds (ingest/actions-sync.ts) write here.
 */
export async function writeCorporateActions(store: Store, splits: readonly Split[], dividends: readonly Dividend[]): Promise<ActionsWriteSummary> {
  const written = store.corporateActions.put(splits, dividends);
  if (written.added + written.replaced > 0) await store.historyChanges.note({ kind: 'actions', symbols: [...new Set([...splits.map((s) => s.symbol), ...dividends.map((d) => d.symbol)])] });
  return written;
}
