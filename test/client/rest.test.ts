// The REST client against a real server: every route of the table answers through its generated
// method (and through `get` by path) what a plain fetch of the same URL answers, and refusals are
// MdsErrors carrying the status, the body's message and request id, and Retry-After on 429.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ROUTE_TABLE } from '../../src/api/route-table/index.ts';
import { MdsClient, MdsError, type OperationId } from '../../client/src/index.ts';
import { startServer, type TestServer } from '../support/server.ts';

/** The arguments of an example URL under the row's template: path parameters and query, as text. */
function argsOf(template: string, example: string): Record<string, string> {
  const url = new URL(example, 'http://x');
  const names: string[] = [];
  const source = template.replace(/:([A-Za-z_]+)/g, (_, name: string) => (names.push(name), '([^/]+)'));
  const m = new RegExp(`^${source}$`).exec(url.pathname)!;
  return { ...Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(m[i + 1]!)])), ...Object.fromEntries(url.searchParams) };
}

type AnyCall = (args?: Record<string, string>) => Promise<unknown>;
const methodOf = (client: MdsClient, id: OperationId) => (client[id] as AnyCall).bind(client);

let server: TestServer;
let client: MdsClient;
beforeAll(async () => {
  server = await startServer();
  client = new MdsClient({ baseUrl: server.base, apiKey: server.key });
});
afterAll(async () => {
  await server[Symbol.asyncDispose]();
});

const examples = ROUTE_TABLE.flatMap((row) => row.examples.map((example) => ({ row, example })));

describe('REST methods', () => {
  // The simulator keeps moving: the client's answer is taken between two plain fetches and must equal
  // them when they agree (a few tries); a route whose answer changes on every call (health's ages)
  // must answer the same fields.
  test.each(examples)('$row.operationId($example) answers what a plain fetch answers', async ({ row, example }) => {
    const call = methodOf(client, row.operationId as OperationId);
    const args = argsOf(row.path, example);
    for (let attempt = 0; ; attempt++) {
      const before = (await server.json(example)).body;
      const got = await call(Object.keys(args).length > 0 ? args : undefined);
      const after = (await server.json(example)).body;
      if (Bun.deepEquals(before, after)) {
        expect(got).toEqual(before);
        return;
      }
      if (attempt === 4) {
        expect(Object.keys(got as object).sort()).toEqual(Object.keys(after).sort());
        return;
      }
    }
  });

  test('get by path template answers what the generated method answers', async () => {
    const byPath = await client.get('/crypto/agg/:symbol/:multiplier/:timespan/:from/:to', { symbol: 'BTCUSD', multiplier: 1, timespan: 'hour', from: '2026-03-03', to: '2026-03-04', limit: 5, sort: 'asc' });
    const byMethod = await client.getCryptoRange({ symbol: 'BTCUSD', multiplier: 1, timespan: 'hour', from: '2026-03-03', to: '2026-03-04', limit: 5, sort: 'asc' });
    expect(byPath).toEqual(byMethod);
    expect(byPath.results.length).toBe(5);
    expect((await client.get('/markets')).markets.map((m) => m.market)).toContain('US');
  });

  test('a symbol with a colon travels as the server expects (US:AAPL)', async () => {
    expect((await client.getStocksQuote({ symbol: 'US:AAPL' })).symbol).toBe('US:AAPL');
  });
});

describe('errors', () => {
  /** The MdsError a call rejects with, and the body and headers a plain fetch of the URL gets. */
  async function refusal(call: () => Promise<unknown>): Promise<MdsError> {
    const err = await call().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MdsError);
    return err as MdsError;
  }

  test('401 without a key: status, the body message and request id', async () => {
    const keyless = new MdsClient({ baseUrl: server.base });
    const err = await refusal(() => keyless.listAllSymbols());
    const raw = await server.get('/symbols', { key: null });
    const body = (await raw.json()) as { error: string; request_id: string };
    expect({ status: err.status, message: err.message, name: err.name }).toEqual({ status: 401, message: body.error, name: 'MdsError' });
    expect(err.requestId).toMatch(/\S/);
    expect(err.requestId).not.toBe(body.request_id);
    expect(err.body).toEqual({ ...body, request_id: err.requestId });
    expect(err.url).toBe(`${server.base}/symbols`);
  });

  test('404 unknown symbol and 400 bad parameter carry the messages of the error table', async () => {
    const notFound = await refusal(() => client.getCryptoQuote({ symbol: 'NOPEUSD' }));
    expect({ status: notFound.status, message: notFound.message, retryAfterSec: notFound.retryAfterSec }).toEqual({ status: 404, message: 'unknown symbol', retryAfterSec: null });
    const bad = await refusal(() => client.getCryptoPrevBar({ symbol: 'BTCUSD', interval: '2m' as '1m' }));
    const raw = (await server.json('/crypto/agg/BTCUSD/prev?interval=2m')).body as { error: string };
    expect({ status: bad.status, message: bad.message }).toEqual({ status: 400, message: raw.error });
  });

  test('429 carries Retry-After in seconds', async () => {
    // Its own server: the keyless limit (per address) is used up here.
    await using own = await startServer({ args: ['--feed', 'none'] });
    const guessing = new MdsClient({ baseUrl: own.base, apiKey: 'guessed-key-0000' });
    let err = await refusal(() => guessing.listMarkets());
    while (err.status === 401) err = await refusal(() => guessing.listMarkets());
    expect(err.status).toBe(429);
    expect(err.message).toBe('rate limit exceeded');
    expect(err.retryAfterSec).toBeGreaterThan(0);
  }, 30_000);
});
