// `mds import calendar` without the terminal: reads the whole file first (bad rows collected with
// their line numbers and skipped), then writes every good event in one transaction. An event
// replaces the stored one of the same id (an actual arriving, a revision, a new time): no duplicates.
import type { FileFormat } from './fundamentals-file.ts';
import type { CalendarWriteSummary, Store, StoredEvent } from '../../store/index.ts';
import { readCalendarFile } from './calendar-file.ts';

export interface CalendarImportOptions {
  format: FileFormat;
  strict?: boolean;
  onProgress?: (bytesRead: number, rows: number) => void;
  onBadRow?: (line: number, error: string) => void;
}

export interface CalendarImportReport {
  rows: number;
  badRows: number;
  /** Null when nothing was written (a strict import with bad rows, or no good row). */
  written: CalendarWriteSummary | null;
}

export async function importCalendar(store: Store, path: string, opts: CalendarImportOptions): Promise<CalendarImportReport> {
  const events: StoredEvent[] = [];
  let rows = 0;
  let badRows = 0;
  for await (const row of readCalendarFile(path, opts.format, (bytes) => opts.onProgress?.(bytes, rows))) {
    rows++;
    if ('error' in row) {
      badRows++;
      opts.onBadRow?.(row.line, row.error);
    } else events.push({ ...row.event, origin: 'import' });
  }
  if ((opts.strict && badRows > 0) || events.length === 0) return { rows, badRows, written: null };
  const written = store.calendar.upsert(events);
  // For an ingest node to publish to its edges (store/history-changes.ts).
  await store.historyChanges.note({ kind: 'calendar', ids: [...new Set(events.map((e) => e.id))] });
  return { rows, badRows, written };
}
