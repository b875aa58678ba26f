// Hot path: `mds import bars` end to end (issue 15). Writes a Binance kline CSV of 1-minute bars
// (default ~300 MB, about 2.2 million rows) to a temp dir, then runs the real command on a fresh
// data dir pinned to one core (taskset), RUNS times, and prints rows/s (median) and the peak
// resident memory of the import process. `--mb 2000 --runs 1` is the 2 GB bounded-memory check.
// Run: `npx bun bench/import-bars.ts [--mb N] [--runs N]`. Removes its temp files when done.
// Targets: ≥ 1,000,000 rows/s into the store on one core; a 2 GB file under 300 MB resident.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeKlines } from './lib/klines.ts';
import { median } from './lib/stats.ts';
import { installCleanup, removeDir, tempDir } from './lib/proc.ts';

const TARGET_ROWS_PER_S = 1_000_000;
const TARGET_RSS_MB = 300;
const MAIN = resolve(import.meta.dir, '../src/main.ts');

const { values } = parseArgs({ options: { mb: { type: 'string', default: '300' }, runs: { type: 'string', default: '3' } } });
const targetBytes = Number(values.mb) * 1e6;
const runs = Number(values.runs);
if (!(targetBytes > 0) || !(runs >= 1)) throw new Error('--mb and --runs take positive numbers');


function hasTaskset(): boolean {
  return Bun.spawnSync(['sh', '-c', 'command -v taskset']).exitCode === 0;
}

interface Run {
  rows: number;
  seconds: number;
  peakRssMb: number;
  /** Anonymous memory only: the heap and buffers, without the store file's pages mapped for reading. */
  peakAnonMb: number;
}

/** One import into a fresh data dir; the peak RSS is sampled from /proc while it runs. */
async function importOnce(file: string, dir: string): Promise<Run> {
  const dataDir = mkdtempSync(join(dir, 'data-'));
  const cmd = [process.execPath, MAIN, 'import', 'bars', file, '--data-dir', dataDir, '--json'];
  const proc = Bun.spawn(hasTaskset() ? ['taskset', '-c', '1', ...cmd] : cmd, { stdout: 'pipe', stderr: 'pipe' });
  // The bench's rows are old: the import's note about retention is expected, shown only on failure.
  const errText = new Response(proc.stderr).text();
  let peakKb = 0;
  let peakAnonKb = 0;
  const sample = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      const hwm = /VmHWM:\s+(\d+)/.exec(status);
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      const anon = /RssAnon:\s+(\d+)/.exec(status);
      if (anon) peakAnonKb = Math.max(peakAnonKb, Number(anon[1]));
    } catch {
      // Exited between samples.
    }
  }, 50);
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  clearInterval(sample);
  rmSync(dataDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`mds import exited ${code}: ${out}${await errText}`);
  const summary = JSON.parse(out) as { rows: number; seconds: number };
  return { rows: summary.rows, seconds: summary.seconds, peakRssMb: peakKb / 1024, peakAnonMb: peakAnonKb / 1024 };
}

// The bench's own cleanup: its temp files go on exit, on a signal and on an error.
installCleanup(30 * 60_000);
const dir = tempDir('mds-bench-import-');
try {
  // Named as Binance names its monthly kline files: the preset, symbol and timeframe come from it.
  const file = join(dir, 'BTCUSDT-1m-1995-01.csv');
  process.stdout.write(`writing ${(targetBytes / 1e6).toFixed(0)} MB of 1-minute klines ... `);
  const rows = await writeKlines(file, targetBytes, { startMs: Date.UTC(1995, 0, 1) });
  process.stdout.write(`${rows.toLocaleString('en-US')} rows, ${(statSync(file).size / 1e6).toFixed(0)} MB\n`);
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await importOnce(file, dir);
    results.push(r);
    console.log(`run ${i + 1}: ${r.rows.toLocaleString('en-US')} rows in ${r.seconds.toFixed(2)} s = ${Math.round(r.rows / r.seconds).toLocaleString('en-US')} rows/s, peak RSS ${r.peakRssMb.toFixed(0)} MB (anonymous ${r.peakAnonMb.toFixed(0)} MB)`);
  }
  const rate = median(results.map((r) => r.rows / r.seconds));
  const rss = Math.max(...results.map((r) => r.peakRssMb));
  console.log(`\nimport bars (binance-klines CSV → store, one core${hasTaskset() ? '' : ': taskset missing, not pinned'}): median ${Math.round(rate).toLocaleString('en-US')} rows/s (target ≥ ${TARGET_ROWS_PER_S.toLocaleString('en-US')}); peak RSS ${rss.toFixed(0)} MB (target < ${TARGET_RSS_MB} MB for a 2 GB file)`);
} finally {
  removeDir(dir);
}
