// `mds import splits|dividends FILE...`: loads corporate actions into a data dir, also while a
// server runs on it (its adjusted answers change from the next request). Each file is read and
// checked whole, then its good actions are written in one transaction; bad rows are reported with
// their line numbers and skipped (--strict: a file with a bad row writes nothing).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DIVIDEND_FIELDS, DIVIDEND_TYPES, SPLIT_FIELDS, type CorporateActionKind } from '../domain/corporate-actions.ts';
import { actionsFormatOfPath, type ActionsFormat } from '../ingest/importers/corporate-actions-file.ts';
import { importCorporateActions, type ActionsImportReport } from '../ingest/importers/corporate-actions-import.ts';
import { InputFileError } from '../ingest/importers/fundamentals-file.ts';
import { Store } from '../store/index.ts';
import { UsageError } from '../config.ts';
import type { ImportIo } from './import.ts';

export const ACTIONS_IMPORT_HELP = `Usage: mds import splits FILE... [options]
       mds import dividends FILE... [options]

Loads stock splits or cash dividends (CSV with a header row, NDJSON, or JSON: an array of objects
or a saved Massive reference answer {"results": [...]}) in the field names of Massive's reference
API; works while the server runs. A bare ticker is a US stock (AAPL → US:AAPL); US:AAPL is
accepted too. An action replaces the stored one of the same ticker and date: importing a file
again changes nothing. Each file is checked whole, then written in one transaction.

  splits:    ${SPLIT_FIELDS.join(', ')}
             (a 4-for-1 split is split_from 1, split_to 4)
  dividends: ${DIVIDEND_FIELDS.join(', ')}
             (ticker, ex_dividend_date, cash_amount required; dividend_type ${DIVIDEND_TYPES.join(', ')})
  The fields id and currency of a Massive answer are read past.

Options:
  --format csv|ndjson|json  input format (default: from the file name: .csv, .ndjson/.jsonl, .json)
  --strict                  a file with a bad row writes nothing (exit code 1)
  --progress                show progress even for small files
  --data-dir DIR            the data dir (default ./data, env MDS_DATA_DIR)
  --json                    print one summary line of JSON per file
  -h, --help                this text

Exit codes: 0 imported (bad rows, if any, were skipped), 1 a file imported nothing, 2 usage error.
See docs/import.md.
`;

const OPTIONS = {
  format: { type: 'string' },
  strict: { type: 'boolean' },
  progress: { type: 'boolean' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const PROGRESS_MIN_BYTES = 1 << 20;
const MAX_BAD_ROWS_SHOWN = 100;

function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}

export async function runActionsImport(kind: CorporateActionKind, argv: string[], env: Record<string, string | undefined>, io: ImportIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}\nRun 'mds import ${kind} --help' for the options.`);
  }
  const { values, positionals: files } = parsed;
  if (values.help) {
    io.out(ACTIONS_IMPORT_HELP);
    return 0;
  }
  if (files.length === 0) throw new UsageError(`'mds import ${kind}' needs a FILE (CSV, NDJSON or JSON)`);
  if (values.format !== undefined && values.format !== 'csv' && values.format !== 'ndjson' && values.format !== 'json') {
    throw new UsageError(`--format must be csv, ndjson or json, got ${JSON.stringify(values.format)}`);
  }
  const jobs: { file: string; path: string; format: ActionsFormat; bytes: number }[] = [];
  for (const file of files) {
    const format = (values.format as ActionsFormat | undefined) ?? actionsFormatOfPath(file);
    if (format === null) throw new UsageError(`cannot tell the format of ${file} from its name: use --format csv, ndjson or json`);
    const path = resolve(file);
    if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`no such file: ${file}`);
    jobs.push({ file, path, format, bytes: statSync(path).size });
  }
  const store = Store.open({ dataDir: resolve(values['data-dir'] ?? env.MDS_DATA_DIR ?? './data') });
  let code = 0;
  try {
    for (const job of jobs) {
      const c = await importOne(store, kind, job, values.strict === true, values.progress === true, values.json === true, io);
      code = Math.max(code, c);
    }
  } finally {
    await store.close();
  }
  return code;
}

async function importOne(store: Store, kind: CorporateActionKind, job: { file: string; path: string; format: ActionsFormat; bytes: number }, strict: boolean, forceProgress: boolean, json: boolean, io: ImportIo): Promise<number> {
  const { file } = job;
  const showProgress = forceProgress || job.bytes >= PROGRESS_MIN_BYTES;
  let lastTenth = -1;
  const progress = (bytes: number, rows: number) => {
    if (!showProgress) return;
    const percent = job.bytes === 0 ? 100 : Math.floor((bytes / job.bytes) * 100);
    if (io.isTty) io.err(`\rreading ${file}: ${percent}% (${formatNumber(rows)} rows)`);
    else if (Math.floor(percent / 10) > lastTenth) {
      lastTenth = Math.floor(percent / 10);
      io.err(`progress: ${percent}% of ${file} read (${formatNumber(rows)} rows)\n`);
    }
  };
  let shownBad = 0;
  const badRow = (line: number, error: string) => {
    if (++shownBad > MAX_BAD_ROWS_SHOWN) return;
    if (showProgress && io.isTty) io.err('\r\x1b[K');
    io.err(`${file}: line ${line}: skipped: ${error}\n`);
  };
  let report: ActionsImportReport;
  try {
    report = await importCorporateActions(store, kind, job.path, { format: job.format, strict, onProgress: progress, onBadRow: badRow });
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    if (showProgress && io.isTty) io.err('\n');
    io.err(`mds: ${file}: ${err.message}; nothing was imported\n`);
    return 1;
  }
  if (showProgress && io.isTty) io.err('\n');
  if (shownBad > MAX_BAD_ROWS_SHOWN) io.err(`... and ${formatNumber(shownBad - MAX_BAD_ROWS_SHOWN)} more bad rows\n`);
  const { rows, badRows, written } = report;
  if (json) {
    io.out(`${JSON.stringify({ file, kind, rows, bad_rows: badRows, imported: written !== null, symbols: report.symbols, ...(written && { added: written.added, replaced: written.replaced, unchanged: written.unchanged }) })}\n`);
    return written === null ? 1 : 0;
  }
  if (written === null) {
    io.err(badRows < rows && strict ? `mds: ${file}: ${formatNumber(badRows)} bad rows of ${formatNumber(rows)}; --strict: nothing was imported\n` : `mds: ${file}: no good row (${formatNumber(badRows)} bad of ${formatNumber(rows)}); nothing was imported\n`);
    return 1;
  }
  io.out(`imported ${file}: ${formatNumber(rows)} rows, ${formatNumber(badRows)} skipped as bad (one transaction); ${kind} of ${formatNumber(report.symbols)} symbols: ${formatNumber(written.added)} new, ${formatNumber(written.replaced)} replaced, ${formatNumber(written.unchanged)} unchanged\n`);
  return 0;
}
