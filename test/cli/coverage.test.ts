// `mds coverage` as an operator runs it: the table of ranges and totals, the route's JSON, the
// class found from the symbol, usage errors with exit code 2, and a read while a server runs.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import type { Bar } from '../../src/domain/bar.ts';
import { CoverageSchema } from '../../src/domain/coverage-schema.ts';
import { MINUTE_MS } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { runMds } from '../support/cli.ts';
import { startServer } from '../support/server.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const WED = Date.UTC(2026, 2, 4);
let dir: TempDir;

beforeAll(async () => {
  dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  const btc = store.registry.resolve('crypto', 'BTCUSD')!.id;
  const bars: Bar[] = [];
  for (let i = 0; i < 600; i++) if (i < 100 || i > 200) bars.push({ t: WED + i * MINUTE_MS, o: 1, h: 1, l: 1, c: 1, v: 1 });
  store.appendHistory(btc, '1m', bars);
  store.recordLive('venue', WED + 150 * MINUTE_MS, [btc]);
  store.recordLive('venue', WED + 170 * MINUTE_MS, [btc]);
  store.recordDown('venue');
  await store.close();
});
afterAll(() => dir[Symbol.dispose]());

const coverage = (...args: string[]) => runMds('coverage', ...args, '--data-dir', dir.path);

describe('mds coverage', () => {
  test('prints each symbol its ranges and totals; the class is found from the symbol', async () => {
    const r = await coverage('BTCUSD', 'US:AAPL', '--from', '2026-03-04', '--to', '2026-03-04');
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    expect(r.out).toBe(
      [
        'BTCUSD (crypto) 1m, 2026-03-04 00:00 to 2026-03-05 00:00 UTC, classified to 2026-03-05 00:00',
        '  FROM                TO                  KIND    SLOTS',
        '  2026-03-04 00:00    2026-03-04 01:40    bars      100',
        '  2026-03-04 01:40    2026-03-04 02:30    gap        50',
        '  2026-03-04 02:30    2026-03-04 02:50    quiet      20',
        '  2026-03-04 02:50    2026-03-04 03:21    gap        31',
        '  2026-03-04 03:21    2026-03-04 10:00    bars      399',
        '  2026-03-04 10:00    2026-03-05 00:00    gap       840',
        '  totals: 1440 slots: 499 bars, 20 quiet, 921 gaps',
        '',
        'US:AAPL (stocks) 1m, 2026-03-04 00:00 to 2026-03-05 00:00 UTC, classified to 2026-03-05 00:00',
        '  FROM                TO                  KIND    SLOTS',
        '  2026-03-04 14:30    2026-03-04 21:00    gap       390',
        '  totals: 390 slots: 0 bars, 0 quiet, 390 gaps',
        '',
      ].join('\n'),
    );
  });

  test('--json prints the body GET /coverage answers, one line per symbol', async () => {
    const r = await coverage('btcusd', '--class', 'crypto', '--timeframe', '5m', '--from', '2026-03-04', '--to', '2026-03-04', '--json');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines.length).toBe(1);
    const body = JSON.parse(lines[0]!);
    expect(Value.Check(CoverageSchema, body)).toBe(true);
    // No 5-minute bars were stored: slots are gaps but where the feed was live; the window lies
    // in the past, so all of it is classified.
    const m = (i: number) => WED + i * MINUTE_MS;
    expect({ ...body, as_of: 0 }).toEqual({
      symbol: 'BTCUSD',
      class: 'crypto',
      timeframe: '5m',
      from: WED,
      to: WED + 86_400_000,
      classified_to: WED + 86_400_000,
      as_of: 0,
      totals: { slots: 288, bars: 0, quiet: 4, gaps: 284, pending: 0 },
      ranges: [
        { from: WED, to: m(150), kind: 'gap', count: 30 },
        { from: m(150), to: m(170), kind: 'quiet', count: 4 },
        { from: m(170), to: WED + 86_400_000, kind: 'gap', count: 254 },
      ],
    });
  });

  test('--as-of reports at another instant: slots that end later (less the settle lag) are left out', async () => {
    const r = await coverage('BTCUSD', '--as-of', '2026-03-04T03:00:00Z', '--json');
    const m = (i: number) => WED + i * MINUTE_MS;
    const body = JSON.parse(r.out);
    expect({ code: r.code, classifiedTo: body.classified_to, asOf: body.as_of, ranges: body.ranges }).toEqual({
      code: 0,
      classifiedTo: m(180) - 5000,
      asOf: m(180),
      ranges: [
        { from: m(0), to: m(100), kind: 'bars', count: 100 },
        { from: m(100), to: m(150), kind: 'gap', count: 50 },
        { from: m(150), to: m(170), kind: 'quiet', count: 20 },
        { from: m(170), to: m(179), kind: 'gap', count: 9 },
      ],
    });
  });

  test.each([
    [['NOPEUSD'], 'mds: unknown symbol "NOPEUSD" in every class\n'],
    [['AAPL', '--class', 'stocks'], 'mds: AAPL: invalid stocks symbol "AAPL": expected MARKET:BASE, a two-letter market prefix and a ticker such as US:AAPL\n'],
    [['BTCUSD', '--class', 'bonds'], 'mds: --class: unknown asset class "bonds"; classes are crypto, forex, stocks, indices, etfs, commodities, perpetuals, overnight\n'],
    [['BTCUSD', '--timeframe', '2m'], 'mds: invalid timeframe "2m": allowed values are 1m, 5m, 15m, 1h, 4h, 1d\n'],
    [['BTCUSD', '--from', '2026-01-01', '--to', '2026-03-04'], 'mds: window of 63 days exceeds the maximum span of 31 days for 1 minute bars\n'],
    [['BTCUSD', '--as-of', 'yesterday'], 'mds: --as-of must be an ISO 8601 instant with a zone (2026-03-04T15:30:00Z) or Unix ms, got "yesterday"\n'],
    [[], "mds: 'mds coverage' needs at least one symbol, e.g. mds coverage BTCUSD. Run 'mds coverage --help' for the options.\n"],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const r = await coverage(...args);
    expect({ code: r.code, err: r.err, out: r.out }).toEqual({ code: 2, err: message, out: '' });
  });

  test('a data dir without a store is refused; --help prints the usage', async () => {
    using empty = tempDir();
    const r = await runMds('coverage', 'BTCUSD', '--data-dir', empty.path);
    expect({ code: r.code, err: r.err }).toEqual({ code: 2, err: `mds: no store in ${empty.path}: give the data dir with --data-dir\n` });
    const help = await runMds('coverage', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toStartWith('Usage: mds coverage SYMBOL... [options]');
  });

  test('reads a data dir while a server runs on it', async () => {
    await using server = await startServer({ args: ['--feed', 'none'] });
    const r = await runMds('coverage', 'EURUSD', '--timeframe', '1h', '--from', '2026-03-02', '--to', '2026-03-02', '--json', '--data-dir', server.dataDir);
    expect(r.code).toBe(0);
    // Nothing was ever stored or served there: the forex day's 24 hourly slots are all gaps.
    expect(JSON.parse(r.out).totals).toEqual({ slots: 24, bars: 0, quiet: 0, gaps: 24, pending: 0 });
  });
});
