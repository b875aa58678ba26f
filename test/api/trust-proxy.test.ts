// Behind a reverse proxy every client arrives from the proxy's address: with `--trust-proxy` the
// per-address limits (keyless and wrong-key calls, stream connection attempts) count the address the
// proxy forwarded in X-Forwarded-For, so one client's refusals do not spend another's; without it
// the header is ignored (any client can send it). Here the test client is the "proxy" on loopback.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ANONYMOUS_PER_MINUTE } from '../../src/auth/authenticator.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { connectVendor } from '../support/vendor-ws.ts';

let trusting: TestServer;
let plain: TestServer;

beforeAll(async () => {
  [trusting, plain] = await Promise.all([startServer({ args: ['--feed', 'none', '--trust-proxy', 'loopback'] }), startServer({ args: ['--feed', 'none'] })]);
});
afterAll(async () => {
  await Promise.all([trusting.stop(), plain.stop()]);
});

/** A call without a key from `client`, as a proxy forwards it. */
const keyless = (server: TestServer, path: string, client: string) => server.get(path, { key: null, headers: { 'x-forwarded-for': client } });

/** Spends `client`'s keyless limit; the next keyless call from it is refused with 429. */
async function spend(server: TestServer, client: string): Promise<void> {
  for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) expect((await keyless(server, '/crypto/quote/BTCUSD', client)).status).toBe(401);
  expect((await keyless(server, '/crypto/quote/BTCUSD', client)).status).toBe(429);
}

/** The HTTP status a WebSocket handshake without a key gets from `client`. */
async function upgradeStatus(server: TestServer, client: string): Promise<number> {
  const res = await fetch(`${server.base}/`, { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13', 'x-forwarded-for': client } });
  await res.arrayBuffer();
  return res.status;
}

/** A wrong key in a Massive-dialect stream's auth frame (checked after the upgrade) from `client`: the dialect's reply. */
async function dialectWrongKey(server: TestServer, client: string): Promise<{ message: string }> {
  await using c = await connectVendor(`${server.base.replace('http', 'ws')}/compat/massive/stocks`, { headers: { 'x-forwarded-for': client } });
  expect(await c.next()).toMatchObject({ status: 'connected' });
  c.send({ action: 'auth', params: 'not-a-key-0000' });
  const reply = await c.next((e) => e.status === 'auth_failed');
  return { message: reply.message };
}

describe('--trust-proxy', () => {
  test('each forwarded client has its own keyless limit, on REST and on the stream', async () => {
    await spend(trusting, '198.51.100.7');
    // Another client behind the same proxy: its own limit, a plain 401.
    expect((await keyless(trusting, '/crypto/quote/BTCUSD', '198.51.100.8')).status).toBe(401);
    // The stream's handshake counts the same client against the same limit.
    expect(await upgradeStatus(trusting, '198.51.100.7')).toBe(429);
    expect(await upgradeStatus(trusting, '198.51.100.9')).toBe(401);
    // A forged first entry does not move a client to a fresh limit: the proxy appends what it saw.
    expect((await keyless(trusting, '/crypto/quote/BTCUSD', '203.0.113.1, 198.51.100.7')).status).toBe(429);
    expect(trusting.logs.some((l) => l.includes('per-address limits read X-Forwarded-For from the proxies loopback (--trust-proxy)'))).toBe(true);
  });

  test("a compatibility dialect's stream, whose key comes after the upgrade, counts the forwarded client too", async () => {
    await spend(trusting, '198.51.100.20');
    expect((await dialectWrongKey(trusting, '198.51.100.20')).message).toBe('authentication failed: rate limit exceeded');
    expect((await dialectWrongKey(trusting, '198.51.100.21')).message).toBe('authentication failed: invalid API key');
  });

  test('without it, X-Forwarded-For is ignored: every caller from one address shares its limit', async () => {
    await spend(plain, '198.51.100.7');
    expect((await keyless(plain, '/crypto/quote/BTCUSD', '198.51.100.8')).status).toBe(429);
    expect(await upgradeStatus(plain, '198.51.100.9')).toBe(429);
    expect((await dialectWrongKey(plain, '198.51.100.10')).message).toBe('authentication failed: rate limit exceeded');
    expect(plain.logs.some((l) => l.includes('X-Forwarded-For'))).toBe(false);
  });
});
