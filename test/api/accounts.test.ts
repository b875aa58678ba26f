// Accounts over real HTTP and the real `mds keys` CLI: 401/403/429, headers, quota exactness
// under concurrency and across a restart, list filtering, stream entitlements, keys never logged.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, WEDNESDAY_US_OPEN, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';
import { until } from '../support/cli.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');

/** Runs the real `mds keys` command; returns its exit code and output. */
async function keys(dataDir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, 'keys', ...args, '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

async function createKey(dataDir: string, ...args: string[]): Promise<{ id: string; key: string }> {
  const r = await keys(dataDir, 'create', '--json', ...args);
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}


let server: TestServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-acct-'));
  server = await startServer({ dataDir });
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('keys', () => {
  test('create → use → revoke → 401, while the server runs', async () => {
    const { id, key } = await createKey(dataDir, '--plan', 'free', '--name', 'round trip');
    expect(key).toStartWith('mds_');
    await until(async () => (await server.get('/crypto/quote/BTCUSD', { key })).status === 200, 'the new key to work');
    const listed = await keys(dataDir, 'list', '--json');
    expect(JSON.parse(listed.out).find((k: { id: string }) => k.id === id)).toMatchObject({ id, plan: 'free', name: 'round trip', markets: ['US'], revoked: null });
    expect(listed.out).not.toContain(key);
    expect((await keys(dataDir, 'revoke', id)).code).toBe(0);
    await until(async () => (await server.get('/crypto/quote/BTCUSD', { key })).status === 401, 'the revoked key to fail');
    const res = await server.get('/crypto/quote/BTCUSD', { key });
    expect(((await res.json()) as { error: string }).error).toBe('API key revoked');
  });

  test('the CLI refuses unknown plans, markets and add-ons the plan does not offer, with exit code 2', async () => {
    for (const args of [['--plan', 'gold'], ['--plan', 'free', '--markets', 'XX'], ['--plan', 'free', '--addons', 'fundamentals'], ['--plan', 'pro', '--addons', 'astrology']]) {
      const r = await keys(dataDir, 'create', ...args);
      expect(r.code).toBe(2);
      expect(r.err).toStartWith('mds: --');
    }
  });

  test('401 messages: missing, unknown', async () => {
    expect(((await (await server.get('/crypto/quote/BTCUSD', { key: null })).json()) as { error: string }).error).toStartWith('missing API key');
    expect(((await (await server.get('/crypto/quote/BTCUSD', { key: 'mds_not_a_real_key_000000' })).json()) as { error: string }).error).toBe('invalid API key');
  });

  test('the key works as ?apiKey=, and the header wins over the query parameter', async () => {
    const { key } = await createKey(dataDir, '--plan', 'free');
    await until(async () => (await server.get(`/crypto/quote/BTCUSD?apiKey=${key}`, { key: null })).status === 200, 'the query key');
    expect((await server.get(`/crypto/quote/BTCUSD?apiKey=${key}`, { key: 'wrong-header-key' })).status).toBe(401);
    expect(server.logs.join('\n')).not.toContain(key);
  });
});

describe('entitlements', () => {
  let free: string;
  beforeAll(async () => {
    free = (await createKey(dataDir, '--plan', 'free', '--markets', 'US')).key;
    await until(async () => (await server.get('/crypto/symbols', { key: free })).status === 200, 'the key');
  });

  test('an asset class outside the plan is a 403 naming the class and plan', async () => {
    const res = await server.get('/indices/quote/US500', { key: free });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('asset class indices is not included in the free plan');
    expect(res.headers.get('x-ratelimit-limit')).toBe('3000');
  });

  test('a stocks market not enabled on the account is a 403; the list shows only enabled markets', async () => {
    const res = await server.get('/stocks/quote/DE:SAP', { key: free });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('market DE is not included in the free plan');
    const list = (await (await server.get('/stocks/symbols', { key: free })).json()) as { symbols: { market: string }[] };
    expect(list.symbols.length).toBeGreaterThan(10);
    expect(list.symbols.every((s) => s.market === 'US')).toBe(true);
    expect((await server.get('/stocks/symbols?market=DE', { key: free })).status).toBe(403);
    expect((await server.get('/stocks/quote/US:AAPL', { key: free })).status).toBe(200);
  });

  test('the stream refuses channels and markets outside the plan with a forbidden error frame', async () => {
    await using c = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${free}`);
    const ready = await c.next((m) => m.type === 'ready');
    expect(ready.limits).toMatchObject({ max_connections: 2, max_subscriptions: 50 });
    c.send({ action: 'subscribe', channels: ['indices.quotes'], symbols: ['US500'] });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', message: 'asset class indices is not included in the free plan' });
    c.send({ action: 'subscribe', channels: ['stocks.quotes'], symbols: ['DE:SAP'] });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', message: 'market DE is not included in the free plan' });
    c.send({ action: 'subscribe', channels: ['stocks.quotes'], symbols: ['US:AAPL'] });
    expect((await c.next((m) => m.type === 'subscribed')).subscriptions).toEqual([{ channel: 'stocks.quotes', symbol: 'US:AAPL' }]);
  });
});

describe('stream upgrade refusals of a valid key', () => {
  const handshake = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };

  test("past the plan's connections (429) and with a bad format (400): the key's rate-limit headers, the refusal not counted", async () => {
    const { key } = await createKey(dataDir, '--plan', 'free');
    await until(async () => (await server.get('/crypto/symbols', { key })).status === 200, 'the new key');
    const counted = (await server.get('/crypto/symbols', { key })).headers;
    const remaining = Number(counted.get('x-ratelimit-remaining'));
    await using a = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${key}`);
    await using b = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${key}`);
    await Promise.all([a.next((m) => m.type === 'ready'), b.next((m) => m.type === 'ready')]);
    for (const [query, status] of [[`?apiKey=${key}`, 429], [`?apiKey=${key}&format=xml`, 400]] as const) {
      const res = await fetch(`${server.base}/${query}`, { headers: handshake });
      expect(res.status).toBe(status);
      expect([res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')]).toEqual(['3000', String(remaining)]);
      expect(res.headers.get('x-ratelimit-reset')).toBe(counted.get('x-ratelimit-reset'));
      expect(res.headers.get('x-request-id')).not.toBeNull();
    }
    expect((await server.get('/crypto/symbols', { key })).headers.get('x-ratelimit-remaining')).toBe(String(remaining - 1));
  });
});

describe('legacy symbol list', () => {
  const assets = async (key: string) => new Set(((await (await server.get('/symbols', { key })).json()) as { symbols: { asset: string }[] }).symbols.map((s) => s.asset));

  test("GET /symbols lists only the classes of the key's plan, never stocks", async () => {
    const { key } = await createKey(dataDir, '--plan', 'free');
    await until(async () => (await server.get('/symbols', { key })).status === 200, 'the key');
    expect(await assets(key)).toEqual(new Set(['crypto', 'forex']));
    expect(await assets(server.key)).toEqual(new Set(['commodities', 'crypto', 'etfs', 'forex', 'indices']));
  });
});

describe('rate-limit headers', () => {
  test('X-RateLimit-Reset is the end of the window that binds, in Unix seconds, on success and on errors', async () => {
    const { key } = await createKey(dataDir, '--plan', 'free');
    await until(async () => (await server.get('/crypto/symbols', { key })).status === 200, 'the key');
    const ok = await server.get('/crypto/quote/BTCUSD', { key });
    const err = await server.get('/crypto/quote/NOPEUSD', { key });
    expect(err.status).toBe(404);
    const resets = [ok, err].map((r) => r.headers.get('x-ratelimit-reset'));
    expect(resets[0]).toMatch(/^\d+$/);
    expect(resets[1]).toBe(resets[0]);
    // The free plan's 30-day window, counted from the key's creation, ends after the server's now.
    const serverNowS = Date.parse(WEDNESDAY_US_OPEN) / 1000;
    expect(Number(resets[0])).toBeGreaterThan(serverNowS);
    expect(Number(resets[0])).toBeLessThanOrEqual(serverNowS + 30 * 86_400 + 3600);
    // The development key's binding window is the minute.
    const dev = Number((await server.get('/crypto/quote/BTCUSD')).headers.get('x-ratelimit-reset'));
    expect(dev % 60).toBe(0);
  });
});

describe('quota', () => {
  test('3,500 concurrent calls on a fresh free key: exactly 3,000 succeed and 500 get 429; a restart does not refill it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-quota-'));
    try {
      const { key } = await createKey(dir, '--plan', 'free');
      let own = await startServer({ dataDir: dir, args: ['--feed', 'none'] });
      const statuses = await Promise.all(Array.from({ length: 3500 }, () => own.get('/crypto/symbols', { key }).then(async (r) => (await r.arrayBuffer(), r.status))));
      expect(statuses.filter((s) => s === 200).length).toBe(3000);
      expect(statuses.filter((s) => s === 429).length).toBe(500);
      const limited = await own.get('/crypto/symbols', { key });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(86_400);
      await own.stop();
      own = await startServer({ dataDir: dir, args: ['--feed', 'none'] });
      expect((await own.get('/crypto/symbols', { key })).status).toBe(429);
      await own.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a per-minute rate from a --plans file: 429 after N calls with minute headers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-rate-'));
    try {
      const plansFile = join(dir, 'plans.json');
      writeFileSync(plansFile, JSON.stringify({ plans: [{ name: 'tiny', description: 'test', classes: ['crypto'], quota: 1000, quota_window_days: 30, per_minute: 3, stream_connections: 1, stream_subscriptions: 5, addons: [] }] }));
      const { key } = await createKey(dir, '--plan', 'tiny', '--plans', plansFile);
      await using own = await startServer({ dataDir: dir, args: ['--feed', 'none', '--plans', plansFile] });
      const seen: [number, string | null, string | null][] = [];
      for (let i = 0; i < 4; i++) {
        const r = await own.get('/crypto/symbols', { key });
        seen.push([r.status, r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining')]);
      }
      expect(seen).toEqual([[200, '3', '2'], [200, '3', '1'], [200, '3', '0'], [429, '3', '0']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an invalid --plans file stops the server with exit code 2 and says what is wrong', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-plans-'));
    try {
      writeFileSync(join(dir, 'plans.json'), JSON.stringify({ plans: [{ name: 'x', quota: -1 }] }));
      const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--feed', 'none', '--data-dir', dir, '--plans', join(dir, 'plans.json')], { stdout: 'pipe', stderr: 'pipe' });
      expect(await proc.exited).toBe(2);
      expect(await new Response(proc.stderr).text()).toContain('is not valid');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
