// `mds import bonds FILE`: the parts that differ from the fundamentals import (src/cli/import.ts
// runs both): the latest date an observation may carry, and the summary printed once the
// observations are written.
import type { Clock } from '../clock.ts';
import type { BondsImportReport } from '../ingest/importers/bonds-import.ts';
import { SIMPLE_COLUMNS, TREASURY_SOURCE } from '../ingest/importers/bonds-file.ts';

export const BONDS_IMPORT_HELP = `Bond yields (mds import bonds FILE): a CSV in one of two layouts, told apart by the header:
  - the US Treasury daily par yield curve: Date (MM/DD/YYYY), then one column per tenor
    (1 Mo, 2 Mo, 3 Mo, 4 Mo, 6 Mo, 1 Yr, 2 Yr, 3 Yr, 5 Yr, 7 Yr, 10 Yr, 20 Yr, 30 Yr); other
    columns (1.5 Month, 6 Wk, ...) are ignored with a note; an empty or N/A cell is no value;
    source: "${TREASURY_SOURCE}" unless --source is given
  - any covered country: ${SIMPLE_COLUMNS.join(',')} (date YYYY-MM-DD, tenor such as 10Y or
    3M, yield in percent; source may be left out when --source is given)
An observation replaces a stored one of the same symbol and date (importing again never
duplicates a day). See docs/bonds.md.
`;

/** Bond observations and fundamentals vintages dated after this are refused: tomorrow in UTC, so no time zone is ahead of it. */
export function latestImportDate(clock: Clock): string {
  return new Date(clock.nowMs() + 86_400_000).toISOString().slice(0, 10);
}

function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

/** Prints the summary of a bonds import; returns the exit code. */
export function reportBondsImport(report: BondsImportReport, file: string, json: boolean, io: { out: (text: string) => void; err: (text: string) => void }): number {
  const { rows, badRows, written } = report;
  if (json) {
    io.out(
      `${JSON.stringify({
        file,
        layout: report.info?.layout ?? null,
        rows,
        bad_rows: badRows,
        imported: written !== null,
        observations: report.observations,
        symbols: report.symbols,
        first_date: report.firstDate,
        last_date: report.lastDate,
        ignored_columns: report.info?.ignoredColumns ?? [],
        ...(written && { added: written.added, replaced: written.replaced, unchanged: written.unchanged }),
      })}\n`,
    );
    return written === null ? 1 : 0;
  }
  const ignored = report.info?.ignoredColumns ?? [];
  if (ignored.length > 0) io.err(`note: ignored columns that are not covered tenors: ${ignored.join(', ')}\n`);
  if (written === null) {
    io.err(report.observations === 0 ? `mds: ${file}: no good row (${formatNumber(badRows)} bad of ${formatNumber(rows)}); nothing was imported\n` : `mds: ${file}: ${formatNumber(badRows)} bad rows of ${formatNumber(rows)}; --strict: nothing was imported\n`);
    return 1;
  }
  const layout = report.info?.layout === 'treasury' ? 'US Treasury daily par yield curve layout' : 'date,country,tenor,yield,source layout';
  io.out(
    [
      `imported ${file} (${layout}): ${formatNumber(rows)} rows, ${formatNumber(badRows)} skipped as bad (one transaction)`,
      `${formatNumber(report.observations)} observations of ${report.symbols} symbols from ${report.firstDate} to ${report.lastDate}: ${formatNumber(written.added)} new, ${formatNumber(written.replaced)} replaced, ${formatNumber(written.unchanged)} unchanged`,
    ].join('\n') + '\n',
  );
  return 0;
}
