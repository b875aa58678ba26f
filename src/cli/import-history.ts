// `mds import bars|ticks FILE...`: history from files into the data dir, file by file, each whole
// or not at all; works next to a running server (which applies what this stages) or alone (then it
// holds the data dir while it writes). Progress on the terminal, a summary at the end.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ASSET_CLASSES, type AssetClass } from '../domain/asset-classes.ts';
import type { RowFault } from '../domain/bar-import.ts';
import { TIMEFRAMES } from '../domain/timeframes.ts';
import { DEFAULT_RETENTION, formatRetention, type Retention } from '../domain/retention.ts';
import { systemClock } from '../clock.ts';
import { BAR_PRESETS, expandInputs, InputFileError, openBarFile, openTickFile, parseColumnMapping, TICK_PRESETS, type InputFormat, type TimeUnit } from '../ingest/importers/history/index.ts';
import { importBarFile, type FileImport, type FileImportOptions } from '../ingest/importers/history/import-bar-file.ts';
import { importTickFile } from '../ingest/importers/history/import-tick-file.ts';
import { ImportWatcher } from '../ingest/importers/history/import-watcher.ts';
import { ALL_INSTRUMENTS } from '../ingest/reference/catalog.ts';
import { seedRegistry } from '../ingest/reference/seed-registry.ts';
import { Store } from '../store/index.ts';
import { UsageError } from '../config.ts';
import { lockDataDir, serverPidOf } from './data-dir-lock.ts';
import type { ImportIo } from './import.ts';

export const HISTORY_IMPORT_HELP = `Usage: mds import bars FILE|GLOB... [options]
       mds import ticks FILE|GLOB... [options]

Bars: OHLCV rows of 1-minute bars (every coarser bar is rolled up from them, as live bars are) or
daily bars. Ticks: quotes and trades, run through the live ingest path into 1-minute bars and up.
Files: CSV, NDJSON or Parquet, plain, gzip (.gz) or zstd (.zst); several files or quoted globs.
Each file is validated whole first: with more bad rows than --max-errors nothing of it is kept,
and the import stops there. Works while a server runs on the data dir: it applies each file and
serves the new bars at once. Importing the same file again changes nothing.

Options:
  --format PRESET       bars: ${BAR_PRESETS.join(', ')}; ticks: ${TICK_PRESETS.join(', ')}
                        (default: guessed from the file name, else generic)
  --columns MAP         generic: which column is which, e.g. t=timestamp,o=open,h=high,l=low,c=close,v=volume,symbol=ticker
                        (ticks: t, symbol, bid, ask, bid_size, ask_size, price, size, kind)
  --symbol SYMBOL       every row is this symbol (files without a symbol column)
  --class CLASS         the class of rows whose file does not say: ${ASSET_CLASSES.join(', ')}
  --time-unit UNIT      s, ms, us, ns or iso (default: numbers by magnitude, text as ISO 8601)
  --tz ZONE             IANA zone of dates and zone-less times (default UTC)
  --timeframe TF        bars: 1m or 1d (default: from the preset or file name)
  --file-type TYPE      csv, ndjson or parquet (default: from the file name)
  --create-symbols      add unknown symbols to the registry (with --class, or the preset's class)
  --max-errors N        bad rows a file may have and still be imported, skipped (default 0)
  --on-conflict MODE    skip (default: stored bars stay) or replace (imported bars overwrite)
  --data-dir DIR        the data dir (default ./data, env MDS_DATA_DIR)
  --progress            progress lines even when not on a terminal
  --json                the summary as JSON
  -h, --help            this text

Exit codes: 0 every file imported, 1 a file was refused or unreadable (files before it stay), 2 usage error.
`;

const OPTIONS = {
  format: { type: 'string' },
  columns: { type: 'string' },
  symbol: { type: 'string' },
  class: { type: 'string' },
  'time-unit': { type: 'string' },
  tz: { type: 'string' },
  timeframe: { type: 'string' },
  'file-type': { type: 'string' },
  'create-symbols': { type: 'boolean' },
  'max-errors': { type: 'string' },
  'on-conflict': { type: 'string' },
  'data-dir': { type: 'string' },
  progress: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const MAX_FAULTS_SHOWN = 100;
const TIME_UNITS = ['s', 'ms', 'us', 'ns', 'iso'];
const FILE_TYPES = ['csv', 'ndjson', 'parquet'];

const n = (x: number) => x.toLocaleString('en-US');

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  return value as T;
}

export async function runHistoryImport(kind: 'bars' | 'ticks', argv: string[], env: Record<string, string | undefined>, io: ImportIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}\nRun 'mds import ${kind} --help' for the options.`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(HISTORY_IMPORT_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError(`'mds import ${kind}' needs at least one FILE (or a quoted glob)\nRun 'mds import ${kind} --help' for the options.`);
  const preset = oneOf('format', values.format, kind === 'bars' ? BAR_PRESETS : TICK_PRESETS);
  const assetClass = oneOf<AssetClass>('class', values.class, ASSET_CLASSES);
  const timeUnit = oneOf('time-unit', values['time-unit'], TIME_UNITS) as TimeUnit | undefined;
  const fileType = oneOf('file-type', values['file-type'], FILE_TYPES) as InputFormat | undefined;
  const onConflict = oneOf('on-conflict', values['on-conflict'], ['skip', 'replace'] as const) ?? 'skip';
  let timeframe: '1m' | '1d' | undefined;
  if (values.timeframe !== undefined) {
    if (kind === 'ticks') throw new UsageError('--timeframe applies to mds import bars only (ticks always make 1-minute bars and up)');
    if (values.timeframe !== '1m' && values.timeframe !== '1d') {
      throw new UsageError(`--timeframe must be 1m or 1d (1-minute bars are rolled up into ${TIMEFRAMES.slice(1).join(', ')}); got ${JSON.stringify(values.timeframe)}`);
    }
    timeframe = values.timeframe;
  }
  const maxErrorsText = values['max-errors'] ?? '0';
  const maxFaults = Number(maxErrorsText);
  if (!/^\d+$/.test(maxErrorsText) || !Number.isSafeInteger(maxFaults)) throw new UsageError(`--max-errors must be a whole number ≥ 0; got ${JSON.stringify(maxErrorsText)}`);
  if (values.tz !== undefined && !isZone(values.tz)) throw new UsageError(`--tz must be an IANA time zone such as America/New_York; got ${JSON.stringify(values.tz)}`);
  let columns: Record<string, string> | undefined;
  if (values.columns !== undefined) {
    const mapping = parseColumnMapping(kind, values.columns);
    if (!mapping.ok) throw new UsageError(`--columns: ${mapping.error}`);
    columns = mapping.columns as Record<string, string>;
  }
  let files: string[];
  try {
    files = expandInputs(positionals);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }

  const dataDir = resolve(values['data-dir'] ?? env.MDS_DATA_DIR ?? './data');
  const serverPid = serverPidOf(dataDir);
  // Without a server this process applies the imports: no server may start on the dir meanwhile.
  const unlock = serverPid === null ? lockDataDir(dataDir) : () => {};
  const store = Store.open({ dataDir });
  // The built-in symbols are known to an import as to a server (which adds them at each start).
  if (serverPid === null) seedRegistry(store, ALL_INSTRUMENTS);
  const progress = new Progress(io, values.progress === true);
  // The retention the server last ran with (or the default): history older than it is removed by
  // the server's next retention pass, so the import says so.
  const retention = store.getMeta<Retention>('retention') ?? DEFAULT_RETENTION;
  let pastRetention = 0;
  const summary = { files: [] as object[], pastRetention: 0, rows: 0, staged: 0, faults: 0, written: {} as Record<string, number>, kept: 0, replaced: 0, unchanged: 0, live: 0, outsideSession: 0 };
  const started = performance.now();
  let exit = 0;
  try {
    // Alone, this process owns the writes: it finishes first what a stopped one left half-applied or staged.
    if (serverPid === null) await finishLeftImports(store, io);
    for (const [index, file] of files.entries()) {
      const faultsShown = { count: 0 };
      const onFault = (line: number, fault: RowFault) => {
        if (++faultsShown.count > MAX_FAULTS_SHOWN) return;
        progress.clear();
        io.err(`${file}:${line}: ${fault.rule}: ${fault.message}\n`);
      };
      const dailyZones = values.tz ? [values.tz] : [];
      const opts: FileImportOptions = {
        timeframe: timeframe ?? '1m',
        assetClass: assetClass ?? null,
        createSymbols: values['create-symbols'] === true,
        dailyZones,
        nowMs: systemClock.nowMs(),
        onConflict,
        maxFaults,
        serverPid,
        onFault,
        retentionCutoffMs: retention['1m'] === null ? undefined : systemClock.nowMs() - retention['1m'],
        onProgress: (rows, bytes) => progress.update(rows, bytes),
        onWaiting: (pid) => {
          progress.clear();
          if (!values.json) io.err(`${file}: staged; the server (pid ${pid}) applies it\n`);
        },
      };
      let done: FileImport;
      let rowsRead = 0;
      try {
        const readOpts = { preset, format: fileType, columns, symbol: values.symbol, assetClass, timeUnit, tz: values.tz, reuseBatches: true };
        if (kind === 'bars') {
          const opened = openBarFile(file, { ...readOpts, timeframe });
          progress.start(file, index, files.length, opened.info.sizeBytes);
          const tf = timeframe ?? opened.info.timeframe ?? '1m';
          if (tf !== '1m' && tf !== '1d') throw new InputFileError(`holds ${tf} bars; mds imports 1m bars (rolled up into every timeframe) or 1d bars`);
          // Flat files date their daily bars at New York midnight.
          if (opened.info.preset === 'polygon' || opened.info.preset === 'massive') dailyZones.push('America/New_York');
          const kept = retention[tf];
          done = await importBarFile(store, file, withProblems(opened.batches), { ...opts, timeframe: tf, retentionCutoffMs: kept === null ? undefined : opts.nowMs - kept });
        } else {
          const opened = openTickFile(file, readOpts);
          progress.start(file, index, files.length, opened.info.sizeBytes);
          const ticks = await importTickFile(store, file, withProblems(opened.batches), opts);
          rowsRead = ticks.ticks.ticks;
          done = ticks;
        }
      } catch (err) {
        if (!(err instanceof InputFileError)) throw err;
        progress.clear();
        // The readers' messages name the file already.
        io.err(`mds: ${err.message.startsWith(file) ? '' : `${file}: `}${err.message}; nothing of it was imported\n`);
        exit = 1;
        break;
      }
      progress.end();
      if (faultsShown.count > MAX_FAULTS_SHOWN) io.err(`${file}: ... and ${n(faultsShown.count - MAX_FAULTS_SHOWN)} more bad rows\n`);
      const r = done.report;
      const rows = kind === 'ticks' ? rowsRead : r.rows;
      summary.rows += rows;
      summary.staged += r.staged;
      summary.faults += kind === 'ticks' ? faultsShown.count : r.faults;
      summary.outsideSession += r.outsideSession;
      // Only bars that were imported meet the retention pass.
      if (done.outcome === 'applied' || done.outcome === 'pending') pastRetention += r.pastRetention;
      const result = done.result;
      if (result) {
        for (const [tf, count] of Object.entries(result.written)) summary.written[tf] = (summary.written[tf] ?? 0) + count;
        summary.kept += result.kept;
        summary.replaced += result.replaced;
        summary.unchanged += result.unchanged;
        summary.live += result.live;
      }
      summary.files.push({ file, outcome: done.outcome, rows, faults: kind === 'ticks' ? faultsShown.count : r.faults, ...(result && { written: result.written, added: result.added, replaced: result.replaced, kept: result.kept, unchanged: result.unchanged, live: result.live }), ...(done.error && { error: done.error }) });
      if (!values.json) io.err(`${describeOutcome(file, done, rows, kind === 'ticks' ? faultsShown.count : r.faults, maxFaults)}\n`);
      if (done.outcome === 'rejected' || done.outcome === 'failed') {
        exit = 1;
        break;
      }
    }
  } finally {
    await store.close();
    unlock();
  }
  const seconds = (performance.now() - started) / 1000;
  if (pastRetention > 0) {
    io.err(
      `note: ${n(pastRetention)} imported bars are older than this data dir's retention (--retain ${formatRetention(retention)}): the server removes them at its next retention pass (at start, then hourly). To keep them, run the server with a longer retention, e.g. --retain 1m=forever,5m=forever,15m=forever,1h=forever,4h=forever\n`,
    );
  }
  summary.pastRetention = pastRetention;
  if (values.json) {
    io.out(`${JSON.stringify({ ...summary, seconds: Math.round(seconds * 1000) / 1000 })}\n`);
  } else {
    const written = TIMEFRAMES.filter((tf) => summary.written[tf]).map((tf) => `${tf} ${n(summary.written[tf]!)}`).join(', ') || 'none';
    io.out(
      [
        `${n(summary.rows)} rows from ${summary.files.length} of ${files.length} file(s) in ${seconds.toFixed(1)} s (${n(Math.round(summary.rows / Math.max(seconds, 1e-3)))} rows/s)`,
        `bars written: ${written}`,
        `rejected rows: ${n(summary.faults)}; outside sessions (left out): ${n(summary.outsideSession)}; stored bars kept: ${n(summary.kept)}${onConflict === 'skip' && summary.kept > 0 ? ' (--on-conflict replace overwrites them)' : ''}; replaced: ${n(summary.replaced)}; unchanged: ${n(summary.unchanged)}; left to the live feed: ${n(summary.live)}`,
      ].join('\n') + '\n',
    );
  }
  return exit;
}

async function finishLeftImports(store: Store, io: ImportIo): Promise<void> {
  const watcher = new ImportWatcher(store, systemClock, {}, (line) => io.err(`${line}\n`));
  try {
    await watcher.start();
  } finally {
    await watcher.stop();
  }
}

function describeOutcome(file: string, done: FileImport, rows: number, faults: number, maxFaults: number): string {
  switch (done.outcome) {
    case 'applied':
      return `${file}: imported (${n(rows)} rows${faults > 0 ? `, ${n(faults)} bad rows skipped` : ''})`;
    case 'rejected':
      return `mds: ${file}: more than ${n(maxFaults)} bad rows (--max-errors): nothing of it was imported; the import stops here`;
    case 'empty':
      return `${file}: no row to import`;
    case 'pending':
      return `${file}: staged, but the server stopped before applying it: the next server started on this data dir (or on a backup of it) applies it whole`;
    case 'failed':
      return `mds: ${file}: applying failed: ${done.error}`;
  }
}

/** The readers' batches with their unparseable rows attached, as the import takes them. */
async function* withProblems<B extends { length: number }>(batches: AsyncIterable<{ batch: B; problems: { line: number; message: string }[] }>): AsyncGenerator<B & { problems: { line: number; message: string }[] }> {
  for await (const { batch, problems } of batches) yield { ...batch, problems };
}

function isZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A redrawn line on a terminal; otherwise a line every few seconds (or none without --progress on small files). */
class Progress {
  private file = '';
  private header = '';
  private totalBytes = 0;
  private startMs = 0;
  private lastDrawMs = 0;
  private drawn = false;

  constructor(
    private readonly io: ImportIo,
    private readonly always: boolean,
  ) {}

  start(file: string, index: number, count: number, totalBytes: number): void {
    this.file = file;
    this.header = count > 1 ? `[${index + 1}/${count}] ` : '';
    this.totalBytes = totalBytes;
    this.startMs = performance.now();
    this.lastDrawMs = this.startMs;
  }

  update(rows: number, bytes: number): void {
    const now = performance.now();
    const every = this.io.isTty ? 200 : 5000;
    if (now - this.lastDrawMs < every || (!this.io.isTty && !this.always && this.totalBytes < 64 << 20)) return;
    this.lastDrawMs = now;
    const secs = (now - this.startMs) / 1000;
    const rate = rows / Math.max(secs, 1e-3);
    const fraction = this.totalBytes > 0 ? Math.min(1, bytes / this.totalBytes) : 0;
    const eta = fraction > 0 ? (secs / fraction) * (1 - fraction) : NaN;
    const text = `${this.header}${this.file}: ${n(rows)} rows, ${n(Math.round(rate))} rows/s, ${mb(bytes)} of ${mb(this.totalBytes)} MB${Number.isFinite(eta) ? `, ETA ${formatSeconds(eta)}` : ''}`;
    if (this.io.isTty) {
      this.io.err(`\r\x1b[K${text}`);
      this.drawn = true;
    } else {
      this.io.err(`progress: ${text}\n`);
    }
  }

  /** Clears the redrawn line before other output. */
  clear(): void {
    if (!this.drawn) return;
    this.io.err('\r\x1b[K');
    this.drawn = false;
  }

  end(): void {
    this.clear();
  }
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

function formatSeconds(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(Math.ceil(s % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
