// Reading bond-yield files: the Treasury daily par yield curve layout (the sample in
// test/fixtures), the simple layout, bad rows by line number, and whole-file problems.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputFileError, readBondsFile, treasuryTenor, type BondsFileInfo, type BondsRow } from '../../src/ingest/importers/bonds-file.ts';
import { tempDir } from '../support/temp-dir.ts';

const TREASURY_FIXTURE = join(import.meta.dir, '../fixtures/us-treasury-par-yield-curve-2026-02.csv');

async function read(path: string, opts: { source?: string; latestDate?: string } = {}): Promise<{ info: BondsFileInfo | null; rows: BondsRow[] }> {
  let info: BondsFileInfo | null = null;
  const rows: BondsRow[] = [];
  for await (const row of readBondsFile(path, { latestDate: opts.latestDate ?? '2026-03-05', source: opts.source, onHeader: (i) => (info = i) })) rows.push(row);
  return { info, rows };
}

async function readText(text: string, opts: { source?: string; latestDate?: string } = {}) {
  using dir = tempDir();
  const path = join(dir.path, 'in.csv');
  writeFileSync(path, text);
  return await read(path, opts);
}

describe('Treasury column headers', () => {
  test('maps month and year columns to tenors; uncovered ones to null', () => {
    expect(['1 Mo', '2 Mo', '4 Mo', '6 Mo', '1 Yr', '10 Yr', '30 Yr', '3 Months', '20 Years'].map(treasuryTenor)).toEqual(['1M', '2M', '4M', '6M', '1Y', '10Y', '30Y', '3M', '20Y']);
    expect(['1.5 Month', '6 Wk', '8 Wk', '15 Yr', 'Date', ''].map(treasuryTenor)).toEqual([null, null, null, null, null, null]);
  });
});

describe('the sample Treasury file', () => {
  test('every row gives the 13 covered tenors of its date, sourced to the Treasury; 1.5 Month is ignored', async () => {
    const { info, rows } = await read(TREASURY_FIXTURE);
    expect(info).toEqual({ layout: 'treasury', ignoredColumns: ['1.5 Month'] });
    expect(rows.length).toBe(19);
    const first = rows[0]!;
    expect(first.line).toBe(2);
    if (!('observations' in first)) throw new Error(first.error);
    expect(first.observations.map((o) => o.symbol)).toEqual(['US:1M', 'US:2M', 'US:3M', 'US:4M', 'US:6M', 'US:1Y', 'US:2Y', 'US:3Y', 'US:5Y', 'US:7Y', 'US:10Y', 'US:20Y', 'US:30Y']);
    expect(first.observations[10]).toEqual({ symbol: 'US:10Y', date: '2026-02-27', yieldPct: 4.33, source: 'US Treasury daily par yield curve' });
    for (const row of rows) expect('observations' in row && row.observations.length === 13).toBe(true);
  });

  test('--source replaces the default source', async () => {
    const { rows } = await read(TREASURY_FIXTURE, { source: 'my desk' });
    expect((rows[0] as { observations: { source: string }[] }).observations[0]!.source).toBe('my desk');
  });
});

describe('bad rows', () => {
  test('Treasury layout: each bad row is reported with its line; empty and N/A cells are no value', async () => {
    const { rows } = await readText(
      [
        'Date,"1 Mo","4 Mo","10 Yr"',
        '02/27/2026,4.30,,4.33',
        '02/26/2026,4.29,N/A,4.36',
        '2026-02-25,4.20,4.18,4.32',
        '02/30/2026,4.2,4.1,4.3',
        '02/24/2026,4.18,abc,4.33',
        '02/23/2026,4.20,4.17,435',
        '02/20/2026,,,',
        '02/19/2026,4.1,4.1,4.3,9.9',
        '12/31/2026,4.1,4.1,4.3',
      ].join('\n'),
    );
    const summary = rows.map((r) => ('error' in r ? [r.line, r.error] : [r.line, r.observations.map((o) => `${o.symbol}=${o.yieldPct}@${o.date}`).join(' ')]));
    expect(summary).toEqual([
      [2, 'US:1M=4.3@2026-02-27 US:10Y=4.33@2026-02-27'],
      [3, 'US:1M=4.29@2026-02-26 US:10Y=4.36@2026-02-26'],
      [4, 'US:1M=4.2@2026-02-25 US:4M=4.18@2026-02-25 US:10Y=4.32@2026-02-25'],
      [5, 'date "02/30/2026" is not a date (MM/DD/YYYY or YYYY-MM-DD)'],
      [6, '4 Mo value "abc" is not a number'],
      [7, '10 Yr: yield 435 is outside -5 to 50 percent'],
      [8, 'has no yield in any tenor column'],
      [9, 'has 5 cells, the header has 4'],
      [10, 'date 2026-12-31 is in the future'],
    ]);
  });

  test('simple layout: any covered country; unknown country or tenor, bad numbers and missing sources by line', async () => {
    const { info, rows } = await readText(
      [
        'date,country,tenor,yield,source',
        '2026-02-27,de,10y,2.68,Deutsche Bundesbank',
        '2026-02-27,GB,25Y,5.21,Bank of England',
        '2026-02-27,JP,10Y,1.1,Ministry of Finance',
        '2026-02-27,ES,20Y,3.9,Tesoro',
        '2026-02-27,IT,10Y,3,6,Banca',
        '2026-02-27,IT,10Y,,Banca',
        '27.02.2026,FR,10Y,3.3,Banque de France',
        '2026-02-27,FR,10Y,3.33,',
      ].join('\r\n'),
    );
    expect(info).toEqual({ layout: 'simple', ignoredColumns: [] });
    expect(rows.map((r) => ('error' in r ? [r.line, r.error] : [r.line, r.observations]))).toEqual([
      [2, [{ symbol: 'DE:10Y', date: '2026-02-27', yieldPct: 2.68, source: 'Deutsche Bundesbank' }]],
      [3, [{ symbol: 'GB:25Y', date: '2026-02-27', yieldPct: 5.21, source: 'Bank of England' }]],
      [4, 'country "JP" is not covered; bond yields cover US, DE, FR, IT, ES and GB'],
      [5, 'ES has no 20Y tenor; its tenors are 1Y, 2Y, 3Y, 5Y, 7Y, 10Y, 15Y, 30Y'],
      [6, 'has 6 cells, the header has 5'],
      [7, 'yield "" is not a number'],
      [8, 'date "27.02.2026" is not a date (MM/DD/YYYY or YYYY-MM-DD)'],
      [9, 'source is empty: every observation names who published it'],
    ]);
  });

  test('simple layout without a source column takes --source', async () => {
    const { rows } = await readText('date,country,tenor,yield\n2026-02-27,FR,10Y,3.33\n', { source: 'Banque de France' });
    expect(rows).toEqual([{ line: 2, observations: [{ symbol: 'FR:10Y', date: '2026-02-27', yieldPct: 3.33, source: 'Banque de France' }] }]);
  });
});

describe('whole-file problems stop the import', () => {
  test.each([
    ['', 'the file is empty'],
    ['symbol,value\nUS:10Y,4\n', 'unrecognized header'],
    ['date,country,tenor,yield,source,extra\n', 'unknown column "extra"'],
    ['date,country,yield,source\n', 'the header has no tenor column'],
    ['date,country,tenor,yield\n', 'the header has no source column'],
    ['Date,"1.5 Month","6 Wk"\n', 'no tenor column'],
    ['Date,"10 Yr","10 Years"\n', 'two columns are the 10Y tenor'],
    ['date,country,tenor,yield,source\n2026-02-27,DE,10Y,"2.6,Bundesbank\n', 'never closed'],
  ])('%p', async (text, message) => {
    await expect(readText(text)).rejects.toBeInstanceOf(InputFileError);
    await expect(readText(text)).rejects.toThrow(message);
  });
});
