// `mds import fundamentals|bonds|calendar FILE` (the bonds and calendar parts: import-bonds.ts,
// import-calendar.ts): loads issuer records, bond yields or calendar events into a data dir — also
// while a server runs on it (the server serves the new figures from its next request). Bad rows
// are reported with their line numbers and skipped; the good rows are written in one transaction.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { INPUT_COLUMN_NAMES } from '../domain/fundamentals-input.ts';
import { formatOfPath, InputFileError, type FileFormat } from '../ingest/importers/fundamentals-file.ts';
import { importFundamentals } from '../ingest/importers/fundamentals-import.ts';
import { importBonds } from '../ingest/importers/bonds-import.ts';
import { systemClock } from '../clock.ts';
import { BONDS_IMPORT_HELP, latestImportDate, reportBondsImport } from './import-bonds.ts';
import { importCalendar } from '../ingest/importers/calendar-import.ts';
import { CALENDAR_IMPORT_HELP, reportCalendarImport } from './import-calendar.ts';
import { Store } from '../store/index.ts';
import { UsageError } from '../config.ts';
import { runHistoryImport } from './import-history.ts';
import { runActionsImport } from './import-actions.ts';

export const IMPORT_HELP = `Usage: mds import bars|ticks FILE|GLOB... [options]   (history; 'mds import bars --help')
       mds import fundamentals FILE [options]
       mds import bonds FILE [options]
       mds import calendar FILE [options]
       mds import splits|dividends FILE... [options]   (corporate actions; 'mds import splits --help')

Fundamentals: loads issuer records (CSV with a header row, or NDJSON: one JSON object per line)
into the data dir's fundamentals. Each record is validated against the live price of its listing as it is
written; works while the server runs (the next request sees the new figures). A bad row is
reported with its line number and skipped; the good rows are written in one transaction.

Columns (see docs/fundamentals.md for what each means; symbol and as_of are required):
  ${INPUT_COLUMN_NAMES.join(', ')}

Options:
  --format csv|ndjson  input format (default: from the file name: .csv, .ndjson or .jsonl)
  --strict             write nothing when any row is bad (exit code 1)
  --progress           show progress even for small files (large files always show it)
  --data-dir DIR       the data dir (default ./data, env MDS_DATA_DIR)
  --json               print the summary as JSON
  --source TEXT        bonds: who published the figures, for rows that name no source
  -h, --help           this text

${BONDS_IMPORT_HELP}
${CALENDAR_IMPORT_HELP}
Exit codes: 0 imported (bad rows, if any, were skipped), 1 nothing imported, 2 usage error.
`;

/** Files at least this large show progress on the terminal. */
export const PROGRESS_MIN_BYTES = 1 << 20;
const MAX_BAD_ROWS_SHOWN = 100;

const OPTIONS = {
  format: { type: 'string' },
  strict: { type: 'boolean' },
  progress: { type: 'boolean' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  source: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface ImportIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether the error stream is a terminal: progress then redraws one line. */
  isTty: boolean;
}

function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

export async function runImport(argv: string[], env: Record<string, string | undefined>, io: ImportIo): Promise<number> {
  if (argv[0] === 'bars' || argv[0] === 'ticks') return runHistoryImport(argv[0], argv.slice(1), env, io);
  if (argv[0] === 'splits' || argv[0] === 'dividends') return runActionsImport(argv[0], argv.slice(1), env, io);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}\nRun 'mds import --help' for the options.`);
  }
  const { values, positionals } = parsed;
  const [what, file, ...extra] = positionals;
  if (values.help || what === undefined) {
    io.out(IMPORT_HELP);
    return values.help ? 0 : 2;
  }
  if (what !== 'fundamentals' && what !== 'bonds' && what !== 'calendar') throw new UsageError(`mds import knows bars, ticks, fundamentals, bonds, calendar, splits and dividends; got ${JSON.stringify(what)}`);
  if (file === undefined) throw new UsageError(what === 'bonds' ? "'mds import bonds' needs a FILE (CSV)" : `'mds import ${what}' needs a FILE (CSV or NDJSON)`);
  if (values.source !== undefined && what !== 'bonds') throw new UsageError('--source applies to mds import bonds only');
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  let format: FileFormat | null;
  if (values.format !== undefined) {
    if (values.format !== 'csv' && values.format !== 'ndjson') throw new UsageError(`--format must be csv or ndjson, got ${JSON.stringify(values.format)}`);
    format = values.format;
  } else {
    // Bond files are CSV whatever their name (the Treasury's downloads keep theirs).
    format = what === 'bonds' ? 'csv' : formatOfPath(file);
    if (format === null) throw new UsageError(`cannot tell the format of ${file} from its name: use --format csv or --format ndjson`);
  }
  if (what === 'bonds' && format !== 'csv') throw new UsageError('bond yield files are CSV: --format csv');
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`no such file: ${file}`);
  const totalBytes = statSync(path).size;
  const showProgress = values.progress === true || totalBytes >= PROGRESS_MIN_BYTES;

  let lastPercent = -1;
  let lastDrawMs = 0;
  const progress = (bytes: number, rows: number, final = false) => {
    if (!showProgress) return;
    const percent = totalBytes === 0 ? 100 : Math.floor((bytes / totalBytes) * 100);
    if (io.isTty) {
      const now = performance.now();
      if (now - lastDrawMs < 100 && !final) return;
      lastDrawMs = now;
      io.err(`\rreading ${file}: ${percent}% (${formatNumber(rows)} rows)`);
    } else if (Math.floor(percent / 10) > Math.floor(lastPercent / 10) || (final && percent > lastPercent)) {
      lastPercent = percent;
      io.err(`progress: ${percent}% of ${file} read (${formatNumber(rows)} rows)\n`);
    }
  };
  let shownBad = 0;
  let clearLine = showProgress && io.isTty;
  const badRow = (line: number, error: string) => {
    if (++shownBad > MAX_BAD_ROWS_SHOWN) return;
    if (clearLine) io.err('\r\x1b[K');
    io.err(`line ${line}: skipped: ${error}\n`);
  };
  /** After the file is read: its final row count, the end of the progress line, the bad rows not shown. */
  const finishReading = (rows: number) => {
    // The last rows of a file come out after its last chunk: draw the final count.
    progress(totalBytes, rows, true);
    if (clearLine) {
      io.err('\n');
      clearLine = false;
    }
    if (shownBad > MAX_BAD_ROWS_SHOWN) io.err(`... and ${formatNumber(shownBad - MAX_BAD_ROWS_SHOWN)} more bad rows\n`);
  };
  const fileError = (err: unknown): number => {
    if (!(err instanceof InputFileError)) throw err;
    if (clearLine) io.err('\n');
    io.err(`mds: ${file}: ${err.message}; nothing was imported\n`);
    return 1;
  };

  const store = Store.open({ dataDir: resolve(values['data-dir'] ?? env.MDS_DATA_DIR ?? './data') });
  try {
    if (what === 'bonds') {
      const bonds = await importBonds(store, path, { source: values.source, latestDate: latestImportDate(systemClock), strict: values.strict === true, onProgress: progress, onBadRow: badRow }).catch(fileError);
      if (typeof bonds === 'number') return bonds;
      finishReading(bonds.rows);
      return reportBondsImport(bonds, file, values.json === true, io);
    }
    if (what === 'calendar') {
      const calendar = await importCalendar(store, path, { format, strict: values.strict === true, onProgress: progress, onBadRow: badRow }).catch(fileError);
      if (typeof calendar === 'number') return calendar;
      finishReading(calendar.rows);
      return reportCalendarImport(calendar, file, values.json === true, io);
    }
    const report = await importFundamentals(store, path, { format, latestDate: latestImportDate(systemClock), strict: values.strict === true, onProgress: progress, onBadRow: badRow }).catch(fileError);
    if (typeof report === 'number') return report;
    finishReading(report.rows);
    const { rows, badRows, written } = report;
    if (values.json) {
      io.out(`${JSON.stringify({ file, rows, bad_rows: badRows, imported: written !== null, ...(written && { symbols_written: written.symbolsWritten, shares: written.shares, profile: written.profile, prices: written.prices, kept: written.kept }) })}\n`);
      return written === null ? 1 : 0;
    }
    if (written === null) {
      io.err(`mds: ${file}: ${formatNumber(badRows)} bad rows of ${formatNumber(rows)}; --strict: nothing was imported\n`);
      return 1;
    }
    const s = written;
    io.out(
      [
        `imported ${file}: ${formatNumber(rows)} rows, ${formatNumber(badRows)} skipped as bad, ${formatNumber(s.symbolsWritten)} symbols updated (one transaction)`,
        `share structure: ${s.shares.written} new, ${s.shares.refreshed} refreshed, ${s.shares.restated} restated, ${s.shares.unchanged} unchanged, ${s.shares.kept} kept (restatement incomplete), ${s.shares.stale} older than stored`,
        `profile: ${s.profile.written} new, ${s.profile.refreshed} refreshed, ${s.profile['not-due']} not due (monthly)`,
        `cross-check price: ${s.prices.live} live, ${s.prices.file} from the price column, ${s.prices.none} none (counts unchecked)`,
        ...s.kept.slice(0, MAX_BAD_ROWS_SHOWN).map((k) => `kept previous set of ${k.symbol}: the ${k.asOf} record leaves ${k.missing.join(', ')} unavailable`),
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await store.close();
  }
}
