// The older Polygon.io JavaScript SDK (@polygon.io/client-js 8, positional arguments), unmodified,
// pointed at a real mds by its base-URL argument: code that still uses it reads the same values
// as the native routes, through the same /compat/massive routes as the Massive SDK.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { GetCryptoAggregatesTimespanEnum, GetStocksAggregatesTimespanEnum, restClient, websocketClient } from '@polygon.io/client-js';
import { startServer, type TestServer } from '../support/server.ts';
import { nyMidnight, stampedNy } from './ny-midnight.ts';
import { stableRead } from './stable-read.ts';

let server: TestServer;
let rest: ReturnType<typeof restClient>;
beforeAll(async () => {
  server = await startServer();
  rest = restClient(server.key, `${server.base}/compat/massive`);
});
afterAll(() => server.stop());

type NativeBar = { o: number; h: number; l: number; c: number; v: number | null; t: number };

async function nativeBars(path: string): Promise<NativeBar[]> {
  const { status, body } = await server.json(`${path}?sort=asc&limit=5000`);
  expect(status).toBe(200);
  return body.results;
}

const vendorOf = (bars: NativeBar[]) => bars.map(({ v, ...rest }) => (v === null ? rest : { ...rest, v }));

describe('Polygon SDK 8 over the Massive-compatible routes', () => {
  test('stock daily and crypto minute bars equal the native bars of the window', async () => {
    const daily = await nativeBars('/stocks/agg/US:AAPL/1/day/2026-02-20/2026-03-03');
    const stocks = await rest.getStocksAggregates('AAPL', 1, GetStocksAggregatesTimespanEnum.Day, '2026-02-20', '2026-03-03');
    expect(daily.length).toBeGreaterThan(0);
    expect(stocks).toMatchObject({ ticker: 'AAPL', status: 'OK', resultsCount: daily.length });
    expect(stocks.results as unknown).toEqual(vendorOf(daily.map(stampedNy)));
    const minutes = await nativeBars('/crypto/agg/BTCUSD/5/minute/2026-03-03/2026-03-03');
    const crypto = await rest.getCryptoAggregates('X:BTCUSD', 5, GetCryptoAggregatesTimespanEnum.Minute, '2026-03-03', '2026-03-03');
    expect(crypto.results as unknown).toEqual(vendorOf(minutes));
  });

  test('previous close, last trade and last quote equal the native values', async () => {
    const prev = await rest.getPreviousStocksAggregates('AAPL');
    const { v, ...bar } = (await server.json('/stocks/agg/US:AAPL/prev')).body.result;
    expect(prev.resultsCount).toBe(1);
    expect(prev.results?.[0] as unknown).toEqual({ T: 'AAPL', ...bar, t: nyMidnight(bar.t), ...(v === null ? {} : { v }) });
    const trade = await stableRead(() => server.json('/stocks/trade/last/US:AAPL').then((r) => r.body), () => rest.getLastStocksTrade('AAPL'));
    expect(trade.sdk.results).toMatchObject({ T: 'AAPL', p: trade.native.price, t: trade.native.timestamp * 1e6 });
    const quote = await stableRead(() => server.json('/stocks/quote/US:AAPL').then((r) => r.body), () => rest.getLastStocksQuote('AAPL'));
    expect(quote.sdk.results).toMatchObject({ T: 'AAPL', p: quote.native.bid, P: quote.native.ask });
  });

  test('a missing key is the vendor error, thrown by the SDK with status 401', async () => {
    const keyless = restClient('', `${server.base}/compat/massive`);
    const err = await keyless.getLastStocksTrade('AAPL').then(() => null, (e: unknown) => e as { response?: { status: number; data: { status: string } } });
    expect(err?.response?.status).toBe(401);
    expect(err?.response?.data.status).toBe('ERROR');
  });

  test('its crypto WebSocket streams XQ quotes from the live simulator', async () => {
    const ws = websocketClient(server.key, `${server.base.replace('http', 'ws')}/compat/massive`).crypto();
    try {
      const quote = await new Promise<{ ev: string; pair: string; bp: number; ap: number }>((resolve, reject) => {
        ws.onerror = () => reject(new Error('socket error'));
        ws.onmessage = ({ data }: { data: unknown }) => {
          for (const m of JSON.parse(String(data)) as { ev: string; status?: string; pair: string; bp: number; ap: number }[]) {
            if (m.ev === 'status' && m.status === 'auth_success') ws.send(JSON.stringify({ action: 'subscribe', params: 'XQ.BTC-USD' }));
            if (m.ev === 'status' && m.status === 'auth_failed') reject(new Error('auth failed'));
            if (m.ev === 'XQ') resolve(m);
          }
        };
      });
      expect(quote.pair).toBe('BTC-USD');
      expect(quote.ap).toBeGreaterThan(quote.bp);
    } finally {
      ws.close();
    }
  });
});
