// The stream and the keys, over a real server and the real `mds keys` CLI: the upgrade reads the
// key as REST does (header first) and answers refusals like REST; key changes reach open
// connections (revoked: closed with 4001; entitlements narrowed: pairs dropped and named).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../support/server.ts';
import { createKeyOn, runMds, until } from '../support/cli.ts';
import { connect } from '../support/ws-client.ts';

const HANDSHAKE = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };

let server: TestServer;
let wsBase: string;
beforeAll(async () => {
  server = await startServer();
  wsBase = server.base.replace('http', 'ws');
});
afterAll(() => server.stop());

const createKey = (...args: string[]) => createKeyOn(server, ...args);

describe('upgrade', () => {
  test('the x-api-key header wins over ?apiKey=, as on REST', async () => {
    const wrongHeader = await fetch(`${server.base}/?apiKey=${server.key}`, { headers: { ...HANDSHAKE, 'x-api-key': 'wrong-key-000' } });
    expect(wrongHeader.status).toBe(401);
    const rightHeader = await fetch(`${server.base}/?apiKey=wrong-key-000`, { headers: { ...HANDSHAKE, 'x-api-key': server.key } });
    expect(rightHeader.status).toBe(101);
  });

  test('a refused upgrade carries X-Request-Id (equal to the body request_id) and the X-RateLimit-* of the keyless limit', async () => {
    const res = await fetch(`${server.base}/?apiKey=wrong-key-000`, { headers: HANDSHAKE });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { request_id: string };
    expect(res.headers.get('x-request-id')).toBe(body.request_id);
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(120);
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  });

  test('a browser (a handshake with Origin) with a bad key gets the error as a frame and close code 4001', async () => {
    const ws = new WebSocket(`${wsBase}/?apiKey=wrong-key-000`, { headers: { origin: 'http://dashboard.example' } } as unknown as string[]);
    const frames: unknown[] = [];
    ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)));
    const closed = await new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
    expect(frames).toEqual([{ type: 'error', code: 'unauthorized', message: 'invalid API key' }]);
    expect(closed.code).toBe(4001);
    expect(closed.reason).toBe('invalid API key');
  });

  test('a browser without a key is told where to put it, in the frame and the close reason', async () => {
    const ws = new WebSocket(`${wsBase}/`, { headers: { origin: 'http://dashboard.example' } } as unknown as string[]);
    const frames: { message?: string }[] = [];
    ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)));
    const closed = await new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
    expect(closed.code).toBe(4001);
    expect(frames[0]?.message).toStartWith('missing API key');
    expect(closed.reason).toStartWith('missing API key');
  });

  test('a revoked key is refused with 401 "API key revoked"', async () => {
    const { id, key } = await createKey('--plan', 'free');
    expect((await runMds('keys', 'revoke', id, '--data-dir', server.dataDir)).code).toBe(0);
    await until(async () => (await server.get('/crypto/symbols', { key })).status === 401, 'the revocation');
    const res = await fetch(`${server.base}/?apiKey=${key}`, { headers: HANDSHAKE });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('API key revoked');
  });

  test("the ready frame lists only the channels of the key's plan", async () => {
    const { key } = await createKey('--plan', 'free');
    await using c = await connect(`${wsBase}/?apiKey=${key}`);
    const ready = await c.next((m) => m.type === 'ready');
    expect(ready.channels).toEqual(['crypto.quotes', 'crypto.trades', 'forex.quotes', 'forex.trades', 'stocks.quotes', 'stocks.trades']);
  });
});

describe('key changes reach open connections', () => {
  test('revoking a key closes its open connections with 4001 "API key revoked"; the log names the key id, never the secret', async () => {
    const { id, key } = await createKey('--plan', 'free');
    await using c = await connect(`${wsBase}/?apiKey=${key}`);
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    await c.next((m) => m.type === 'subscribed');
    expect((await runMds('keys', 'revoke', id, '--data-dir', server.dataDir)).code).toBe(0);
    expect(await c.closed).toEqual({ code: 4001, reason: 'API key revoked' });
    const logged = server.logs.join('\n');
    expect(logged).toContain(`(key ${id}): API key revoked`);
    expect(logged).not.toContain(key);
  });

  test('a plan change drops the pairs the key may no longer use and says which and why; the others keep flowing', async () => {
    const { id, key } = await createKey('--plan', 'free');
    await using c = await connect(`${wsBase}/?apiKey=${key}`);
    c.send({ action: 'subscribe', channels: ['forex.quotes'], symbols: ['EURUSD'] });
    await c.next((m) => m.type === 'subscribed');
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    await c.next((m) => m.type === 'subscribed');
    expect((await runMds('keys', 'update', id, '--plan', 'perpetuals', '--data-dir', server.dataDir)).code).toBe(0);
    expect(await c.next((m) => m.type === 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      reason: 'entitlements changed',
      dropped: [{ channel: 'forex.quotes', symbol: 'EURUSD', message: 'asset class forex is not included in the perpetuals plan' }],
      subscriptions: [{ channel: 'crypto.quotes', symbol: 'BTCUSD' }],
    });
    c.messages.length = 0;
    for (let i = 0; i < 5; i++) expect((await c.next((m) => m.type === 'quote')).symbol).toBe('BTCUSD');
  });
});
