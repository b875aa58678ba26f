// Requests without a valid key are limited per client address, 120 per minute, by one limiter that
// REST and the stream's upgrade share: a flood of guessed keys gets 429s on either.
import { describe, expect, test } from 'bun:test';
import { startServer } from '../support/server.ts';

const HANDSHAKE = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };

describe('keyless limit per client address', () => {
  test('REST: 120 guessed keys get 401 with the limit counting down, the 121st a 429 with Retry-After', async () => {
    await using server = await startServer({ args: ['--feed', 'none'] });
    const seen: [number, string | null][] = [];
    for (let i = 0; i < 121; i++) {
      const res = await server.get('/crypto/quote/BTCUSD', { key: `guess-${i}-0000` });
      seen.push([res.status, res.headers.get('x-ratelimit-remaining')]);
      await res.arrayBuffer();
    }
    expect(seen.slice(0, 2)).toEqual([[401, '119'], [401, '118']]);
    expect(seen.at(-2)).toEqual([401, '0']);
    const last = await server.get('/crypto/quote/BTCUSD', { key: null });
    expect(last.status).toBe(429);
    expect(last.headers.get('x-ratelimit-limit')).toBe('120');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(seen.at(-1)![0]).toBe(429);
    // A valid key is not limited by the address's keyless budget.
    expect((await server.get('/crypto/symbols')).status).toBe(200);
  });

  test('REST and stream upgrades share one budget: guesses on either exhaust both', async () => {
    await using server = await startServer({ args: ['--feed', 'none'] });
    for (let i = 0; i < 60; i++) await (await server.get('/crypto/quote/BTCUSD', { key: `guess-${i}-0000` })).arrayBuffer();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await fetch(`${server.base}/?apiKey=guess-ws-${i}-0000`, { headers: HANDSHAKE });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses[60]).toBe(429);
    const refused = await fetch(`${server.base}/?apiKey=guess-ws-last-0000`, { headers: HANDSHAKE });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await server.get('/crypto/quote/BTCUSD', { key: 'guess-rest-again-0000' })).status).toBe(429);
  });
});
