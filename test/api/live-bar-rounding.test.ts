// Bars built live from quote mids (forex, the .RAW lines, indices, ETFs, perpetuals) are served
// with the instrument's decimals plus the mid's one (two for perpetual marks), never with float
// noise such as 1.1596825000000002; the close of a bar built from mids equals the last-trade
// fallback (the rounded mid) of the same quote. The simulator runs until every line has quoted,
// then the store is served again with no feed, so nothing moves while it is read.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ETFS, FOREX, INDICES, PERPETUALS } from '../../src/ingest/reference/catalog.ts';
import { connect } from '../support/ws-client.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

type Bar = { o: number; h: number; l: number; c: number; v: number | null; t: number };
/** A Wednesday 15:30 UTC: forex, indices and US ETFs all trade. */
const CLOCK = '2026-03-04T15:30:10Z';
const TODAY = '2026-03-04';
/** History ends with the minute before the clock's start: bars from here on are built live. */
const LIVE_FROM = Date.parse('2026-03-04T15:30:00Z');
const QUOTES_PER_LINE = 8;

const lines = [
  ...FOREX.map((s) => ({ route: 'forex', symbol: s.symbol, decimals: s.decimals, extra: 1, tradesFallBack: false })),
  ...FOREX.map((s) => ({ route: 'forex', symbol: `${s.symbol}.RAW`, decimals: s.decimals, extra: 1, tradesFallBack: false })),
  ...INDICES.map((s) => ({ route: 'indices', symbol: s.symbol, decimals: s.decimals, extra: 1, tradesFallBack: true })),
  ...ETFS.map((s) => ({ route: 'etfs', symbol: s.symbol, decimals: s.decimals, extra: 1, tradesFallBack: true })),
  ...PERPETUALS.map((s) => ({ route: 'perpetuals', symbol: s.symbol, decimals: s.decimals, extra: 2, tradesFallBack: false })),
];

function decimalsOf(value: number): number {
  const text = String(value);
  if (/e/i.test(text)) return 99;
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

let dataDir: string;
let server: TestServer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-rounding-'));
  {
    await using live = await startServer({ dataDir, args: ['--clock-start', CLOCK, '--history-days', '1'] });
    await using ws = await connect(`${live.base.replace('http', 'ws')}/?apiKey=${TEST_KEY}`);
    for (const [channel, symbols] of [['forex.quotes', ['EURUSD', 'EURUSD.RAW']], ['indices.quotes', ['US500']], ['etfs.quotes', ['US500ETF']]] as const) {
      ws.send({ action: 'subscribe', channels: [channel], symbols });
      await ws.next((m) => m.type === 'subscribed');
    }
    // Enough live quotes that float noise in a mid would show somewhere.
    for (const symbol of ['EURUSD', 'EURUSD.RAW', 'US500', 'US500ETF']) {
      for (let i = 0; i < QUOTES_PER_LINE; i++) await ws.next((m) => m.type === 'quote' && m.symbol === symbol, 30_000);
    }
  }
  server = await startServer({ dataDir, args: ['--feed', 'none', '--clock-start', CLOCK] });
}, 120_000);
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('bars built live from quote mids', () => {
  test('carry no more decimals than the instrument and its mid allow', async () => {
    const tooFine: string[] = [];
    let liveBars = 0;
    for (const line of lines) {
      const { status, body } = await server.json<{ results: Bar[] }>(`/${line.route}/agg/${line.symbol}/1/minute/${TODAY}/${TODAY}?limit=5`);
      expect(status).toBe(200);
      for (const bar of body.results) {
        if (bar.t >= LIVE_FROM) liveBars++;
        for (const field of ['o', 'h', 'l', 'c'] as const) {
          if (decimalsOf(bar[field]) > line.decimals + line.extra) tooFine.push(`${line.symbol} ${field}=${bar[field]} at ${bar.t}`);
        }
      }
    }
    expect(liveBars).toBeGreaterThan(lines.length / 2);
    expect(tooFine).toEqual([]);
  });

  test('the close of a bar built from mids equals the last-trade fallback of the same quote', async () => {
    let compared = 0;
    for (const line of lines.filter((l) => l.tradesFallBack)) {
      const bars = await server.json<{ results: Bar[] }>(`/${line.route}/agg/${line.symbol}/1/minute/${TODAY}/${TODAY}?limit=1`);
      // Lines of closed markets (JP225) have no live bar: their last bar is history.
      if (bars.body.results[0]!.t < LIVE_FROM) continue;
      compared++;
      const trade = await server.json<{ price: number; timestamp: number }>(`/${line.route}/trade/last/${line.symbol}`);
      expect(trade.status).toBe(200);
      expect({ symbol: line.symbol, close: bars.body.results[0]!.c }).toEqual({ symbol: line.symbol, close: trade.body.price });
    }
    expect(compared).toBeGreaterThan(5);
  });
});
