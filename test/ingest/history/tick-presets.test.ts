// Tick presets on their fixtures: Binance trades and aggregate trades (symbol from the name, ms and
// µs), Massive/Polygon trades and quotes (told apart by their columns, quoted condition lists),
// generic ticks with a kind column, each plain, gzip and zstd.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { openTickFile } from '../../../src/ingest/importers/history/index.ts';
import { tempDir } from '../../support/temp-dir.ts';
import { containerCopies, FIXTURES, readTicks, type TickRow } from './collect.ts';

const trade = (line: number, symbol: string, classHint: string | null, t: number, price: number, size: number): TickRow => ({ line, symbol, classHint, kind: 'trade', t, bid: NaN, ask: NaN, bidSize: NaN, askSize: NaN, price, size });
const quote = (line: number, symbol: string, classHint: string | null, t: number, bid: number, ask: number, bidSize: number, askSize: number): TickRow => ({ line, symbol, classHint, kind: 'quote', t, bid, ask, bidSize, askSize, price: NaN, size: NaN });

const CASES = [
  {
    file: 'BTCUSDT-trades-2024-01-01.csv',
    preset: 'binance-trades',
    rows: [trade(1, 'BTCUSDT', 'crypto', 1704067200001, 42283.58, 0.001), trade(2, 'BTCUSDT', 'crypto', 1704067200050, 42283.57, 0.01)],
  },
  {
    file: 'BTCUSDT-aggTrades-2024-01-01.csv',
    preset: 'binance-aggtrades',
    rows: [trade(2, 'BTCUSDT', 'crypto', 1704067200001, 42283.58, 0.12), trade(3, 'BTCUSDT', 'crypto', 1704067200999, 42283.6, 0.005)],
  },
  {
    file: 'us_stocks_sip/trades_v1/2024/01/2024-01-02.csv',
    preset: 'polygon',
    rows: [trade(2, 'AAPL', 'stocks', 1704186000003, 187.15, 100), trade(3, 'AAPL', 'stocks', 1704186000107, 187.16, 5)],
  },
  {
    file: 'us_stocks_sip/quotes_v1/2024/01/2024-01-02.csv',
    preset: 'polygon',
    rows: [quote(2, 'AAPL', 'stocks', 1704186000001, 187.1, 187.2, 3, 2), quote(3, 'AAPL', 'stocks', 1704186000002, 187.12, 187.21, 4, 1)],
  },
  {
    file: 'generic-ticks.csv',
    preset: 'generic',
    rows: [quote(2, 'EURUSD', null, 1704067200000, 1.10396, 1.10398, 1000000, 500000), trade(3, 'EURUSD', null, 1704067200500, 1.10397, 250000), quote(4, 'EURUSD', null, 1704067201000, 1.10395, 1.10399, NaN, NaN)],
  },
];

describe.each(['plain', 'gz', 'zst'] as const)('tick presets, %s', (container) => {
  test.each(CASES)('$file ($preset)', async ({ file, preset, rows }) => {
    using dir = tempDir();
    const path = containerCopies(file, dir.path)[container];
    expect(openTickFile(path).info).toEqual({ path, format: 'csv', preset, sizeBytes: Bun.file(path).size });
    const read = await readTicks(path);
    expect(read.rows).toEqual(rows);
    expect(read.problems).toEqual([]);
  });
});

describe('tick rows', () => {
  test('a row is a quote by its bid/ask, a trade by its price; both or neither without a kind is a problem', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'ticks.csv');
    await Bun.write(path, ['time,ticker,bid,ask,price,size', '1,EURUSD,1.1,1.2,,', '2,EURUSD,,,1.15,3', '3,EURUSD,1.1,1.2,1.15,', '4,EURUSD,,,,5', '5,EURUSD,1.1,,,'].join('\n'));
    const read = await readTicks(path, { timeUnit: 's' });
    expect(read.rows.map((r) => [r.line, r.kind])).toEqual([
      [2, 'quote'],
      [3, 'trade'],
      [6, 'quote'],
    ]);
    expect(read.problems.map((p) => [p.line, p.message])).toEqual([
      [4, 'has both bid/ask and price; a kind column (quote|trade) must say which it is'],
      [5, 'has neither bid/ask nor price'],
    ]);
  });

  test('a kind column decides; the other kind’s fields are blanked; an unknown kind is a problem', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'ticks.ndjson');
    await Bun.write(path, ['{"t":1,"symbol":"EURUSD","kind":"trade","bid":1.1,"ask":1.2,"price":1.15,"size":2}', '{"t":2,"symbol":"EURUSD","kind":"Q","bid":1.1,"ask":1.2,"price":1.15}', '{"t":3,"symbol":"EURUSD","kind":"auction","price":1}'].join('\n'));
    const read = await readTicks(path, { timeUnit: 'ms' });
    expect(read.rows).toEqual([trade(1, 'EURUSD', null, 1, 1.15, 2), quote(2, 'EURUSD', null, 2, 1.1, 1.2, NaN, NaN)]);
    expect(read.problems).toEqual([{ file: path, line: 3, message: 'column kind: "auction" is neither quote nor trade' }]);
  });

  test('a tick file without bid, ask or price columns is an error', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'ticks.csv');
    await Bun.write(path, 't,symbol,size\n1,X,2\n');
    await expect(readTicks(path)).rejects.toThrow('no bid, ask or price column (the columns are t, symbol, size)');
  });

  test('file names pick the preset: trades, aggTrades, trades_v1 and quotes_v1 paths', () => {
    expect(openTickFile(join(FIXTURES, 'BTCUSDT-trades-2024-01-01.csv')).info.preset).toBe('binance-trades');
    expect(openTickFile(join(FIXTURES, 'BTCUSDT-aggTrades-2024-01-01.csv')).info.preset).toBe('binance-aggtrades');
    expect(openTickFile(join(FIXTURES, 'us_stocks_sip/quotes_v1/2024/01/2024-01-02.csv')).info.preset).toBe('polygon');
    expect(openTickFile(join(FIXTURES, 'generic-ticks.csv')).info.preset).toBe('generic');
    expect(() => openTickFile(join(FIXTURES, 'generic-ticks.csv'), { preset: 'binance-klines' })).toThrow('unknown tick preset "binance-klines"; the presets are binance-trades, binance-aggtrades, polygon, massive, generic');
  });
});
