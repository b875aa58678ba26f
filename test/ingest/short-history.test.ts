// A first start with a short 1-minute history on a day a market is closed: the history still
// reaches back to each instrument's last session, so its quote, last trade and snapshot resolve
// at once (Monday 2026-11-23 is a Tokyo holiday; the last JP session is Friday 2026-11-20).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--clock-start', '2026-11-23T10:00:00Z', '--history-days', '1', '--history-years', '0'] });
});
afterAll(() => server.stop());

const FRIDAY_JP_SESSION = [Date.parse('2026-11-20T00:00:00Z'), Date.parse('2026-11-20T06:30:00Z')] as const;

describe('first start with --history-days 1 on a Tokyo holiday', () => {
  test.each(['/stocks/quote/JP:7203', '/indices/quote/JP225'])('%s serves the closing book of the last session', async (path) => {
    const { status, body } = await server.json(path);
    expect(status).toBe(200);
    expect(body.timestamp).toBeGreaterThanOrEqual(FRIDAY_JP_SESSION[0]);
    expect(body.timestamp).toBeLessThan(FRIDAY_JP_SESSION[1]);
  });

  test.each(['/stocks/trade/last/JP:7203', '/indices/trade/last/JP225'])('%s resolves', async (path) => {
    const { status, body } = await server.json(path);
    expect(status).toBe(200);
    expect(body.price).toBeGreaterThan(0);
  });

  test('the 1-minute bars of the last session are there and end at its close', async () => {
    const { status, body } = await server.json('/stocks/agg/JP:7203/1/minute/2026-11-20/2026-11-20?limit=1');
    expect(status).toBe(200);
    expect(body.results[0].t).toBe(FRIDAY_JP_SESSION[1] - 60_000);
  });
});
