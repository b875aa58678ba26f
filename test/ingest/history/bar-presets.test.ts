// Bar presets on their fixtures: Binance klines (ms and µs, with and without header), Massive/Polygon
// aggregates (ticker prefixes, ns times, timeframe from the path), generic CSV with column mapping,
// each plain, gzip and zstd; and what makes a file unreadable before any row.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { InputFileError, openBarFile, parseColumnMapping } from '../../../src/ingest/importers/history/index.ts';
import { tempDir } from '../../support/temp-dir.ts';
import { containerCopies, FIXTURES, readBars } from './collect.ts';

const KLINES_2024 = [
  { line: 1, symbol: 'BTCUSDT', classHint: 'crypto', t: 1704067200000, o: 42283.58, h: 42298.62, l: 42283.57, c: 42298.61, v: 35.30197 },
  { line: 2, symbol: 'BTCUSDT', classHint: 'crypto', t: 1704067260000, o: 42298.62, h: 42320, l: 42298.61, c: 42319.99, v: 21.7095 },
  { line: 3, symbol: 'BTCUSDT', classHint: 'crypto', t: 1704067320000, o: 42319.99, h: 42331.54, l: 42301.31, c: 42302.49, v: 37.4638 },
];

describe.each(['plain', 'gz', 'zst'] as const)('binance-klines, %s', (container) => {
  test('a header-less file of millisecond times: symbol and timeframe from the name', async () => {
    using dir = tempDir();
    const path = containerCopies('BTCUSDT-1m-2024-01.csv', dir.path)[container];
    const file = openBarFile(path);
    expect(file.info).toEqual({ path, format: 'csv', preset: 'binance-klines', timeframe: '1m', sizeBytes: Bun.file(path).size });
    const read = await readBars(path);
    expect(read.rows).toEqual(KLINES_2024);
    expect(read.problems).toEqual([]);
    expect(read.lastBytesRead).toBe(Bun.file(path).size);
  });

  test('a file with a header row and microsecond times (2025+ spot files)', async () => {
    using dir = tempDir();
    const path = containerCopies('BTCUSDT-1m-2025-01.csv', dir.path)[container];
    const read = await readBars(path, { preset: 'binance-klines' });
    expect(read.rows.map((r) => [r.line, r.t, r.o, r.v])).toEqual([
      [2, 1735689600000, 93576, 8.21827],
      [3, 1735689660000, 93610.93, 9.72268],
    ]);
    expect(read.problems).toEqual([]);
  });
});

describe('binance-klines names and overrides', () => {
  test('the interval in the name gives the timeframe', () => {
    expect(openBarFile(join(FIXTURES, 'ETHUSDT-1h-2024-01.csv')).info.timeframe).toBe('1h');
  });

  test('an interval mds does not store is an error naming the ones it does', () => {
    expect(() => openBarFile(join(FIXTURES, 'XRPUSDT-30m-2024-01.csv'))).toThrow('interval 30m in the file name is not a timeframe mds stores; the timeframes are 1m, 5m, 15m, 1h, 4h, 1d');
    expect(openBarFile(join(FIXTURES, 'XRPUSDT-30m-2024-01.csv'), { timeframe: '1h' }).info.timeframe).toBe('1h');
  });

  test('a name that says nothing needs the symbol and timeframe given', async () => {
    using dir = tempDir();
    const { plain } = containerCopies('BTCUSDT-1m-2024-01.csv', dir.path);
    const renamed = join(dir.path, 'klines.csv');
    await Bun.write(renamed, Bun.file(plain));
    expect(() => openBarFile(renamed, { preset: 'binance-klines' })).toThrow(InputFileError);
    expect(() => openBarFile(renamed, { preset: 'binance-klines' })).toThrow('cannot tell the symbol and interval from the file name (named like BTCUSDT-1m-2024-01.csv)');
    const read = await readBars(renamed, { preset: 'binance-klines', symbol: 'BTCUSDT', timeframe: '1m', assetClass: 'perpetuals' });
    expect(read.rows[0]).toEqual({ ...KLINES_2024[0]!, classHint: 'perpetuals' });
  });

  test('a symbol given replaces the one in the name', async () => {
    const read = await readBars(join(FIXTURES, 'BTCUSDT-1m-2024-01.csv'), { symbol: 'BTCUSD' });
    expect(read.rows.map((r) => r.symbol)).toEqual(['BTCUSD', 'BTCUSD', 'BTCUSD']);
  });
});

const POLYGON_CASES = [
  {
    file: 'us_stocks_sip/minute_aggs_v1/2024/01/2024-01-02.csv',
    timeframe: '1m',
    rows: [
      { line: 2, symbol: 'AAPL', classHint: 'stocks', t: 1704186000000, o: 187.15, h: 187.25, l: 187.1, c: 187.23, v: 16084 },
      { line: 3, symbol: 'AAPL', classHint: 'stocks', t: 1704186060000, o: 187.23, h: 187.35, l: 187.2, c: 187.3, v: 10341 },
      { line: 4, symbol: 'SPY', classHint: 'stocks', t: 1704186000000, o: 472.16, h: 472.31, l: 472.1, c: 472.3, v: 120004 },
    ],
  },
  {
    file: 'global_crypto/minute_aggs_v1/2024/01/2024-01-02.csv',
    timeframe: '1m',
    rows: [
      { line: 2, symbol: 'BTCUSD', classHint: 'crypto', t: 1704153600000, o: 44180.1, h: 44190.5, l: 44170, c: 44185.2, v: 3.52 },
      { line: 3, symbol: 'ETHUSD', classHint: 'crypto', t: 1704153600000, o: 2352.1, h: 2353, l: 2351.2, c: 2352.6, v: 40.1 },
    ],
  },
  {
    file: 'global_forex/day_aggs_v1/2024/01/2024-01-02.csv',
    timeframe: '1d',
    rows: [
      { line: 2, symbol: 'EURUSD', classHint: 'forex', t: 1704153600000, o: 1.10396, h: 1.10451, l: 1.09403, c: 1.09421, v: 94124 },
      { line: 3, symbol: 'USDJPY', classHint: 'forex', t: 1704153600000, o: 141.01, h: 142.21, l: 140.81, c: 141.96, v: 120332 },
    ],
  },
  {
    file: 'us_indices/minute_aggs_v1/2024/01/2024-01-02.csv',
    timeframe: '1m',
    rows: [{ line: 2, symbol: 'SPX', classHint: 'indices', t: 1704205800000, o: 4745.2, h: 4746.5, l: 4744.9, c: 4746.01, v: NaN }],
  },
];

describe.each(['plain', 'gz', 'zst'] as const)('polygon flat-file aggregates, %s', (container) => {
  test.each(POLYGON_CASES)('$file: columns by header name, ns times, ticker prefixes', async ({ file, timeframe, rows }) => {
    using dir = tempDir();
    const path = containerCopies(file, dir.path)[container];
    expect(openBarFile(path).info).toMatchObject({ preset: 'polygon', timeframe, format: 'csv' });
    const read = await readBars(path, { preset: container === 'gz' ? 'massive' : 'polygon' });
    expect(read.rows).toEqual(rows);
    expect(read.problems).toEqual([]);
  });
});

describe('polygon details', () => {
  test('a path without minute_aggs or day_aggs needs the timeframe given', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'aggs.csv');
    await Bun.write(path, Bun.file(join(FIXTURES, POLYGON_CASES[0]!.file)));
    expect(() => openBarFile(path, { preset: 'polygon' })).toThrow('cannot tell the timeframe from the path (minute_aggs or day_aggs); give the timeframe');
    expect(openBarFile(path, { preset: 'polygon', timeframe: '5m' }).info.timeframe).toBe('5m');
  });

  test('a class given overrides the prefix rule (an ETF file)', async () => {
    const read = await readBars(join(FIXTURES, POLYGON_CASES[0]!.file), { assetClass: 'etfs' });
    expect(read.rows.map((r) => r.classHint)).toEqual(['etfs', 'etfs', 'etfs']);
  });
});

describe('generic bars', () => {
  test('synonyms find the columns; dates are read in UTC by default', async () => {
    const read = await readBars(join(FIXTURES, 'generic-daily.csv'));
    expect(read.rows).toEqual([
      { line: 2, symbol: 'US:AAPL', classHint: null, t: Date.UTC(2024, 0, 2), o: 187.15, h: 188.44, l: 183.885, c: 185.64, v: 82488674 },
      { line: 3, symbol: 'US:AAPL', classHint: null, t: Date.UTC(2024, 0, 3), o: 184.22, h: 185.88, l: 183.43, c: 184.25, v: 58414460 },
    ]);
  });

  test('dates in a zone: midnight New York; the class given', async () => {
    const read = await readBars(join(FIXTURES, 'generic-daily.csv'), { tz: 'America/New_York', assetClass: 'stocks' });
    expect(read.rows.map((r) => [r.t, r.classHint])).toEqual([
      [Date.UTC(2024, 0, 2, 5), 'stocks'],
      [Date.UTC(2024, 0, 3, 5), 'stocks'],
    ]);
  });

  test('a column mapping names the columns; units and symbol given', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'mine.csv');
    await Bun.write(path, 'when,first,top,bottom,last,qty\n1704067200,1,2,0.5,1.5,7\n1704067260.5,1,2,0.5,1.5,\n');
    const read = await readBars(path, { columns: { t: 'WHEN', o: 'first', h: 'top', l: 'bottom', c: 'last', v: 'qty' }, symbol: 'BTCUSD', assetClass: 'crypto' });
    expect(read.rows).toEqual([
      { line: 2, symbol: 'BTCUSD', classHint: 'crypto', t: 1704067200000, o: 1, h: 2, l: 0.5, c: 1.5, v: 7 },
      { line: 3, symbol: 'BTCUSD', classHint: 'crypto', t: 1704067260500, o: 1, h: 2, l: 0.5, c: 1.5, v: NaN },
    ]);
    const asMs = await readBars(path, { columns: { t: 'when', o: 'first', h: 'top', l: 'bottom', c: 'last', v: 'qty' }, symbol: 'X', timeUnit: 'ms' });
    expect(asMs.rows.map((r) => r.t)).toEqual([1704067200, 1704067260]);
  });

  test('a mapping that names a missing column, or a file without the needed columns, is an error', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'mine.csv');
    await Bun.write(path, 'time,open,high,low,close\n1704067200000,1,2,0.5,1.5\n');
    await expect(readBars(path, { symbol: 'X', columns: { v: 'vol' } })).rejects.toThrow(`${path}: columns v=vol: there is no column "vol" (the columns are time, open, high, low, close)`);
    await expect(readBars(path)).rejects.toThrow('no symbol column (looked for symbol, ticker, sym; the columns are time, open, high, low, close)');
    await Bun.write(path, 'time,open,high,low\n1704067200000,1,2,0.5\n');
    await expect(readBars(path, { symbol: 'X' })).rejects.toThrow('no column for c (looked for c, close;');
  });

  test('a header is required: a first row of data is an error', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'mine.csv');
    await Bun.write(path, '1704067200000,1,2,0.5,1.5\n');
    await expect(readBars(path, { symbol: 'X' })).rejects.toThrow('line 1: the first row is data, but preset generic needs a header row naming the columns');
    await Bun.write(path, '');
    await expect(readBars(path, { symbol: 'X' })).rejects.toThrow('the file is empty');
  });
});

describe('opening errors', () => {
  test('missing file, unknown preset, unknown zone, unknown format: InputFileError before any row', () => {
    expect(() => openBarFile('/nonexistent/BTCUSDT-1m-2024-01.csv')).toThrow('/nonexistent/BTCUSDT-1m-2024-01.csv: no such file');
    expect(() => openBarFile(join(FIXTURES, 'generic-daily.csv'), { preset: 'yahoo' })).toThrow('unknown bar preset "yahoo"; the presets are binance-klines, polygon, massive, generic');
    expect(() => openBarFile(join(FIXTURES, 'generic-daily.csv'), { tz: 'Mars/Olympus' })).toThrow('unknown time zone "Mars/Olympus"');
    expect(() => openBarFile(join(FIXTURES, 'README.md'))).toThrow('cannot tell the format from the name');
    expect(() => openBarFile(FIXTURES)).toThrow('is a directory');
    expect(() => openBarFile(join(FIXTURES, 'generic-daily.csv'), { symbol: ' ' })).toThrow('the symbol given is empty');
  });
});

describe('parseColumnMapping', () => {
  test('TARGET=COLUMN pairs for bars or ticks; unknown or repeated targets are errors', () => {
    expect(parseColumnMapping('bars', 't=timestamp, o=Open,h=high,l=low,c=close,v=volume,symbol=ticker')).toEqual({ ok: true, columns: { t: 'timestamp', o: 'Open', h: 'high', l: 'low', c: 'close', v: 'volume', symbol: 'ticker' } });
    expect(parseColumnMapping('ticks', 'bid=b,ask=a,bid_size=bs,kind=side')).toEqual({ ok: true, columns: { bid: 'b', ask: 'a', bid_size: 'bs', kind: 'side' } });
    expect(parseColumnMapping('bars', 'bid=b')).toEqual({ ok: false, error: 'unknown target "bid"; the targets are t, o, h, l, c, v, symbol' });
    expect(parseColumnMapping('bars', 't=a,t=b')).toEqual({ ok: false, error: 't is mapped twice' });
    expect(parseColumnMapping('bars', 'timestamp')).toEqual({ ok: false, error: '"timestamp" is not TARGET=COLUMN' });
    expect(parseColumnMapping('bars', 'o=')).toEqual({ ok: false, error: 'no column named for o' });
  });
});
