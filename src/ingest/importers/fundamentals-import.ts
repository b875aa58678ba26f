// `mds import fundamentals` without the terminal: reads the whole file first (bad rows are
// collected with their line numbers and skipped), then writes every good row in one transaction,
// so an import is applied whole or not at all and never half of a row.
import type { RawFundamentals } from '../../domain/fundamentals-input.ts';
import type { Store } from '../../store/index.ts';
import { writeFundamentals, type WriteSummary } from '../fundamentals-writer.ts';
import { readFundamentalsFile, type FileFormat } from './fundamentals-file.ts';

export interface ImportOptions {
  format: FileFormat;
  /** Records dated after this (`YYYY-MM-DD`) are bad rows: a vintage is never in the future. */
  latestDate: string;
  /** Refuse the whole import when any row is bad. */
  strict?: boolean;
  /** Called as the file is read: bytes so far, rows so far. */
  onProgress?: (bytesRead: number, rows: number) => void;
  /** Called for each bad row as it is found. */
  onBadRow?: (line: number, error: string) => void;
}

export interface ImportReport {
  rows: number;
  badRows: number;
  /** Null when nothing was written (a strict import with bad rows). */
  written: WriteSummary | null;
}

export async function importFundamentals(store: Store, path: string, opts: ImportOptions): Promise<ImportReport> {
  const records: RawFundamentals[] = [];
  let rows = 0;
  let badRows = 0;
  for await (const row of readFundamentalsFile(path, opts.format, opts.latestDate, (bytes) => opts.onProgress?.(bytes, rows))) {
    rows++;
    if ('error' in row) {
      badRows++;
      opts.onBadRow?.(row.line, row.error);
    } else {
      records.push(row.record);
    }
  }
  if (opts.strict && badRows > 0) return { rows, badRows, written: null };
  const written = writeFundamentals(store, records);
  // For an ingest node to publish to its edges (store/history-changes.ts).
  await store.historyChanges.note({ kind: 'fundamentals', symbols: [...new Set(records.map((r) => r.symbol))] });
  return { rows, badRows, written };
}
