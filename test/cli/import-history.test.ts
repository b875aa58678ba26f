// `mds import bars|ticks` as an operator runs it: next to a running server (which applies the file
// and serves it at once, with no stale cached range body), alone on a data dir, over the preset
// fixture files, with bad rows, re-imports and usage errors.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runMds } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

const FIXTURES = resolve(import.meta.dir, '../fixtures/history');
const DAY = '2024-01-02';
const DAY_MS = Date.parse(`${DAY}T00:00:00Z`);

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'mds-import-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A generic CSV of `n` BTCUSD minutes from 00:00 of DAY; `bump` shifts the prices. */
function minuteCsv(name: string, n: number, bump = 0): string {
  const lines = ['time,symbol,open,high,low,close,volume'];
  for (let i = 0; i < n; i++) {
    const o = 42_000 + i + bump;
    lines.push(`${new Date(DAY_MS + i * 60_000).toISOString()},BTCUSD,${o},${o + 5},${o - 5},${o + 1},${(i % 7) + 0.5}`);
  }
  const path = join(work, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

interface RangeBody {
  results_count: number;
  results: { t: number; o: number; h: number; l: number; c: number; v: number }[];
}

describe('mds import bars beside a running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ args: ['--feed', 'none'] });
  });
  afterAll(() => server.stop());

  const range = async (tf: string) => (await (await server.get(`/crypto/agg/BTCUSD/${tf}/${DAY}/${DAY}?sort=asc`)).json()) as RangeBody;

  test('the server applies the file and serves it at once; a re-import with replace is not hidden by cached bodies', async () => {
    expect((await range('1/minute')).results_count).toBe(0);
    expect((await range('1/hour')).results_count).toBe(0);
    const first = minuteCsv('first.csv', 120);
    const r = await runMds('import', 'bars', first, '--data-dir', server.dataDir);
    expect({ code: r.code, err: r.err }).toMatchObject({ code: 0, err: expect.stringContaining(`staged; the server (pid ${process.pid}) applies it`) });
    expect(r.out).toContain('bars written: 1m 120, 5m 24, 15m 8, 1h 2, 4h 1, 1d 1');
    const minutes = await range('1/minute');
    expect(minutes.results_count).toBe(120);
    expect(minutes.results[0]).toEqual({ t: DAY_MS, o: 42_000, h: 42_005, l: 41_995, c: 42_001, v: 0.5 });
    expect((await range('1/hour')).results.map((b) => [b.t, b.o, b.c])).toEqual([
      [DAY_MS, 42_000, 42_060],
      [DAY_MS + 3_600_000, 42_060, 42_120],
    ]);

    // The same minutes with other prices: skipped by default, taken with replace.
    const changed = minuteCsv('changed.csv', 120, 1000);
    const skipped = await runMds('import', 'bars', changed, '--data-dir', server.dataDir, '--json');
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.out)).toMatchObject({ kept: 120, replaced: 0, written: {} });
    expect((await range('1/minute')).results[0]!.o).toBe(42_000);
    const replaced = await runMds('import', 'bars', changed, '--data-dir', server.dataDir, '--on-conflict', 'replace', '--json');
    expect(JSON.parse(replaced.out)).toMatchObject({ replaced: 120, written: { '1m': 120, '1h': 2, '1d': 1 } });
    expect((await range('1/minute')).results[0]!.o).toBe(43_000);
    expect((await range('1/hour')).results[0]!.o).toBe(43_000);
    expect(server.logs.some((l) => /import \d+ \(.*changed\.csv\): applied/.test(l))).toBe(true);
  }, 30_000);

  test('a symbol the import adds is served by the running server at once', async () => {
    const path = join(work, 'new-symbol.csv');
    writeFileSync(path, `time,open,high,low,close,volume\n${DAY}T00:00:00Z,1.5,1.75,1.25,1.5,10\n${DAY}T00:01:00Z,1.5,1.5,1.5,1.5,0\n`);
    expect((await server.get(`/crypto/agg/ZZZUSD/1/minute/${DAY}/${DAY}`)).status).toBe(404);
    const r = await runMds('import', 'bars', path, '--symbol', 'ZZZUSD', '--class', 'crypto', '--create-symbols', '--data-dir', server.dataDir);
    expect(r.code).toBe(0);
    const body = (await (await server.get(`/crypto/agg/ZZZUSD/1/minute/${DAY}/${DAY}?sort=asc`)).json()) as RangeBody;
    expect(body.results.map((b) => [b.t, b.o, b.h, b.l, b.c, b.v])).toEqual([
      [DAY_MS, 1.5, 1.75, 1.25, 1.5, 10],
      [DAY_MS + 60_000, 1.5, 1.5, 1.5, 1.5, 0],
    ]);
  }, 30_000);
});

describe('mds import bars and ticks alone on a data dir', () => {
  const dataDir = () => mkdtempSync(join(work, 'data-'));

  test('each preset fixture imports, plain and compressed, and a re-import changes nothing', async () => {
    const dir = dataDir();
    const files = [
      join(FIXTURES, 'BTCUSDT-1m-2024-01.csv'),
      join(FIXTURES, 'BTCUSDT-1m-2025-01.csv'),
      join(FIXTURES, 'global_crypto/minute_aggs_v1/2024/01/2024-01-02.csv'),
      join(FIXTURES, 'us_stocks_sip/day_aggs_v1/2024/01/2024-01-02.csv'),
    ];
    const gz = join(work, 'BTCUSDT-1m-2023-12.csv.gz');
    writeFileSync(gz, gzipSync('1701388800000,42000,42010,41990,42005,1.5,1701388859999,0,10,0,0,0\n'));
    const first = await runMds('import', 'bars', ...files, gz, '--data-dir', dir, '--json', '--max-errors', '100', '--create-symbols');
    // The fixtures are older than the default retention of minutes: the import says what that means.
    expect(first.err).toStartWith('note: 8 imported bars are older than this data dir\'s retention (--retain 1m=90d,');
    expect(first.err).toContain('To keep them, run the server with a longer retention');
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.out) as { files: { outcome: string }[]; written: Record<string, number> };
    expect(summary.files.map((f) => f.outcome)).toEqual(files.map(() => 'applied').concat('applied'));
    expect(summary.written['1m']).toBeGreaterThan(0);
    const again = JSON.parse((await runMds('import', 'bars', ...files, gz, '--data-dir', dir, '--json', '--max-errors', '100', '--create-symbols')).out);
    expect(again).toMatchObject({ written: {}, replaced: 0, kept: 0 });
    expect(again.unchanged).toBe((summary as unknown as { staged: number }).staged);
    // A file without a symbol column takes --symbol.
    const ndjson = await runMds('import', 'bars', join(FIXTURES, 'generic-bars.ndjson'), '--symbol', 'ETHUSD', '--class', 'crypto', '--data-dir', dir, '--json');
    expect(ndjson.code).toBe(0);
    expect(JSON.parse(ndjson.out).files[0].outcome).toBe('applied');
  }, 30_000);

  test('a file with more bad rows than allowed leaves nothing; the message names file, line and rule', async () => {
    const dir = dataDir();
    const path = join(work, 'bad.csv');
    writeFileSync(path, 'time,symbol,open,high,low,close,volume\n2024-01-02T00:00:00Z,BTCUSD,1,2,0.5,1.5,1\n2024-01-02T00:01:00Z,BTCUSD,1,2,3,1.5,1\n2024-01-02T00:02:00Z,BTCUSD,x,2,0.5,1.5,1\n');
    const r = await runMds('import', 'bars', path, '--data-dir', dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${path}:3: ohlc: open 1, high 2, low 3, close 1.5: low ≤ min(open, close) and max(open, close) ≤ high`);
    expect(r.err).toContain('more than 0 bad rows (--max-errors): nothing of it was imported');
    // The refused file's bar of 2024 is past the default retention, but it was not imported: no note.
    expect(r.err).not.toContain('older than this data dir');
    const allowed = await runMds('import', 'bars', path, '--data-dir', dir, '--max-errors', '2', '--json');
    expect(allowed.code).toBe(0);
    expect(allowed.err).toContain("note: 1 imported bars are older than this data dir's retention");
    expect(JSON.parse(allowed.out)).toMatchObject({ staged: 1, faults: 2, written: { '1m': 1 } });
  });

  test('an empty file, a header alone, blank lines and a 0-byte .gz are errors that say so (exit 1)', async () => {
    const dir = dataDir();
    const header = 'time,symbol,open,high,low,close,volume\n';
    const cases: [string, string | Uint8Array, string][] = [
      ['empty.csv', '', 'the file is empty (0 bytes); there is no row to import'],
      ['header-only.csv', header, 'the file holds a header row and no data rows; there is no row to import'],
      ['header-and-blanks.csv', `${header}\n\n`, 'the file holds a header row and no data rows; there is no row to import'],
      ['BTCUSDT-1m-2024-03.csv', '', 'the file is empty (0 bytes); there is no row to import'],
      ['blank.ndjson', '\n\n', 'the file holds no rows; there is no row to import'],
      ['zero.csv.gz', '', 'the file is empty (0 bytes), so not gzip data; there is no row to import'],
      ['header-only.csv.gz', gzipSync(header), 'the file holds a header row and no data rows; there is no row to import'],
    ];
    for (const [name, content, message] of cases) {
      const path = join(work, name);
      writeFileSync(path, content);
      const r = await runMds('import', 'bars', path, '--data-dir', dir, '--symbol', 'BTCUSD', '--class', 'crypto');
      expect({ name, code: r.code, err: r.err }).toEqual({ name, code: 1, err: `mds: ${path}: ${message}; nothing of it was imported\n` });
    }
    const ticks = await runMds('import', 'ticks', join(work, 'header-only.csv'), '--data-dir', dir, '--columns', 't=time,symbol=symbol,price=close');
    expect({ code: ticks.code, err: ticks.err }).toEqual({ code: 1, err: `mds: ${join(work, 'header-only.csv')}: the file holds a header row and no data rows; there is no row to import; nothing of it was imported\n` });
  });

  test('a binary file is refused with its line and byte, without echoing its bytes', async () => {
    const dir = dataDir();
    const path = join(work, 'program.csv');
    // An executable's first bytes, then more binary: what a wrong file in a glob looks like.
    const bytes = new Uint8Array(4096).map((_, i) => (i * 131) % 256);
    bytes.set([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00], 0);
    writeFileSync(path, bytes);
    const r = await runMds('import', 'bars', path, '--data-dir', dir);
    expect({ code: r.code, err: r.err }).toEqual({ code: 1, err: `mds: ${path}: line 1: binary data (a NUL byte at byte 7), not CSV text (UTF-8); a Parquet file is read as such when named .parquet or given as parquet; nothing of it was imported\n` });
    // Binary that is not at the start, in a header: column names are shown short and printable.
    const header = join(work, 'odd-header.csv');
    writeFileSync(header, `${'\x01\x02'.repeat(300)},x\n1,2\n`);
    const odd = await runMds('import', 'bars', header, '--data-dir', dir);
    expect(odd.code).toBe(1);
    expect(odd.err).toContain(`the columns are ${'??'.repeat(20)}…, x)`);
    expect(odd.err.length).toBeLessThan(400);
  });

  test('ticks make bars through the live path', async () => {
    const dir = dataDir();
    const r = await runMds('import', 'ticks', join(FIXTURES, 'BTCUSDT-trades-2024-01-01.csv'), '--data-dir', dir, '--json');
    expect(r.err).toStartWith('note: 1 imported bars are older');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).written['1m']).toBeGreaterThan(0);
  });

  test('usage errors name what is allowed', async () => {
    const dir = dataDir();
    const cases: [string[], string][] = [
      [['--format', 'csv'], '--format must be one of binance-klines, polygon, massive, generic'],
      [['--timeframe', '5m'], '--timeframe must be 1m or 1d'],
      [['--on-conflict', 'merge'], '--on-conflict must be one of skip, replace'],
      [['--max-errors=-1'], '--max-errors must be a whole number ≥ 0'],
      [['--tz', 'Mars/Base'], '--tz must be an IANA time zone'],
      [['--columns', 'q=open'], '--columns: unknown target "q"'],
    ];
    for (const [args, message] of cases) {
      const r = await runMds('import', 'bars', join(FIXTURES, 'generic-daily.csv'), '--data-dir', dir, ...args);
      expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 2, err: expect.stringContaining(message) });
    }
    const missing = await runMds('import', 'bars', join(work, 'nope-*.csv'), '--data-dir', dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nope-*.csv');
  });
});
