// `mds import fundamentals` as an operator runs it, against a running server with no feed (so
// only imported figures exist): bad rows by line number and never half-applied, one transaction
// (--strict, whole-file errors), NDJSON, progress on large files, paging a full market in
// ceil(N/1000) requests, and cursor paging across an import that changes the data underneath.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runImport } from '../../src/cli/import.ts';
import { runMds } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';

let server: TestServer;
let dataDir: string;
let fileNo = 0;

type Row = Record<string, string | number | boolean>;

/** Writes rows as a CSV file with the union of their keys as the header. */
function csvFile(rows: Row[], header?: string[]): string {
  const columns = header ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => (v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return textFile([columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n') + '\n', 'csv');
}

function textFile(text: string, ext: string): string {
  const path = join(dataDir, `input-${++fileNo}.${ext}`);
  writeFileSync(path, text);
  return path;
}

function listing(symbol: string, asOf: string, extra: Row = {}): Row {
  return { symbol, as_of: asOf, company: `Company ${symbol}`, country: 'Germany', market_cap: 50_000_000, shares_total: 1_000_000, free_float: 800_000, insider_ownership: 0.1, price: 50, ...extra };
}

const importFile = (path: string, ...args: string[]) => runMds('import', 'fundamentals', path, '--data-dir', dataDir, ...args);
const item = async (symbol: string) => server.json(`/fundamentals/stocks/${symbol}`);

async function pageAll(market: string, limit: number): Promise<{ pages: number; symbols: string[] }> {
  const symbols: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { status, body } = await server.json(`/fundamentals/stocks?market=${market}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(status).toBe(200);
    pages++;
    symbols.push(...body.items.map((i: { symbol: string }) => i.symbol));
    cursor = body.next_cursor;
  } while (cursor);
  return { pages, symbols };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-import-'));
  server = await startServer({ dataDir, args: ['--feed', 'none'] });
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('mds import fundamentals', () => {
  test('the shipped example imports; a known symbol without coverage is a 404 until then', async () => {
    expect((await item('US:AAPL')).body.error).toBe('no fundamentals for this symbol yet (new listings can lag a day)');
    const r = await importFile(resolve(import.meta.dir, '../../examples/fundamentals.csv'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('6 rows, 0 skipped as bad, 6 symbols updated (one transaction)');
    const hdb = (await item('US:HDB')).body;
    // receipt reporting 3 ordinary shares per receipt, priced from the file's price column
    expect(hdb).toMatchObject({ country_code: 'IN', shares_listed_est: 2_550_000_000, free_float_est: Math.round((2_550_000_000 * 5_500_000_000) / 7_650_000_000) });
    expect('shares_total' in hdb || 'free_float' in hdb).toBe(false);
    const ndjson = await importFile(resolve(import.meta.dir, '../../examples/fundamentals.ndjson'));
    expect(ndjson.code).toBe(0);
    expect((await item('US:NKE')).body).toMatchObject({ as_of: '2026-11-21', company: 'NIKE, Inc.', market_cap: 92_500_000_000 });
  });

  test('bad rows are reported with their line numbers and skipped, never half-applied', async () => {
    expect((await importFile(csvFile([listing('DE:KEEP', '2026-03-01', { short_interest: 1000 })]))).code).toBe(0);
    const before = (await item('DE:KEEP')).body;
    const header = ['symbol', 'as_of', 'company', 'shares_total', 'market_cap', 'short_interest', 'beta', 'price'];
    const path = textFile(
      [
        header.join(','),
        'DE:GOOD1,2026-03-02,One,1000,50000,10,1.1,50', // line 2
        'DE:BAD1,2026-03-02,Bad,abc,50000,10,1.1,50', // line 3
        'DE:GOOD2,2026-03-02,"Two', // line 4: a quoted cell over two lines
        'Lines",1000,50000,10,1.1,50', // line 5
        'GB:HSBA,2026-03-02,Elsewhere,1000,50000,10,1.1,50', // line 6
        'DE:SHORT,2026-03-02,Short', // line 7
        'DE:KEEP,2026-03-02,Keep,1000000,50000000,2000,x,50', // line 8: its other figures are not applied either
        'DE:GOOD3,2026-03-02,Three,1000,50000,10,1.1,50', // line 9
      ].join('\n'),
      'csv',
    );
    const r = await importFile(path);
    expect(r.code).toBe(0);
    expect(r.err.trim().split('\n')).toEqual([
      'line 3: skipped: shares_total must be a number, got "abc"',
      'line 6: skipped: symbol GB:HSBA: fundamentals cover the markets US, DE, ES, FR only',
      'line 7: skipped: has 3 cells, the header has 8',
      'line 8: skipped: beta must be a number, got "x"',
    ]);
    // eight lines, seven rows: one row spans two lines
    expect(r.out).toContain('7 rows, 4 skipped as bad, 3 symbols updated');
    expect((await item('DE:GOOD2')).body.company).toBe('Two\nLines');
    expect((await item('DE:GOOD3')).status).toBe(200);
    expect((await item('DE:BAD1')).status).toBe(404);
    expect((await item('DE:KEEP')).body).toEqual(before);
  });

  test('an as_of in the future is a bad row, so it cannot freeze the set against later refreshes', async () => {
    const path = textFile([JSON.stringify(listing('ES:FUT1', '2026-03-02')), JSON.stringify(listing('ES:FUT2', '2099-12-31', { short_interest: 1 }))].join('\n'), 'ndjson');
    const r = await importFile(path);
    expect(r.code).toBe(0);
    expect(r.err.trim()).toMatch(/^line 2: skipped: as_of 2099-12-31 is in the future \(the latest accepted is \d{4}-\d{2}-\d{2}\)$/);
    expect(r.out).toContain('2 rows, 1 skipped as bad, 1 symbols updated');
    expect((await item('ES:FUT2')).status).toBe(404);
    // a real refresh of the same symbol later is applied as usual
    expect((await importFile(csvFile([listing('ES:FUT2', '2026-03-03', { short_interest: 2 })]))).code).toBe(0);
    expect((await item('ES:FUT2')).body).toMatchObject({ as_of: '2026-03-03', short_interest: 2 });
  });

  test('NDJSON: bad lines by number; one JSON object per line', async () => {
    const path = textFile(
      [JSON.stringify(listing('ES:JSON1', '2026-03-02')), 'not json', '[1,2]', '', JSON.stringify({ ...listing('ES:JSON2', '2026-03-02'), extra: 1 }), JSON.stringify(listing('ES:JSON3', '2026-03-02'))].join('\n'),
      'ndjson',
    );
    const r = await importFile(path);
    expect(r.code).toBe(0);
    expect(r.err.trim().split('\n')).toEqual(['line 2: skipped: is not valid JSON', 'line 3: skipped: is not a JSON object', 'line 5: skipped: unknown field "extra"']);
    expect((await item('ES:JSON1')).status).toBe(200);
    expect((await item('ES:JSON2')).status).toBe(404);
    expect((await item('ES:JSON3')).status).toBe(200);
  });

  test('one transaction: --strict with a bad row, or a bad header, writes nothing', async () => {
    const strict = await importFile(csvFile([listing('ES:STRICT1', '2026-03-02'), listing('ES:STRICT2', '2026-03-02', { shares_total: -1 })]), '--strict');
    expect(strict.code).toBe(1);
    expect(strict.err).toContain('line 3: skipped: shares_total must be a whole number of 0 or more, got "-1"');
    expect(strict.err).toContain('--strict: nothing was imported');
    expect((await item('ES:STRICT1')).status).toBe(404);
    const header = await importFile(csvFile([{ ...listing('ES:HDR1', '2026-03-02'), shares_totl: 5 }]));
    expect(header.code).toBe(1);
    expect(header.err).toContain('line 1: unknown column "shares_totl"');
    expect(header.err).toContain('nothing was imported');
    expect((await item('ES:HDR1')).status).toBe(404);
    const unclosed = await importFile(textFile('symbol,as_of,company\nES:Q1,2026-03-02,ok\nES:Q2,2026-03-02,"open\n', 'csv'));
    expect(unclosed.code).toBe(1);
    expect(unclosed.err).toContain('line 3: a quoted cell is never closed');
    expect((await item('ES:Q1')).status).toBe(404);
  });

  test('a restatement that leaves a figure unavailable keeps the set and its as_of', async () => {
    expect((await importFile(csvFile([listing('ES:RST', '2026-03-02', { short_interest: 5000, adv_10d: 100 })]))).code).toBe(0);
    const r = await importFile(csvFile([listing('ES:RST', '2026-03-03', { adv_10d: 200 })]));
    expect(r.out).toContain('kept previous set of ES:RST: the 2026-03-03 record leaves short_interest unavailable');
    expect((await item('ES:RST')).body).toMatchObject({ as_of: '2026-03-02', short_interest: 5000, adv_10d: 100 });
    await importFile(csvFile([listing('ES:RST', '2026-03-04', { short_interest: 6000, adv_10d: 300 })]));
    expect((await item('ES:RST')).body).toMatchObject({ as_of: '2026-03-04', short_interest: 6000, adv_10d: 300 });
  });

  test('on a terminal, progress redraws one line and bad rows print on lines of their own', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'tty.csv');
    writeFileSync(path, ['symbol,as_of,company', 'ES:TTY1,2026-03-02,One', 'ES:TTY2,2026-03-02,', 'ES:TTY3,2026-02-31,Three'].join('\n'));
    let out = '';
    let err = '';
    const code = await runImport(['fundamentals', path, '--progress', '--data-dir', join(dir.path, 'data')], {}, { out: (t) => (out += t), err: (t) => (err += t), isTty: true });
    expect(code).toBe(0);
    const reading = (rows: number) => `\rreading ${path}: 100% (${rows} rows)`;
    // the last row comes out after the last chunk: the bad row clears the line, the final count redraws it
    expect(err).toBe(`${reading(2)}\r\x1b[Kline 4: skipped: as_of must be a date YYYY-MM-DD, got "2026-02-31"\n${reading(3)}\n`);
    expect(out).toContain('3 rows, 1 skipped as bad, 1 symbols updated');
  });

  test('usage errors exit with 2', async () => {
    expect((await runMds('import', 'bonds', 'x.csv')).code).toBe(2);
    expect((await runMds('import', 'fundamentals', join(dataDir, 'missing.csv'))).code).toBe(2);
    expect((await runMds('import', 'fundamentals', join(dataDir, 'data.txt'))).code).toBe(2);
    const help = await runMds('import', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('mds import fundamentals FILE');
  });
});

describe('paging', () => {
  test('a large file shows progress; a full market of 7,950 takes 8 requests of 1,000', async () => {
    const rows = Array.from({ length: 7950 }, (_, i) =>
      listing(`US:Z${String(i).padStart(5, '0')}`, '2026-03-02', { sector: 'Industrials', industry: 'Specialty Industrial Machinery', short_interest: 1000 + i, adv_10d: 5000, adv_90d: 5200, beta: 1.1 }),
    );
    const r = await importFile(csvFile(rows));
    expect(r.code).toBe(0);
    const progress = r.err.trim().split('\n');
    expect(progress.length).toBeGreaterThan(1);
    for (const line of progress) expect(line).toMatch(/^progress: \d+% of .* read \([\d,]+ rows\)$/);
    expect(progress.at(-1)).toContain('progress: 100%');
    const { pages, symbols } = await pageAll('US', 1000);
    const expected = [...rows.map((row) => String(row.symbol)), 'US:ARM', 'US:HDB', 'US:NKE'].sort();
    expect(pages).toBe(8);
    expect(symbols).toEqual(expected);
  });

  test('a cursor stays valid while an import changes the data: no duplicates, no gaps', async () => {
    const even = Array.from({ length: 1500 }, (_, i) => `FR:P${String(i * 2).padStart(4, '0')}`);
    expect((await importFile(csvFile(even.map((s) => listing(s, '2026-03-02'))))).code).toBe(0);
    const first = await server.json('/fundamentals/stocks?market=FR&limit=500');
    const seen: string[] = first.body.items.map((i: { symbol: string }) => i.symbol);
    // Underneath: new symbols before and after the cursor, and a refresh of symbols on later pages.
    const odd = Array.from({ length: 1500 }, (_, i) => `FR:P${String(i * 2 + 1).padStart(4, '0')}`);
    const changes = [...odd.map((s) => listing(s, '2026-03-02')), ...even.slice(600, 900).map((s) => listing(s, '2026-03-03', { short_interest: 7 }))];
    expect((await importFile(csvFile(changes))).code).toBe(0);
    let cursor: string | undefined = first.body.next_cursor;
    while (cursor) {
      const { status, body } = await server.json(`/fundamentals/stocks?market=FR&limit=500&cursor=${cursor}`);
      expect(status).toBe(200);
      seen.push(...body.items.map((i: { symbol: string; as_of: string }) => i.symbol));
      cursor = body.next_cursor;
    }
    const lastOfFirst = first.body.items.at(-1).symbol as string;
    const expected = ['FR:ORA', ...even, ...odd.filter((s) => s > lastOfFirst)].sort();
    expect(seen).toEqual(expected);
    expect((await item(even[700]!)).body).toMatchObject({ as_of: '2026-03-03', short_interest: 7 });
  });
});
