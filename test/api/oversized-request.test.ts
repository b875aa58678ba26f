// Requests too large for the HTTP parser: Bun refuses a request line plus headers over 16 KiB
// before any of mds runs, with a bare 431 (no JSON body, no X-RateLimit-* headers); below that
// limit an over-long URL is mds's own JSON 400. The README's error section states both.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--feed', 'none'] });
});
afterAll(() => server.stop());

describe('oversized requests', () => {
  test('a URL under the parser limit but over 2048 characters is a JSON 400 with the rate-limit headers', async () => {
    const res = await server.get(`/crypto/quote/BTCUSD?pad=${'a'.repeat(4_000)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 400, error: 'request URL too long: at most 2048 characters', request_id: res.headers.get('x-request-id')! });
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  });

  test.each([
    ['a URL over 16 KiB', { path: `/crypto/quote/BTCUSD?pad=${'a'.repeat(20_000)}`, headers: {} }],
    ['headers over 16 KiB', { path: '/crypto/quote/BTCUSD', headers: { 'x-pad': 'b'.repeat(20_000) } }],
  ])('%s gets the runtime’s bare 431: empty body, no rate-limit headers', async (_what, req) => {
    const res = await server.get(req.path, { headers: req.headers });
    expect(res.status).toBe(431);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(res.headers.get('x-request-id')).toBeNull();
  });

  test('the server answers normally after refusing them', async () => {
    expect((await server.get('/crypto/symbols')).status).toBe(200);
  });
});
