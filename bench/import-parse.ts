// Hot path: parsing history files for `mds import bars` (issue 15). Writes a ~200 MB Binance kline
// CSV (and a gzip copy, and a generic t,o,h,l,c,v CSV) to a temp dir, reads each through
// openBarFile three times and prints rows/s (median of 3) and the peak resident memory; parse only,
// no store. Run: `npx bun bench/import-parse.ts [--mb N]`. Removes its temp files when done.
// Target: well over 1,000,000 rows/s (the end-to-end import goal); aim ≥ 3,000,000 for plain CSV.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { writeKlines } from './lib/klines.ts';
import { median } from './lib/stats.ts';
import { installCleanup, removeDir, tempDir } from './lib/proc.ts';
import { createGunzip, createGzip } from 'node:zlib';
import { openBarFile, type BarReadOptions } from '../src/ingest/importers/history/index.ts';

const TARGET_ROWS_PER_S = 3_000_000;
const RUNS = 3;

const { values } = parseArgs({ options: { mb: { type: 'string', default: '200' } } });
const targetBytes = Number(values.mb) * 1e6;
if (!(targetBytes > 0)) throw new Error('--mb takes a positive number of megabytes');


interface Run {
  rowsPerS: number;
  mbPerS: number;
  peakRssMb: number;
}

async function parseOnce(path: string, opts: BarReadOptions, expectedRows: number): Promise<Run> {
  Bun.gc(true);
  const started = performance.now();
  let rows = 0;
  let checksum = 0;
  let peakRss = process.memoryUsage.rss();
  let batches = 0;
  for await (const { batch, problems } of openBarFile(path, opts).batches) {
    if (problems.length > 0) throw new Error(`${path}: ${problems[0]!.message} at line ${problems[0]!.line}`);
    rows += batch.length;
    checksum += batch.c[batch.length - 1] ?? 0; // touch the values so nothing is skipped
    if (++batches % 16 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  const seconds = (performance.now() - started) / 1000;
  if (rows !== expectedRows || !Number.isFinite(checksum)) throw new Error(`${path}: read ${rows} rows, wrote ${expectedRows}`);
  return { rowsPerS: rows / seconds, mbPerS: statSync(path).size / 1e6 / seconds, peakRssMb: Math.max(peakRss, process.memoryUsage.rss()) / 1e6 };
}

/** Decompression alone, the floor under the gzip case: rows/s if parsing were free. */
async function gunzipOnce(path: string, rows: number): Promise<Run> {
  const started = performance.now();
  const inflate = createGunzip({ chunkSize: 1 << 18 });
  createReadStream(path, { highWaterMark: 1 << 20 }).pipe(inflate);
  for await (const _chunk of inflate as AsyncIterable<Buffer>);
  const seconds = (performance.now() - started) / 1000;
  return { rowsPerS: rows / seconds, mbPerS: statSync(path).size / 1e6 / seconds, peakRssMb: process.memoryUsage.rss() / 1e6 };
}

// The bench's own cleanup: its temp files go on exit, on a signal and on an error.
installCleanup(30 * 60_000);
const dir = tempDir('mds-bench-import-');
try {
  const klines = join(dir, 'BTCUSDT-1m-2024-01.csv');
  const generic = join(dir, 'generic.csv');
  process.stdout.write(`writing ~${values.mb} MB of klines to ${dir} …\n`);
  const klineRows = await writeKlines(klines, targetBytes);
  await pipeline(createReadStream(klines), createGzip({ level: 6 }), createWriteStream(`${klines}.gz`));
  const genericRows = await writeKlines(generic, targetBytes / 2, { generic: true });
  const cases: [string, string, BarReadOptions | 'gunzip', number][] = [
    ['binance-klines plain', klines, {}, klineRows],
    ['binance-klines gzip', `${klines}.gz`, {}, klineRows],
    ['  gunzip alone (floor)', `${klines}.gz`, 'gunzip', klineRows],
    ['generic t,o,h,l,c,v plain', generic, { symbol: 'BTCUSD' }, genericRows],
  ];
  await parseOnce(generic, { symbol: 'BTCUSD' }, genericRows); // warm-up: the JIT settles on the parser
  process.stdout.write(`\n${'case'.padEnd(28)}${'rows'.padStart(11)}${'MB'.padStart(8)}${'rows/s (median of 3)'.padStart(23)}${'MB/s'.padStart(8)}${'peak RSS MB'.padStart(13)}\n`);
  for (const [label, path, opts, rows] of cases) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(opts === 'gunzip' ? await gunzipOnce(path, rows) : await parseOnce(path, opts, rows));
    const rate = median(runs.map((r) => r.rowsPerS));
    process.stdout.write(
      `${label.padEnd(28)}${rows.toLocaleString('en-US').padStart(11)}${(statSync(path).size / 1e6).toFixed(0).padStart(8)}${Math.round(rate).toLocaleString('en-US').padStart(23)}${median(runs.map((r) => r.mbPerS)).toFixed(0).padStart(8)}${Math.max(...runs.map((r) => r.peakRssMb)).toFixed(0).padStart(13)}${label.endsWith('plain') && rate < TARGET_ROWS_PER_S ? '  (below the 3M target)' : ''}\n`,
    );
  }
} finally {
  removeDir(dir);
}
