// Key, headers and hostile input over real HTTP: every response carries the rate-limit headers
// and a request id; bad input is a clear 4xx, never a crash.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect as connectTcp } from 'node:net';
import { Value } from '@sinclair/typebox/value';
import { ErrorSchema } from '../../src/domain/schemas.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--rate-limit', '100000'] });
});
afterAll(() => server.stop());

function expectHeaders(res: Response) {
  expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(res.headers.get('x-request-id')).toBeTruthy();
}

describe('API key', () => {
  test('a missing key is a 401 that says where to send it', async () => {
    const res = await server.get('/crypto/quote/BTCUSD', { key: null });
    expect(res.status).toBe(401);
    const body = (await res.json()) as any;
    expect(body).toEqual({ status: 401, error: 'missing API key: send it in the x-api-key header or the apiKey query parameter', request_id: res.headers.get('x-request-id')! });
    expectHeaders(res);
  });

  test('a wrong key is a 401', async () => {
    const res = await server.get('/crypto/quote/BTCUSD', { key: 'wrong-key-123' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error).toBe('invalid API key');
    expectHeaders(res);
  });

  test('/health needs no key', async () => {
    const res = await server.get('/health', { key: null });
    expect(res.status).toBe(200);
    expect((await res.json()) as any).toMatchObject({ status: 'ok', version: '1.0.0', feed: 'sim' });
    expectHeaders(res);
  });
});

describe('headers', () => {
  test('/health counts against nothing; its headers say where the caller\'s keyless limit stands', async () => {
    const first = await server.get('/health', { key: null });
    const again = await server.get('/health', { key: null });
    expect(again.headers.get('x-ratelimit-remaining')).toBe(first.headers.get('x-ratelimit-remaining'));
    expect(first.headers.get('x-ratelimit-limit')).toBe('120');
    expect(first.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
    expect((await server.get('/crypto/quote/BTCUSD', { key: null })).status).toBe(401);
    const after = await server.get('/health', { key: null });
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
  });

  test('success and error responses carry X-RateLimit-*, and Remaining counts down', async () => {
    const a = await server.get('/crypto/quote/BTCUSD');
    const b = await server.get('/crypto/quote/NOPE');
    expectHeaders(a);
    expectHeaders(b);
    expect(a.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBeLessThan(Number(a.headers.get('x-ratelimit-remaining')));
  });

  test('the request id in the error body equals the X-Request-Id header, and ids differ per request', async () => {
    const [a, b] = await Promise.all([server.get('/forex/quote/NOPE12'), server.get('/forex/quote/NOPE12')]);
    const [ba, bb] = (await Promise.all([a.json(), b.json()])) as any[];
    expect(ba.request_id).toBe(a.headers.get('x-request-id')!);
    expect(ba.request_id).not.toBe(bb.request_id);
  });
});

describe('hostile and malformed input', () => {
  const cases = [
    '/crypto/quote/BTC%2FUSD',
    '/crypto/quote/%E2%82%AC%E2%82%AC',
    '/crypto/quote/BTC%00USD',
    '/crypto/quote/BTC%0AUSD',
    '/crypto/quote/..%2F..%2Fetc%2Fpasswd',
    `/crypto/quote/${'A'.repeat(300)}`,
    '/crypto/quote/%ZZ',
    '/stocks/quote/US:',
    '/stocks/quote/:AAPL',
    '/crypto/agg/BTCUSD/99999999999999999999/minute/2026-01-01/2026-01-02',
    '/crypto/agg/BTCUSD/1/minute/2026-01-01/9999999999-01-02',
    '/crypto/agg/BTCUSD/1/minute/2026-01-01/2026-01-02?limit=1e3',
    '/crypto/agg/BTCUSD/1/minute/2026-01-01/2026-01-02?offset=NaN',
    '/crypto/agg/BTCUSD/prev?interval=%00',
  ];
  test.each(cases)('%s → 400 with a JSON error body', async (path) => {
    const res = await server.get(path);
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(Value.Check(ErrorSchema, body)).toBe(true);
    expect(body.error.length).toBeGreaterThan(10);
    expectHeaders(res);
  });

  test('an over-long URL is a 400 that states the limit', async () => {
    const res = await server.get(`/crypto/quote/BTCUSD?x=${'a'.repeat(5000)}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toBe('request URL too long: at most 2048 characters');
  });

  test('an unknown route is a JSON 404; a non-GET method is a 405', async () => {
    const nf = await server.get('/crypto/nothing/here');
    expect(nf.status).toBe(404);
    expect(Value.Check(ErrorSchema, await nf.json())).toBe(true);
    const post = await server.get('/crypto/quote/BTCUSD', { method: 'POST' });
    expect(post.status).toBe(405);
    expectHeaders(post);
  });

  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is a 405 whose Allow header names GET, HEAD', async (method) => {
    const res = await server.get('/crypto/quote/BTCUSD', { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await res.json()) as any).toEqual({ status: 405, error: expect.any(String), request_id: res.headers.get('x-request-id')! });
    expectHeaders(res);
  });

  test.each(['/health', '/openapi.json', '/asyncapi.json', '/docs', '/docs/assets/docs.000000000000.css', '/console', '/console/', '/console/assets/main.000000000000.js'])('a non-GET method on the open path %s is a 405 too, not a 404', async (path) => {
    for (const method of ['POST', 'DELETE', 'OPTIONS']) {
      const res = await server.get(path, { method, key: null });
      expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({ method, status: 405, allow: 'GET, HEAD' });
      expect((await res.json()) as any).toEqual({ status: 405, error: 'method not allowed: the API is read-only and answers GET only', request_id: res.headers.get('x-request-id')! });
      expectHeaders(res);
    }
  });

  // What the Bun runtime's HTTP parser does before mds sees a request, as the README's Errors section says.
  test.each([
    ['an unknown method', 'FOO /crypto/quote/BTCUSD HTTP/1.1', ''],
    ['a lowercase method', 'get /crypto/quote/BTCUSD HTTP/1.1', ''],
    ['a request line without a path', 'GET  HTTP/1.1', 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'],
    ['an unknown HTTP version', 'GET /health HTTP/2.5', 'HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n'],
  ])('%s gets the runtime\'s answer: %p', async (_what, requestLine, answer) => {
    const sock = connectTcp(server.port, '127.0.0.1');
    let got = '';
    sock.on('data', (d) => (got += d));
    const ended = new Promise<void>((resolve) => sock.on('close', () => resolve()));
    sock.write(`${requestLine}\r\nHost: x\r\nx-api-key: ${server.key}\r\n\r\n`);
    await ended;
    expect(got).toBe(answer);
  });

  test('after a burst of garbage the server still answers normally', async () => {
    await Promise.all(cases.map((p) => server.get(p)));
    const res = await server.get('/crypto/quote/BTCUSD');
    expect(res.status).toBe(200);
  });
});

describe('rate limit', () => {
  test('past the per-minute limit: 429 with Retry-After, and the headers say 0 remain', async () => {
    await using small = await startServer({ args: ['--feed', 'none', '--rate-limit', '5'] });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await small.get('/crypto/symbols');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await last!.json()) as any).error).toBe('rate limit exceeded');
  });
});
