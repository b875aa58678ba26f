// A key's stream budget holds across its connections and reconnects: client frames per 10 s and
// upgrade attempts per minute, as its plan sets them; keyless and wrong-key attempts are limited
// per address. Real WebSocket clients against a real stream server on a manual clock, which the
// tests move to end a window (never a sleep).
import { describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { ManualClock } from '../../src/clock.ts';
import { ANONYMOUS_PER_MINUTE, Authenticator } from '../../src/auth/authenticator.ts';
import { StreamBudgets } from '../../src/auth/stream-budget.ts';
import { BUILT_IN_PLANS, parsePlans, streamBudgetOf, type Plan } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { CLOSE_FLOOD, createStream, type ConnData } from '../../src/stream/connections.ts';
import { StreamHub } from '../../src/stream/hub.ts';
import { compatStreamRoutes } from '../../src/stream/compat/routes.ts';
import { tempDir } from '../support/temp-dir.ts';
import { connect, type WsClient } from '../support/ws-client.ts';
import { connectVendor } from '../support/vendor-ws.ts';

const HANDSHAKE = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };
const FREE = BUILT_IN_PLANS.find((p) => p.name === 'free')!;
/** A plan with small budgets of its own, and one from an older plans file without them (the defaults apply). */
const TINY: Plan = { ...FREE, name: 'tiny', stream_connections: 5, stream_frames_per_10s: 5, stream_connects_per_minute: 3 };
const OLD: Plan = { name: 'old', description: 'a plans file written before stream budgets', classes: ['crypto'], quota: 1000, quota_window_days: 30, per_minute: null, stream_connections: 2, stream_subscriptions: 10, addons: [] };
const SUBSCRIBE = { action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] };

/** A stream server whose refusals for a spent budget are answered at once, unless `overBudgetDelayMs` says otherwise. */
async function budgetServer(overBudgetDelayMs = 0) {
  const dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  const clock = new ManualClock(Date.parse('2026-03-04T15:30:00Z'));
  const hub = new StreamHub(clock);
  const auth = new Authenticator({ store, clock, plans: [...BUILT_IN_PLANS, TINY, OLD], devKey: null, devPerMinute: 1000 });
  const stream = createStream({ store, clock, hub, auth, limits: { overBudgetDelayMs } });
  const dialects = compatStreamRoutes(hub, stream, () => new Response('not found', { status: 404 }));
  const server = Bun.serve<ConnData>({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req, srv) => {
      const dialect = dialects[new URL(req.url).pathname];
      return dialect ? dialect(req, srv) : stream.upgrade(req, srv);
    },
    websocket: stream.websocket,
  });
  hub.attach(server as unknown as Server<unknown>);
  const keyOf = (plan: string) => store.accounts.create({ name: plan, plan, markets: ['*'], addons: [] }, clock.nowMs()).secret;
  const http = `http://127.0.0.1:${server.port}`;
  return {
    clock,
    stream,
    keyOf,
    url: (key: string) => `ws://127.0.0.1:${server.port}/?apiKey=${key}`,
    massiveUrl: `ws://127.0.0.1:${server.port}/compat/massive/stocks`,
    /** An upgrade attempt over HTTP (a script's handshake): its status, headers and body. */
    async attempt(key: string | null, headers: Record<string, string> = {}) {
      const res = await fetch(key === null ? `${http}/` : `${http}/?apiKey=${key}`, { headers: { ...HANDSHAKE, ...headers } });
      return { status: res.status, headers: res.headers, body: res.status === 101 ? null : ((await res.json()) as { error: string }) };
    },
    async [Symbol.asyncDispose]() {
      stream.stop();
      await server.stop(true);
      await store.close();
      dir[Symbol.dispose]();
    },
  };
}

/** Sends `n` subscribe frames one after another, each answered before the next. */
async function acked(c: WsClient, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    c.send(SUBSCRIBE);
    await c.next((m) => m.type === 'subscribed');
  }
}

async function ready(url: string): Promise<WsClient> {
  const c = await connect(url);
  await c.next((m) => m.type === 'ready');
  return c;
}

describe('frames per key', () => {
  test("a key's frames are counted over all its connections: the one past the plan's 100 per 10 s is closed with 4029", async () => {
    await using s = await budgetServer();
    const key = s.keyOf('free');
    await using a = await ready(s.url(key));
    await using b = await ready(s.url(key));
    await acked(a, 60);
    await acked(b, 40);
    b.send(SUBSCRIBE);
    expect(await b.next((m) => m.type === 'error')).toEqual({ type: 'error', code: 'rate_limited', message: 'more than 100 frames in 10 seconds from this key over all its connections (its plan free): closing; new connections are refused for 10 s' });
    expect(await b.closed).toEqual({ code: CLOSE_FLOOD, reason: 'too many frames for this key' });
    // Each connection sent far fewer than the per-connection 100: only the key's count closed it.
    a.send(SUBSCRIBE);
    expect((await a.next((m) => m.type === 'error')).code).toBe('rate_limited');
    expect((await a.closed).code).toBe(CLOSE_FLOOD);
  });

  test('reconnecting does not reset the count; new connections get 429 with Retry-After until the window ends', async () => {
    await using s = await budgetServer();
    const key = s.keyOf('free');
    {
      await using first = await ready(s.url(key));
      await acked(first, 90);
    }
    await using second = await ready(s.url(key));
    await acked(second, 10);
    s.clock.advance(4_000);
    second.send(SUBSCRIBE);
    expect((await second.closed).code).toBe(CLOSE_FLOOD);
    const refused = await s.attempt(key);
    expect(refused.status).toBe(429);
    expect(refused.body!.error).toBe('this key has used its stream frames: at most 100 client frames per 10 s over all its connections on its plan (free); retry in 6 s');
    expect(refused.headers.get('retry-after')).toBe('6');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('100');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((s.clock.nowMs() + 6_000) / 1000));
    // The window ends: the key may connect and send again.
    s.clock.advance(6_000);
    await using third = await ready(s.url(key));
    await acked(third, 100);
  });

  test('a frame longer than the key could need is refused unread, and the connection goes on', async () => {
    await using s = await budgetServer();
    await using c = await ready(s.url(s.keyOf('free')));
    // The free plan holds 50 pairs: 1,024 + 128 × 50 = 7,424 characters at most.
    const long = JSON.stringify({ ...SUBSCRIBE, symbols: Array.from({ length: 1000 }, (_, i) => `SYMBOL-${i}`) });
    c.send(long);
    expect(await c.next((m) => m.type === 'error')).toEqual({ type: 'error', code: 'bad_frame', message: `frame of ${long.length} characters refused unread: at most 7424 for this key (its limit of 50 channel × symbol pairs)` });
    await acked(c, 1);
  });
});

describe('compatibility dialects', () => {
  test("an admitted dialect connection's frames count against its key's budget with its native ones", async () => {
    await using s = await budgetServer();
    const key = s.keyOf('free');
    await using native = await ready(s.url(key));
    await acked(native, 60);
    await using massive = await connectVendor(s.massiveUrl);
    await massive.next((e) => e.status === 'connected');
    // The auth frame comes before the key is known: it counts only against the connection's own limit.
    massive.send({ action: 'auth', params: key });
    await massive.next((e) => e.status === 'auth_success');
    for (let i = 0; i < 40; i++) {
      massive.send({ action: 'subscribe', params: 'Q.AAPL' });
      await massive.next((e) => e.status === 'success');
    }
    massive.send({ action: 'subscribe', params: 'Q.AAPL' });
    expect((await massive.closed).code).toBe(CLOSE_FLOOD);
  });
});

describe('connection attempts per key', () => {
  test("attempts past the plan's 10 per minute get 429 with Retry-After, however the earlier ones ended", async () => {
    await using s = await budgetServer();
    const key = s.keyOf('free');
    for (let i = 0; i < 8; i++) {
      await using c = await ready(s.url(key));
      s.clock.advance(1_000);
    }
    // Refused attempts count too: a bad format is the ninth, and the tenth is the last let in.
    expect((await s.attempt(key + '&format=xml')).status).toBe(400);
    await using tenth = await ready(s.url(key));
    s.clock.advance(2_000);
    const refused = await s.attempt(key);
    expect(refused.status).toBe(429);
    expect(refused.body!.error).toBe('too many connection attempts for this key: at most 10 per minute on its plan (free); retry in 50 s');
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('10');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // The open connection is not touched, and a minute after the first attempt the key may connect again.
    await acked(tenth, 1);
    s.clock.advance(50_000);
    await using again = await ready(s.url(key));
    await acked(again, 1);
  });

  test("each plan's budget applies to its keys; a plan without budget fields gets the defaults", async () => {
    await using s = await budgetServer();
    const tiny = s.keyOf('tiny');
    const free = s.keyOf('free');
    await using t = await ready(s.url(tiny));
    await using f = await ready(s.url(free));
    await acked(t, 5);
    await acked(f, 6);
    t.send(SUBSCRIBE);
    expect((await t.closed).code).toBe(CLOSE_FLOOD);
    await acked(f, 1);
    s.clock.advance(10_000);
    await using t2 = await ready(s.url(tiny));
    await using t3 = await ready(s.url(tiny));
    expect((await s.attempt(tiny)).body!.error).toBe('too many connection attempts for this key: at most 3 per minute on its plan (tiny); retry in 50 s');
    // 'old' allows 2 connections: the defaults are max(100, 50 × 2) frames and max(10, 5 × 2) attempts.
    expect(streamBudgetOf(OLD)).toEqual({ framesPer10s: 100, connectsPerMinute: 10 });
    const old = s.keyOf('old');
    for (let i = 0; i < 10; i++) {
      await using c = await ready(s.url(old));
    }
    expect((await s.attempt(old)).body!.error).toStartWith('too many connection attempts for this key: at most 10 per minute on its plan (old)');
  });
});

describe('refusals held back', () => {
  test('a spent budget\'s 429 is held back, at most 4 per key at once: the fifth is answered at once, and stopping answers the rest', async () => {
    await using s = await budgetServer(60_000);
    const key = s.keyOf('tiny');
    for (let i = 0; i < 3; i++) {
      await using c = await ready(s.url(key));
    }
    let settled = 0;
    const held = Array.from({ length: 4 }, () => s.attempt(key).finally(() => settled++));
    while ((s.stream.counts.refused.get(429) ?? 0) < 4) await Bun.sleep(5);
    const fifth = await s.attempt(key);
    expect(fifth.status).toBe(429);
    expect(fifth.body!.error).toStartWith('too many connection attempts for this key: at most 3 per minute');
    expect(settled).toBe(0);
    // Another key is not held to this one's: it connects at once.
    await using other = await ready(s.url(s.keyOf('free')));
    s.stream.stop();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([429, 429, 429, 429]);
  });
});

describe('refusals held back without a key', () => {
  test("past the address's keyless limit, 64 refusals are held back over all addresses; the next is answered at once", async () => {
    await using s = await budgetServer(60_000);
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) expect((await s.attempt(`wrong-key-${i}`)).status).toBe(401);
    let settled = 0;
    const held = Array.from({ length: 64 }, () => s.attempt(null).finally(() => settled++));
    while ((s.stream.counts.refused.get(429) ?? 0) < 64) await Bun.sleep(5);
    const next = await s.attempt('wrong-key-x');
    expect([next.status, next.body!.error]).toEqual([429, 'rate limit exceeded']);
    expect(settled).toBe(0);
    s.stream.stop();
    expect(new Set((await Promise.all(held)).map((r) => r.status))).toEqual(new Set([429]));
  });
});

describe('keyless attempts per address', () => {
  test('missing and wrong keys share one budget per address; past it the upgrade gets 429, a browser close 4029', async () => {
    await using s = await budgetServer();
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) expect((await s.attempt(i % 2 === 0 ? null : `wrong-key-${i}`)).status).toBe(401);
    const refused = await s.attempt('wrong-key-x');
    expect(refused.status).toBe(429);
    expect(refused.body!.error).toBe('rate limit exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await s.attempt(null)).status).toBe(429);
    // A browser (Origin) cannot read a status: it gets the refusal as a frame and a close code.
    const browser = new WebSocket(s.url('wrong-key-y'), { headers: { origin: 'http://dashboard.example' } } as unknown as string[]);
    const frames: string[] = [];
    browser.onmessage = (e) => frames.push(String(e.data));
    const closed = await new Promise<CloseEvent>((resolve) => (browser.onclose = resolve));
    expect(frames.map((f) => JSON.parse(f))).toEqual([{ type: 'error', code: 'rate_limited', message: 'rate limit exceeded' }]);
    expect(closed.code).toBe(CLOSE_FLOOD);
    // A valid key is not held to the address's keyless budget.
    await using c = await ready(s.url(s.keyOf('free')));
    // The next minute the address may try again.
    s.clock.advance(60_000);
    expect((await s.attempt('wrong-key-z')).status).toBe(401);
  });
});

describe('budget slots', () => {
  test('a key keeps its slot while connected or while a window runs, and the slot is reused after', () => {
    const clock = new ManualClock(1_000_000);
    const budgets = new StreamBudgets(clock);
    const account = (id: string, plan: Plan) => ({ id, plan, markets: 'all' as const, addons: new Set<never>(), createdMs: 0 });
    const a = budgets.slotOf(account('a', TINY));
    expect(budgets.takeConnect(a)).toBeNull();
    budgets.hold(a);
    for (let i = 0; i < 5; i++) expect(budgets.takeFrame(a, clock.nowMs())).toBe(true);
    expect(budgets.takeFrame(a, clock.nowMs())).toBe(false);
    clock.advance(120_000);
    budgets.sweep();
    expect(budgets.slotOf(account('a', TINY))).toBe(a); // held: kept, count and all
    budgets.release(a);
    budgets.sweep();
    expect(budgets.size).toBe(0);
    const b = budgets.slotOf(account('b', FREE));
    expect(b).toBe(a);
    expect(budgets.frameStanding(b)).toEqual({ limit: 100, remaining: 100, resetMs: clock.nowMs() + 10_000 });
    // A window still running keeps the slot of a key with no connection.
    expect(budgets.takeConnect(b)).toBeNull();
    budgets.sweep();
    expect(budgets.size).toBe(1);
  });

  test('a plans file may set the budgets; zero is refused with the path', () => {
    const plan = { ...OLD, stream_frames_per_10s: 300, stream_connects_per_minute: 20 };
    expect(parsePlans({ plans: [plan] })).toEqual({ plans: [plan] });
    const bad = parsePlans({ plans: [{ ...OLD, stream_frames_per_10s: 0 }] });
    expect('errors' in bad && bad.errors[0]).toStartWith('/plans/0/stream_frames_per_10s:');
  });
});
