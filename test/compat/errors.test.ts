// The compatibility routes refuse as their vendors document: missing and bad keys, an unknown or
// malformed ticker, an unsupported timespan or timeframe, a class outside the plan and the rate
// limit, each in the vendor's status and body, through the same keys, plans and limits as mds.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { restClient } from '@massive.com/client-js';
import { errors, marketData } from '@alpacahq/alpaca-trade-api';
import { startServer, type TestServer } from '../support/server.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');
const M = '/compat/massive';
const A = '/compat/alpaca';

/** A key on a plan from a plans file, made with the real `mds keys` command. */
async function createKey(dataDir: string, plansFile: string, plan: string): Promise<string> {
  const proc = Bun.spawn([process.execPath, MAIN, 'keys', 'create', '--json', '--plan', plan, '--plans', plansFile, '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe' });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return JSON.parse(out).key;
}

let server: TestServer;
let dir: string;
/** Crypto only, three calls a minute: one key per vendor, so each test has its own minute. */
let tinyKey: string;
let tinyAlpacaKey: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mds-compat-'));
  const plansFile = join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ plans: [
    { name: 'tiny', description: 'test', classes: ['crypto'], quota: 1000, quota_window_days: 30, per_minute: 3, stream_connections: 1, stream_subscriptions: 5, addons: [] },
    { name: 'pro', description: 'test', classes: ['crypto', 'forex', 'stocks', 'indices'], quota: 100000, quota_window_days: 30, per_minute: null, stream_connections: 1, stream_subscriptions: 5, addons: [] },
  ] }));
  tinyKey = await createKey(dir, plansFile, 'tiny');
  tinyAlpacaKey = await createKey(dir, plansFile, 'tiny');
  server = await startServer({ dataDir: dir, args: ['--plans', plansFile] });
  // Two CLI runs and a server start: longer than the default hook timeout on a busy machine.
}, 60_000);
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; requestId: string | null; retryAfter?: string | null }> {
  const res = await fetch(server.base + path, { headers });
  const out = { status: res.status, body: await res.json(), requestId: res.headers.get('x-request-id') };
  return res.status === 429 ? { ...out, retryAfter: res.headers.get('retry-after') } : out;
}

describe('Massive errors', () => {
  test('no key: 401 ERROR "API Key was not provided"; an unknown key: 401 "Unknown API Key"', async () => {
    const missing = await raw(`${M}/v2/last/trade/AAPL`);
    expect(missing).toEqual({ status: 401, body: { status: 'ERROR', request_id: missing.requestId, error: 'API Key was not provided' }, requestId: missing.requestId });
    const unknown = await raw(`${M}/v2/last/trade/AAPL?apiKey=nope-0123456789`);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 401, body: { status: 'ERROR', request_id: unknown.requestId, error: 'Unknown API Key' } });
  });

  test('the SDK sees the 401 as an axios error with the vendor body', async () => {
    const rest = restClient('wrong-key-0123456789', server.base + M);
    const error = await rest.getLastStocksTrade({ stocksTicker: 'AAPL' }).then(() => null, (e) => e);
    expect(error.response.status).toBe(401);
    expect(error.response.data).toMatchObject({ status: 'ERROR', error: 'Unknown API Key' });
  });

  test('Authorization: Bearer takes the key as well as ?apiKey=', async () => {
    const res = await raw(`${M}/v1/marketstatus/now`, { authorization: `Bearer ${server.key}` });
    expect(res.status).toBe(200);
  });

  test('an unknown ticker: aggregates answer an empty OK, last trade and snapshot a 404 NOT_FOUND', async () => {
    const aggs = await raw(`${M}/v2/aggs/ticker/NOPEXYZ/range/1/day/2026-03-02/2026-03-03?apiKey=${server.key}`);
    expect(aggs).toEqual({ status: 200, body: { ticker: 'NOPEXYZ', queryCount: 0, resultsCount: 0, adjusted: true, status: 'OK', request_id: aggs.requestId }, requestId: aggs.requestId });
    for (const path of ['/v2/last/trade/NOPEXYZ', '/v2/last/nbbo/NOPEXYZ', '/v2/snapshot/locale/us/markets/stocks/tickers/NOPEXYZ', '/v2/snapshot/locale/global/markets/crypto/tickers/X:NOPEUSD', '/v2/last/trade/O:AAPL260320C00150000']) {
      const res = await raw(`${M}${path}?apiKey=${server.key}`);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { status: 'NOT_FOUND', request_id: res.requestId, message: 'unknown symbol' } });
    }
  });

  test('a bad or unsupported timespan, and a bad window, are 400 ERROR saying what is allowed', async () => {
    const bad = await raw(`${M}/v2/aggs/ticker/AAPL/range/1/fortnight/2026-03-02/2026-03-03?apiKey=${server.key}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: 'ERROR', request_id: bad.requestId, error: 'invalid timespan "fortnight": allowed values are second, minute, hour, day, week, month, quarter, year' });
    const week = await raw(`${M}/v2/aggs/ticker/AAPL/range/1/week/2026-03-02/2026-03-03?apiKey=${server.key}`);
    expect(week.status).toBe(400);
    expect(week.body.error).toContain('this server has bars of 1/minute, 5/minute, 15/minute, 1/hour, 4/hour, 1/day');
    const backwards = await raw(`${M}/v2/aggs/ticker/AAPL/range/1/day/2026-03-03/2026-03-02?apiKey=${server.key}`);
    expect({ status: backwards.status, shape: backwards.body.status }).toEqual({ status: 400, shape: 'ERROR' });
  });

  test('a class outside the plan is 403 NOT_AUTHORIZED; past the per-minute rate, 429 ERROR with Retry-After', async () => {
    const denied = await raw(`${M}/v2/last/trade/AAPL?apiKey=${tinyKey}`);
    expect(denied).toEqual({ status: 403, body: { status: 'NOT_AUTHORIZED', request_id: denied.requestId, message: 'You are not entitled to this data: asset class stocks is not included in the tiny plan' }, requestId: denied.requestId });
    let last = denied;
    for (let i = 0; i < 3 && last.status !== 429; i++) last = await raw(`${M}/v1/last/crypto/BTC/USD?apiKey=${tinyKey}`);
    expect(last.status).toBe(429);
    expect(last.body).toEqual({ status: 'ERROR', request_id: last.requestId, error: expect.stringContaining("You've exceeded the maximum requests per minute") });
    expect(Number(last.retryAfter)).toBeGreaterThan(0);
  });

  test('an unknown path under the prefix is a 404 NOT_FOUND; a native path keeps the native body', async () => {
    const res = await raw(`${M}/v9/nothing?apiKey=${server.key}`);
    expect({ status: res.status, shape: res.body.status }).toEqual({ status: 404, shape: 'NOT_FOUND' });
    const native = await raw('/crypto/quote/NOPEXYZ', { 'x-api-key': server.key });
    expect(native.body).toEqual({ status: 404, error: 'unknown symbol', request_id: native.requestId });
  });
});

describe('Alpaca errors', () => {
  test('no key or a wrong key: 401 {"code":40110000}; the SDK throws its AuthError', async () => {
    const missing = await raw(`${A}/v2/stocks/AAPL/quotes/latest`);
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 401, body: { code: 40110000, message: 'request is not authorized' } });
    const api = new marketData.StockApi(new marketData.Configuration({ keyId: 'wrong-0123456789', secret: 'x', basePath: server.base + A, retry: { maxRetries: 0 } }));
    const error = await api.stockLatestQuoteSingle({ symbol: 'AAPL' }).then(() => null, (e) => e);
    expect(error).toBeInstanceOf(errors.AuthError);
    expect({ status: error.status, code: error.code }).toEqual({ status: 401, code: 40110000 });
  });

  test('a malformed symbol is 400 {"code":40010001}; an unknown one a 404 on one symbol, left out of lists', async () => {
    const key = { 'apca-api-key-id': server.key };
    const bad = await raw(`${A}/v2/stocks/AA$PL/quotes/latest`, key);
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: { code: 40010001, message: 'invalid symbol: AA$PL' } });
    const unknown = await raw(`${A}/v2/stocks/NOPEXYZ/trades/latest`, key);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: { code: 40410000, message: 'unknown symbol' } });
    const list = await raw(`${A}/v2/stocks/quotes/latest?symbols=NOPEXYZ,AAPL`, key);
    expect(Object.keys(list.body.quotes)).toEqual(['AAPL']);
    const none = await raw(`${A}/v2/stocks/bars?timeframe=1Day`, key);
    expect({ status: none.status, body: none.body }).toEqual({ status: 400, body: { code: 40010001, message: 'invalid symbol: symbols is required' } });
  });

  test('a bad timeframe is 422 {"code":42210000}; the SDK throws its ValidationError', async () => {
    const key = { 'apca-api-key-id': server.key };
    const bad = await raw(`${A}/v2/stocks/AAPL/bars?timeframe=1Fortnight`, key);
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 422, body: { code: 42210000, message: 'invalid timeframe' } });
    const api = new marketData.StockApi(new marketData.Configuration({ keyId: server.key, secret: 'x', basePath: server.base + A }));
    const error = await api.stockBarSingle({ symbol: 'AAPL', timeframe: '2Hour' }).then(() => null, (e) => e);
    expect(error).toBeInstanceOf(errors.ApiError);
    expect({ status: error.status, code: error.code }).toEqual({ status: 422, code: 42210000 });
  });

  test('a class outside the plan is 403 {"code":40310000}; past the rate, 429 {"code":42910000}', async () => {
    const key = { 'apca-api-key-id': tinyAlpacaKey };
    const denied = await raw(`${A}/v2/stocks/AAPL/quotes/latest`, key);
    expect({ status: denied.status, body: denied.body }).toEqual({ status: 403, body: { code: 40310000, message: 'asset class stocks is not included in the tiny plan' } });
    let last = denied;
    for (let i = 0; i < 4 && last.status !== 429; i++) last = await raw(`${A}/v1beta3/crypto/us/latest/trades?symbols=BTC/USD`, key);
    expect({ status: last.status, body: last.body }).toEqual({ status: 429, body: { code: 42910000, message: 'too many requests' } });
    expect(Number(last.retryAfter)).toBeGreaterThan(0);
  });
});
