// The range route answers from cached encoded bars: every body must equal, byte for byte, the
// straightforward encoding of the bars the store holds, whatever was cached before, as chunks grow,
// roll over, and the bar in progress moves. Runs the real app and store on a temp dir.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import type { Bar } from '../../src/domain/bar.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { DAY_MS, MINUTE_MS, type Timeframe } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const KEY = 'range-cache-key';
const FIRST_T = Date.UTC(2026, 1, 10);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Deterministic bars with gaps, decimals, tiny and huge numbers, and null volumes. */
function makeBars(fromT: number, n: number, seed: number): Bar[] {
  const out: Bar[] = [];
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0, t = fromT; out.length < n; i++, t += MINUTE_MS) {
    if (i % 97 === 13) continue;
    const o = Math.round(60_000 + next() * 10_000) / 100;
    const c = i % 50 === 7 ? 1e-7 : o + Math.round(next() * 1000) / 1000;
    const v = i % 5 === 0 ? null : i % 31 === 3 ? 123456789012.5 : Math.round(next() * 1e8) / 1e8;
    out.push({ t, o, h: Math.max(o, c) + 0.25, l: Math.min(o, c) - 0.125, c, v });
  }
  return out;
}

/** The body the spec asks for, encoded the plain way: filter, add the live bar, sort, page. */
function referenceBody(symbol: string, sealed: readonly Bar[], live: Bar | null, fromMs: number, toMs: number, q: { limit?: number; offset?: number; sort?: 'asc' | 'desc' }): string {
  const inWindow = sealed.filter((b) => b.t >= fromMs && b.t < toMs);
  const lastT = sealed.length > 0 ? sealed[sealed.length - 1]!.t : -Infinity;
  if (live && live.t >= fromMs && live.t < toMs && live.t > lastT) inWindow.push(live);
  const sorted = (q.sort ?? 'desc') === 'asc' ? inWindow : inWindow.reverse();
  const offset = q.offset ?? 0;
  const page = sorted.slice(offset, offset + (q.limit ?? 500));
  return JSON.stringify({
    symbol,
    results_count: page.length,
    total_count: sorted.length,
    results: page.map((b) => ({ o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, t: b.t })),
    next_offset: offset + page.length < sorted.length ? offset + page.length : null,
  });
}

interface Harness {
  dir: TempDir;
  store: Store;
  symId: number;
  sealed: Bar[];
  live: Bar | null;
  app: ReturnType<typeof createApp>;
}

let h: Harness;

beforeAll(() => {
  const dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  const symId = store.registry.resolve('crypto', 'BTCUSD')!.id;
  const clock = new ManualClock(Date.UTC(2026, 2, 4, 15, 30));
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: KEY, devPerMinute: 1_000_000 });
  const harness: Harness = { dir, store, symId, sealed: [], live: null, app: undefined as never };
  const bars = { barInProgress: (id: number, tf: Timeframe) => (id === symId && tf === '1m' ? harness.live : null) };
  harness.app = createApp({ store, bars, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
  h = harness;
  // 12 days of minutes with gaps: 17 chunks of 1,024 bars, the last one still hot.
  append(makeBars(FIRST_T, 16_800, 7));
});

afterAll(async () => {
  await h.store.close();
  h.dir[Symbol.dispose]();
});

function append(bars: Bar[]): void {
  expect(h.store.appendHistory(h.symId, '1m', bars)).toBe(bars.length);
  h.sealed.push(...bars);
}

async function get(path: string): Promise<{ res: Response; text: string }> {
  const res = await h.app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': KEY } }));
  return { res, text: await res.text() };
}

/** Requests a window and checks the body against the reference. */
async function expectRange(fromMs: number, toDayMs: number, q: { limit?: number; offset?: number; sort?: 'asc' | 'desc' } = {}): Promise<string> {
  const query = new URLSearchParams();
  if (q.limit !== undefined) query.set('limit', String(q.limit));
  if (q.offset !== undefined) query.set('offset', String(q.offset));
  if (q.sort !== undefined) query.set('sort', q.sort);
  const { res, text } = await get(`/crypto/agg/BTCUSD/1/minute/${day(fromMs)}/${day(toDayMs)}?${query}`);
  expect(res.status).toBe(200);
  expect(text).toBe(referenceBody('BTCUSD', h.sealed, h.live, fromMs, toDayMs + DAY_MS, q));
  return text;
}

const lastDay = () => Math.floor(h.sealed[h.sealed.length - 1]!.t / DAY_MS) * DAY_MS;

describe('range route from cached encoded bars', () => {
  test('any window, sort, limit and offset equals the plain encoding, byte for byte, cold and warm', async () => {
    const days = Math.ceil((h.sealed.at(-1)!.t - FIRST_T) / DAY_MS) + 2;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -1, max: days }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 9000 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        async (startDay, spanDays, limit, offset, sort) => {
          const fromMs = FIRST_T + startDay * DAY_MS;
          const first = await expectRange(fromMs, fromMs + spanDays * DAY_MS, { limit, offset, sort });
          expect(await expectRange(fromMs, fromMs + spanDays * DAY_MS, { limit, offset, sort })).toBe(first);
        },
      ),
      { numRuns: 120 },
    );
  });

  test('limit 5000 over 5+ chunks, in both orders, default page and sort', async () => {
    const fromMs = FIRST_T + 3 * DAY_MS;
    expect(h.store.barChunkSpans(h.symId, '1m', fromMs, fromMs + 4 * DAY_MS).length).toBeGreaterThanOrEqual(5);
    for (const sort of ['asc', 'desc'] as const) {
      const body = JSON.parse(await expectRange(fromMs, fromMs + 3 * DAY_MS, { limit: 5000, sort }));
      expect(body.results_count).toBe(5000);
    }
    await expectRange(fromMs, fromMs + 3 * DAY_MS);
  });

  test('pages with offsets around chunk boundaries join into the whole window', async () => {
    const fromMs = FIRST_T + DAY_MS;
    const spans = h.store.barChunkSpans(h.symId, '1m', fromMs, fromMs + 4 * DAY_MS);
    // Window indexes where a chunk ends, and the bars around them.
    const edges: number[] = [];
    let at = 0;
    for (const span of spans) edges.push((at += span.to - span.from));
    for (const sort of ['asc', 'desc'] as const) {
      const whole = JSON.parse(await expectRange(fromMs, fromMs + 3 * DAY_MS, { limit: 5000, sort })).results;
      for (const edge of edges.slice(0, 3)) {
        for (const offset of [edge - 1, edge, edge + 1]) {
          const page = JSON.parse(await expectRange(fromMs, fromMs + 3 * DAY_MS, { limit: 700, offset, sort })).results;
          expect(page).toEqual(whole.slice(offset, offset + 700));
        }
      }
    }
  });

  test('bars sealed into the hot chunk after a request are in the next answer to the same request', async () => {
    const fromMs = lastDay() - 2 * DAY_MS;
    const toDay = lastDay() + DAY_MS;
    for (const sort of ['asc', 'desc'] as const) await expectRange(fromMs, toDay, { limit: 5000, sort });
    await expectRange(fromMs, toDay, { limit: 20, sort: 'asc', offset: 30 });
    // A few bars, then enough to fill the hot chunk and start the next one.
    for (const n of [1, 3, 1500]) {
      append(makeBars(h.sealed.at(-1)!.t + MINUTE_MS, n, n));
      for (const sort of ['asc', 'desc'] as const) {
        await expectRange(fromMs, toDay, { limit: 5000, sort });
        await expectRange(fromMs, toDay, { limit: 7, sort });
      }
    }
  });

  test('bars committed to LMDB read back the same as the ones still in memory', async () => {
    const fromMs = lastDay() - 3 * DAY_MS;
    const before = await expectRange(fromMs, lastDay(), { limit: 5000 });
    await h.store.flush();
    expect(await expectRange(fromMs, lastDay(), { limit: 5000 })).toBe(before);
  });

  test('the bar in progress is the newest bar of the window, never cached, and only when it follows the sealed bars', async () => {
    const lastT = h.sealed.at(-1)!.t;
    const fromMs = lastDay() - DAY_MS;
    h.live = { t: lastT + MINUTE_MS, o: 1.5, h: 2.25, l: 1, c: 2, v: 0.1 };
    let desc = JSON.parse(await expectRange(fromMs, lastDay(), { limit: 3 }));
    expect(desc.results[0].t).toBe(h.live.t);
    expect(JSON.parse(await expectRange(fromMs, lastDay(), { limit: 5000, sort: 'asc' })).results.at(-1).t).toBe(h.live.t);
    h.live = { ...h.live, c: 2.125, h: 3, v: null };
    desc = JSON.parse(await expectRange(fromMs, lastDay(), { limit: 3 }));
    expect(desc.results[0]).toEqual({ o: 1.5, h: 3, l: 1, c: 2.125, v: null, t: h.live.t });
    // The pipeline folds prices into the same object: a repeated request sees each change.
    for (const [field, value] of [['c', 2.5], ['h', 3.5], ['l', 0.5], ['v', 7], ['v', null], ['o', 1.25]] as const) {
      Object.assign(h.live!, { [field]: value });
      await expectRange(fromMs, lastDay(), { limit: 3 });
      await expectRange(fromMs, lastDay(), { limit: 5000, sort: 'asc' });
    }
    // Only the bar in progress on the page, at the end of an ascending walk.
    const total = desc.total_count;
    await expectRange(fromMs, lastDay(), { sort: 'asc', offset: total - 1 });
    await expectRange(fromMs, lastDay(), { sort: 'desc', offset: 0, limit: 1 });
    // Not after every sealed bar (a stale bar in progress): left out.
    h.live = { ...h.live, t: lastT };
    await expectRange(fromMs, lastDay(), { limit: 4 });
    // Outside the window: left out.
    h.live = { ...h.live, t: lastT + MINUTE_MS };
    await expectRange(fromMs - 5 * DAY_MS, fromMs - 4 * DAY_MS, { limit: 4 });
    // The bar in progress is sealed: it is served from the store, and the next one is live.
    const sealedNow = { ...h.live };
    h.live = { ...sealedNow, t: sealedNow.t + MINUTE_MS, o: 9 };
    append([sealedNow]);
    for (const sort of ['asc', 'desc'] as const) await expectRange(fromMs, lastDay(), { limit: 5000, sort });
    h.live = null;
  });

  test('empty windows and offsets past the end', async () => {
    expect(await expectRange(Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 5))).toBe('{"symbol":"BTCUSD","results_count":0,"total_count":0,"results":[],"next_offset":null}');
    await expectRange(FIRST_T, FIRST_T + 2 * DAY_MS, { offset: 100_000 });
    await expectRange(FIRST_T, FIRST_T + 2 * DAY_MS, { offset: 100_000, sort: 'asc' });
  });

  test('answers with the JSON content type, request id and rate-limit headers', async () => {
    const { res } = await get(`/crypto/agg/BTCUSD/1/minute/${day(FIRST_T)}/${day(FIRST_T)}`);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000000');
    expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
  });
});
