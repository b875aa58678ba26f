// `mds import calendar FILE`: the parts that differ from the other imports (src/cli/import.ts runs
// them all): its help and the summary printed once the events are written.
import { CALENDAR_COLUMNS } from '../domain/economic-calendar.ts';
import type { CalendarImportReport } from '../ingest/importers/calendar-import.ts';

export const CALENDAR_IMPORT_HELP = `Economic calendar (mds import calendar FILE): CSV or NDJSON with the fields
  ${CALENDAR_COLUMNS.join(', ')}
(id, country, event, category, importance and scheduled_at required; scheduled_at in Unix ms or
ISO 8601 with its zone; actual, forecast, previous empty when not known yet). An event replaces
the stored one of the same id: send it again when its actual arrives or it is revised.
See docs/calendar.md.
`;

function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

/** Prints the summary of a calendar import; returns the exit code. */
export function reportCalendarImport(report: CalendarImportReport, file: string, json: boolean, io: { out: (text: string) => void; err: (text: string) => void }): number {
  const { rows, badRows, written } = report;
  if (json) {
    io.out(`${JSON.stringify({ file, rows, bad_rows: badRows, imported: written !== null, ...(written && { added: written.added, updated: written.updated, unchanged: written.unchanged }) })}\n`);
    return written === null ? 1 : 0;
  }
  if (written === null) {
    io.err(badRows < rows ? `mds: ${file}: ${formatNumber(badRows)} bad rows of ${formatNumber(rows)}; --strict: nothing was imported\n` : `mds: ${file}: no good row (${formatNumber(badRows)} bad of ${formatNumber(rows)}); nothing was imported\n`);
    return 1;
  }
  io.out(`imported ${file}: ${formatNumber(rows)} rows, ${formatNumber(badRows)} skipped as bad (one transaction); events: ${formatNumber(written.added)} new, ${formatNumber(written.updated)} updated, ${formatNumber(written.unchanged)} unchanged\n`);
  return 0;
}
