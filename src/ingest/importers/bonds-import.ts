// `mds import bonds` without the terminal: reads the whole file first (bad rows are collected
// with their line numbers and skipped), then writes every good observation in one transaction, so
// an import is applied whole or not at all. Observations replace stored ones of the same symbol and
// date, so importing a file again (or a revised one) never duplicates a day.
import type { Store, BondWriteSummary } from '../../store/index.ts';
import type { BondObservation } from '../../domain/bonds.ts';
import { readBondsFile, type BondsFileInfo } from './bonds-file.ts';

export interface BondsImportOptions {
  /** Source for rows that name none. */
  source?: string;
  /** Latest acceptable observation date, `YYYY-MM-DD`. */
  latestDate: string;
  /** Refuse the whole import when any row is bad. */
  strict?: boolean;
  onProgress?: (bytesRead: number, rows: number) => void;
  onBadRow?: (line: number, error: string) => void;
}

export interface BondsImportReport {
  info: BondsFileInfo | null;
  rows: number;
  badRows: number;
  observations: number;
  symbols: number;
  firstDate: string | null;
  lastDate: string | null;
  /** Null when nothing was written (a strict import with bad rows, or no good row). */
  written: BondWriteSummary | null;
}

export async function importBonds(store: Store, path: string, opts: BondsImportOptions): Promise<BondsImportReport> {
  let info: BondsFileInfo | null = null;
  const observations: BondObservation[] = [];
  let rows = 0;
  let badRows = 0;
  const read = readBondsFile(path, {
    source: opts.source,
    latestDate: opts.latestDate,
    onHeader: (i) => (info = i),
    onProgress: (bytes) => opts.onProgress?.(bytes, rows),
  });
  for await (const row of read) {
    rows++;
    if ('error' in row) {
      badRows++;
      opts.onBadRow?.(row.line, row.error);
    } else {
      observations.push(...row.observations);
    }
  }
  const symbols = new Set(observations.map((o) => o.symbol));
  let firstDate: string | null = null;
  let lastDate: string | null = null;
  for (const o of observations) {
    if (firstDate === null || o.date < firstDate) firstDate = o.date;
    if (lastDate === null || o.date > lastDate) lastDate = o.date;
  }
  const report = { info, rows, badRows, observations: observations.length, symbols: symbols.size, firstDate, lastDate };
  if ((opts.strict && badRows > 0) || observations.length === 0) return { ...report, written: null };
  const written = store.bonds.put(observations);
  // For an ingest node to publish to its edges (store/history-changes.ts).
  await store.historyChanges.note({ kind: 'bonds', symbols: [...symbols] });
  return { ...report, written };
}
