// REST's unknown-symbol answers carry `did_you_mean` (in process, app.handle over a seeded
// registry): the spec's 404 message stays word for word, the 400s of malformed symbols keep
// theirs, the suggestions respect the account's stock markets, and a known symbol is untouched.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { ErrorSchema } from '../../src/domain/schemas.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const DEV_KEY = 'did-you-mean-dev-key';
const NOW = Date.UTC(2026, 2, 4, 15, 30);

let dir: TempDir;
let store: Store;
let app: ReturnType<typeof createApp>;
let deOnlyKey = '';

beforeAll(() => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  seedRegistry(store, ALL_INSTRUMENTS);
  const clock = new ManualClock(NOW);
  deOnlyKey = store.accounts.create({ name: 'de', plan: 'starter', markets: ['DE'], addons: [] }, NOW).secret;
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: DEV_KEY, devPerMinute: 1_000_000 });
  app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

async function get(path: string, key = DEV_KEY): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': key } }));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('did_you_mean in REST error bodies', () => {
  test.each([
    ['/crypto/quote/BTC-USD', 404, 'unknown symbol', ['BTCUSD']],
    ['/crypto/trade/last/btcusdt', 404, 'unknown symbol', ['BTCUSD']],
    ['/forex/snapshot/EUR_USD', 404, 'unknown symbol', ['EURUSD']],
    ['/commodities/quote/XAU-USD', 404, 'commodity symbol not supported', ['XAUUSD']],
    ['/perpetuals/mark/BTCUSD', 404, 'unknown symbol', ['BTCUSDT']],
    ['/indices/agg/DE30/1/day/2026-03-02/2026-03-04', 404, 'unknown symbol', ['DE40']],
    ['/etfs/quote/US500-ETF', 404, 'unknown symbol', ['US500ETF']],
    ['/stocks/quote/US:APPL', 404, 'unknown symbol', ['US:AAPL']],
    ['/coverage/crypto/ETH-USD', 404, 'unknown symbol', ['ETHUSD']],
  ])('%s → %i %p with %p', async (path, status, message, want) => {
    const { status: got, body } = await get(path);
    expect({ got, error: body.error, did_you_mean: body.did_you_mean }).toEqual({ got: status, error: message, did_you_mean: want });
    expect(Value.Check(ErrorSchema, body)).toBe(true);
  });

  test('malformed symbols keep their 400 message and gain the hint (plain ticker, separators, bond tenor)', async () => {
    const aapl = await get('/stocks/quote/AAPL');
    expect(aapl.status).toBe(400);
    expect(aapl.body.error).toContain('expected MARKET:BASE');
    expect(aapl.body.did_you_mean).toEqual(['US:AAPL']);
    const slash = await get('/commodities/quote/XAU%2FUSD');
    expect(slash.status).toBe(400);
    expect(slash.body.did_you_mean).toEqual(['XAUUSD']);
    const bond = await get('/bonds/yield/US10Y');
    expect(bond.status).toBe(400);
    expect(bond.body.error).toContain('expected COUNTRY:TENOR');
    expect(bond.body.did_you_mean).toEqual(['US:10Y']);
    const fundamentals = await get('/fundamentals/stocks/AAPL');
    expect(fundamentals.status).toBe(400);
    expect(fundamentals.body.did_you_mean).toEqual(['US:AAPL']);
  });

  test('no field when nothing is close; a known symbol answers as before', async () => {
    const none = await get('/crypto/quote/NOPEUSD');
    expect(none).toEqual({ status: 404, body: { status: 404, error: 'unknown symbol', request_id: expect.any(String) } });
    expect((await get('/crypto/symbols')).status).toBe(200);
    const known = await get('/bonds/yield/US:10Y');
    expect(known.body.did_you_mean).toBeUndefined();
  });

  test('stock suggestions stay inside the markets enabled on the account', async () => {
    const us = await get('/stocks/quote/SAP');
    expect(us.body.did_you_mean).toEqual(['US:SAP', 'DE:SAP']);
    const de = await get('/stocks/quote/SAP', deOnlyKey);
    expect(de.body.did_you_mean).toEqual(['DE:SAP']);
    const aapl = await get('/stocks/quote/AAPL', deOnlyKey);
    expect(aapl.body.did_you_mean).toBeUndefined();
  });
});
