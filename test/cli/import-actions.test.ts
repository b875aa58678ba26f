// `mds import splits|dividends` in-process over a temporary data dir: the three formats in
// Massive's field names, bare tickers as US stocks, bad rows by line number, --strict, whole-file
// errors, and a second import of the same file changing nothing.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/cli/import.ts';
import { UsageError } from '../../src/config.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

let dir: TempDir;
let n = 0;

beforeEach(() => {
  dir = tempDir('mds-actions-');
});
afterEach(() => dir[Symbol.dispose]());

function file(ext: string, text: string): string {
  const path = join(dir.path, `in-${++n}.${ext}`);
  writeFileSync(path, text);
  return path;
}

async function mds(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runImport([...args, '--data-dir', join(dir.path, 'data')], {}, { out: (t) => (out += t), err: (t) => (err += t), isTty: false });
  return { code, out, err };
}

async function stored<T>(read: (store: Store) => T): Promise<T> {
  const store = Store.open({ dataDir: join(dir.path, 'data') });
  try {
    return read(store);
  } finally {
    await store.close();
  }
}

describe('mds import splits', () => {
  test('CSV: bare tickers become US stocks, bad rows are skipped by line, a second import changes nothing', async () => {
    const path = file('csv', 'ticker,execution_date,split_from,split_to\nAAPL,2020-08-31,1,4\nUS:TSLA,2020-08-31,1,5\nNVDA,2021-02-30,1,4\nAMD,2021-01-04,2,2\n');
    const first = await mds('splits', path);
    expect(first.code).toBe(0);
    expect(first.err).toContain('line 4: skipped: execution_date "2021-02-30" is not a calendar date YYYY-MM-DD');
    expect(first.err).toContain('line 5: skipped: split_from and split_to are both 2');
    expect(first.out).toContain('2 new, 0 replaced, 0 unchanged');
    expect(await stored((s) => s.corporateActions.of('US:AAPL'))).toEqual({ splits: [{ symbol: 'US:AAPL', date: '2020-08-31', from: 1, to: 4 }], dividends: [] });
    const version = await stored((s) => s.corporateActions.version());
    const again = await mds('splits', path, '--json');
    expect(JSON.parse(again.out)).toMatchObject({ kind: 'splits', rows: 4, bad_rows: 2, imported: true, added: 0, replaced: 0, unchanged: 2 });
    expect(await stored((s) => s.corporateActions.version())).toBe(version);
  });

  test('--strict writes nothing from a file with a bad row; an unknown column stops the file', async () => {
    const strict = await mds('splits', file('csv', 'ticker,execution_date,split_from,split_to\nAAPL,2020-08-31,1,4\nAAPL,2020-08-31,1,x\n'), '--strict');
    expect(strict.code).toBe(1);
    expect(strict.err).toContain('line 3: skipped: split_to "x" is not a positive number');
    expect(strict.err).toContain('--strict: nothing was imported');
    const unknown = await mds('splits', file('csv', 'ticker,date,split_from,split_to\nAAPL,2020-08-31,1,4\n'));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('unknown column "date"; the splits columns are ticker, execution_date, split_from, split_to');
    expect(await stored((s) => s.corporateActions.all())).toEqual({ splits: [], dividends: [] });
  });

  test('NDJSON and JSON; a name that tells no format is a usage error until --format says it', async () => {
    const a = file('ndjson', '{"ticker":"AAPL","execution_date":"2014-06-09","split_from":1,"split_to":7}\n\n{"ticker":"AAPL","execution_date":"2020-08-31","split_from":1,"split_to":4}\n');
    const b = file('txt', '[\n  {"ticker":"GE","execution_date":"2021-08-02","split_from":8,"split_to":1},\n  {"ticker":"GE","execution_date":"2021-08-02"}\n]');
    await expect(mds('splits', a, b)).rejects.toThrow(UsageError);
    expect((await mds('splits', a)).code).toBe(0);
    const json = await mds('splits', b, '--format', 'json');
    expect(json.code).toBe(0);
    expect(json.err).toContain('line 3: skipped: split_from is missing');
    const all = await stored((s) => s.corporateActions.all());
    expect(all.splits.map((x) => `${x.symbol} ${x.date} ${x.from}:${x.to}`)).toEqual(['US:AAPL 2014-06-09 1:7', 'US:AAPL 2020-08-31 1:4', 'US:GE 2021-08-02 8:1']);
  });
});

describe('mds import dividends', () => {
  test('a saved Massive answer: optional fields kept, id and currency read past, lines named', async () => {
    const path = file(
      'json',
      JSON.stringify(
        {
          results: [
            { cash_amount: 0.82, currency: 'USD', declaration_date: '2020-07-30', dividend_type: 'CD', ex_dividend_date: '2020-08-07', frequency: 4, id: 'E1', pay_date: '2020-08-13', record_date: '2020-08-10', ticker: 'AAPL' },
            { cash_amount: 0, ex_dividend_date: '2020-05-08', ticker: 'AAPL' },
            { cash_amount: 0.77, ex_dividend_date: '2020-05-08', ticker: 'AAPL', dividend_type: 'XX' },
          ],
          status: 'OK',
        },
        null,
        2,
      ),
    );
    const r = await mds('dividends', path);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/line 15: skipped: cash_amount "0" is not a positive number/);
    expect(r.err).toMatch(/line 20: skipped: dividend_type "XX" is not one of CD, SC, LT, ST/);
    expect((await stored((s) => s.corporateActions.of('US:AAPL'))).dividends).toEqual([
      { symbol: 'US:AAPL', exDate: '2020-08-07', cash: 0.82, payDate: '2020-08-13', recordDate: '2020-08-10', declarationDate: '2020-07-30', frequency: 4, dividendType: 'CD' },
    ]);
  });

  test('CSV with only the required columns; a corrected amount replaces the stored one', async () => {
    expect((await mds('dividends', file('csv', 'ticker,ex_dividend_date,cash_amount\nMSFT,2020-08-19,0.51\n'))).code).toBe(0);
    const r = await mds('dividends', file('csv', 'ticker,ex_dividend_date,cash_amount\nMSFT,2020-08-19,0.52\n'), '--json');
    expect(JSON.parse(r.out)).toMatchObject({ added: 0, replaced: 1, unchanged: 0 });
    expect((await stored((s) => s.corporateActions.of('US:MSFT'))).dividends[0]!.cash).toBe(0.52);
  });
});
