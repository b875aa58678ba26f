// The simulator's first start: each series' head is written before the server opens, the older
// history in the background, newest first, each step recorded so a restart resumes it and ends
// with the bars of an uninterrupted build. Driven by the build's step hook, never by time.
import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { CoverageSchema } from '../../src/domain/coverage-schema.ts';
import { HealthSchema } from '../../src/domain/health-schema.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { ManualClock } from '../../src/clock.ts';
import type { Bar } from '../../src/domain/bar.ts';
import { HISTORY_BUILD_META, type HistoryBuildRecord } from '../../src/domain/history-build.ts';
import { DAY_MS, MINUTE_MS, TIMEFRAMES, type Timeframe } from '../../src/domain/timeframes.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { makeHistory } from '../../src/ingest/simulator/backfill.ts';
import { HistoryBuild, type HistoryBuildHooks } from '../../src/ingest/simulator/history-build.ts';
import { historySteps } from '../../src/ingest/simulator/history-steps.ts';
import { BAR_FIELDS, chunkSpanMs, Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

/** Wednesday 2026-03-04 15:30 UTC: every market open. */
const END = Date.parse('2026-03-04T15:30:00Z');
const TODAY = Date.parse('2026-03-04T00:00:00Z');
const OPTS = { seed: 11, historyDays: 3, historyYears: 1 };
const PLAN = { minuteDays: OPTS.historyDays, years: OPTS.historyYears };
const INSTRUMENTS = ALL_INSTRUMENTS.filter((s) => ['BTCUSD', 'EURUSD', 'US:AAPL'].includes(s.symbol));
const SERIES = ['BTCUSD', 'EURUSD', 'EURUSD.RAW', 'US:AAPL'];
const STEPS = historySteps(END, PLAN);
const FROM = STEPS.at(-1)!.fromMs;
const KEY = 'history-build-dev-key';

function openStore(dir: string): Store {
  const store = Store.open({ dataDir: dir });
  seedRegistry(store, INSTRUMENTS);
  return store;
}

/** The head, as a first start writes it before the server opens. */
async function firstStart(store: Store): Promise<void> {
  await makeHistory(store, { endMs: END, isFirstStart: true }, new ManualClock(END), OPTS, () => {}, INSTRUMENTS);
}

function build(store: Store, hooks: HistoryBuildHooks = {}): HistoryBuild {
  return new HistoryBuild(store, new ManualClock(END + MINUTE_MS), () => {}, hooks, INSTRUMENTS);
}

/** Every completed bar of a series and timeframe, ascending. */
function allBars(store: Store, symbol: string, tf: Timeframe): Bar[] {
  const id = store.registry.bySymbolName(symbol)!.id;
  const out: Bar[] = [];
  const window = chunkSpanMs(tf) * 16;
  for (let from = FROM - chunkSpanMs(tf); from < END + DAY_MS; from += window) {
    const d = store.barsInRange(id, tf, from, from + window).data;
    for (let i = 0; i < d.length; i += BAR_FIELDS) out.push({ t: d[i]!, o: d[i + 1]!, h: d[i + 2]!, l: d[i + 3]!, c: d[i + 4]!, v: Number.isNaN(d[i + 5]!) ? null : d[i + 5]! });
  }
  return out;
}

function everything(store: Store): Record<string, Bar[]> {
  const out: Record<string, Bar[]> = {};
  for (const symbol of SERIES) for (const tf of TIMEFRAMES) out[`${symbol} ${tf}`] = allBars(store, symbol, tf);
  for (const symbol of SERIES) for (const tf of TIMEFRAMES) out[`${symbol} ${tf} open`] = [store.openBar(store.registry.bySymbolName(symbol)!.id, tf)!];
  return out;
}

const recordOf = (store: Store) => store.getMeta<HistoryBuildRecord>(HISTORY_BUILD_META)!;

/** An uninterrupted build's bars, made once. */
let reference: Record<string, Bar[]> | null = null;
async function uninterrupted(): Promise<Record<string, Bar[]>> {
  if (reference !== null) return reference;
  using dir = tempDir();
  const store = openStore(dir.path);
  await firstStart(store);
  await build(store).run();
  reference = everything(store);
  await store.close();
  return reference;
}

describe('first start: the head before the server opens', () => {
  test("today's minutes up to the start and the bars in progress are there before any step, nothing older", async () => {
    using dir = tempDir();
    const store = openStore(dir.path);
    await firstStart(store);
    const btc = store.registry.bySymbolName('BTCUSD')!.id;
    expect(store.barsInRange(btc, '1m', TODAY, END).count).toBe((END - TODAY) / MINUTE_MS);
    expect(store.openBar(btc, '1d')?.t).toBe(TODAY);
    // Nothing older: that is the background build's, and it has not begun.
    expect(store.barsInRange(btc, '1m', TODAY - DAY_MS, TODAY).count).toBe(0);
    expect(store.barsInRange(btc, '1d', FROM, TODAY).count).toBe(0);
    expect(recordOf(store)).toMatchObject({ endMs: END, stepsDone: 0, stepsTotal: STEPS.length, targetFromMs: FROM, doneMs: null });
    await store.close();
  });
});

describe('the background build', () => {
  test('goes newest first: after each step nothing older than the step is stored, and the written part has no hole', async () => {
    using dir = tempDir();
    const store = openStore(dir.path);
    await firstStart(store);
    const btc = store.registry.bySymbolName('BTCUSD')!.id;
    const seen: { made: number; builtFrom: number }[] = [];
    await build(store, {
      afterStep(made) {
        // Yesterday first: its 1,440 BTCUSD minutes are all written once the step before it is made.
        if (made === 2) expect(store.barsInRange(btc, '1m', TODAY - DAY_MS, TODAY).count).toBe(1440);
        // Nothing older than the step just made is stored, in any timeframe.
        const stepFrom = STEPS[made - 1]!.fromMs;
        expect(store.barsInRange(btc, '1m', stepFrom - 30 * DAY_MS, stepFrom).count).toBe(0);
        expect(store.barsInRange(btc, '1d', FROM - DAY_MS, stepFrom).count).toBe(0);
        // What the record calls built has no hole: a daily bar for every UTC day (BTCUSD trades every day).
        const record = recordOf(store);
        expect(store.barsInRange(btc, '1d', record.builtFromMs, TODAY).count).toBe((TODAY - record.builtFromMs) / DAY_MS);
        seen.push({ made, builtFrom: record.builtFromMs });
        return true;
      },
    }).run();
    expect(seen.map((s) => s.made)).toEqual(STEPS.map((_, i) => i + 1));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.builtFrom).toBeLessThanOrEqual(seen[i - 1]!.builtFrom);
    // The built edge moves back during the build, not only at its end.
    expect(seen[Math.floor(seen.length / 2)]!.builtFrom).toBeLessThan(TODAY - 7 * DAY_MS);
    expect(recordOf(store)).toMatchObject({ stepsDone: STEPS.length, builtFromMs: FROM, doneMs: END + MINUTE_MS });
    expect(store.getMeta('historyDone')).toEqual({ atMs: END, seed: OPTS.seed });
    await store.close();
  });

  test('a build killed after 5 steps (chunks held in memory lost) resumes at the next start and ends with the same bars', async () => {
    using dir = tempDir();
    let store = openStore(dir.path);
    await firstStart(store);
    await build(store, { afterStep: (made) => made < 5 }).run();
    const stopped = recordOf(store);
    expect(stopped.stepsDone).toBeLessThanOrEqual(5);
    expect(stopped.doneMs).toBeNull();
    await store.close();
    store = openStore(dir.path);
    // The next start: the head is there, the gap since is none (same minute), the build goes on.
    await makeHistory(store, { endMs: END, isFirstStart: false }, new ManualClock(END), OPTS, () => {}, INSTRUMENTS);
    await build(store).run();
    expect(everything(store)).toEqual(await uninterrupted());
    await store.close();
  });

  test('a build stopped midway (server stop) writes what it holds and a restart ends with the same bars', async () => {
    using dir = tempDir();
    let store = openStore(dir.path);
    await firstStart(store);
    let running: HistoryBuild | null = null;
    running = build(store, {
      afterStep(made) {
        if (made === 2) void running!.stop();
        return true;
      },
    });
    await running.run();
    expect(recordOf(store).stepsDone).toBe(2);
    await store.close();
    store = openStore(dir.path);
    await build(store).run();
    expect(recordOf(store).doneMs).not.toBeNull();
    expect(everything(store)).toEqual(await uninterrupted());
    await store.close();
  });

  test('never touches the live bars: a bar the live builder sealed after the start and the bars in progress stay as they were', async () => {
    using dir = tempDir();
    const store = openStore(dir.path);
    await firstStart(store);
    const btc = store.registry.bySymbolName('BTCUSD')!.id;
    // The live bar builder seals the start minute and folds it into the bars in progress.
    const live: Bar = { t: END, o: 1, h: 2, l: 0.5, c: 1.5, v: 3 };
    store.appendBar(btc, '1m', live);
    const open = Object.fromEntries(TIMEFRAMES.map((tf) => [tf, structuredClone(store.openBar(btc, tf) ?? null)]));
    await build(store).run();
    expect(store.barsInRange(btc, '1m', END, END + MINUTE_MS).data[1]).toBe(1);
    expect(store.lastCompletedBarT(btc, '1m')).toBe(END);
    expect(Object.fromEntries(TIMEFRAMES.map((tf) => [tf, store.openBar(btc, tf) ?? null]))).toEqual(open);
    await store.close();
  });
});

describe('routes while the build runs (in process, over the store of a build stopped after 9 steps)', () => {
  test('ranges answer with what is built, /coverage shows the rest as pending, /health shows the progress', async () => {
    using dir = tempDir();
    const store = openStore(dir.path);
    await firstStart(store);
    await build(store, { afterStep: (made) => made < 9 }).run();
    const record = recordOf(store);
    expect(record.builtFromMs).toBeLessThan(TODAY - DAY_MS);
    expect(record.doneMs).toBeNull();
    const clock = new ManualClock(END + 5 * MINUTE_MS);
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: KEY, devPerMinute: 1_000_000 });
    const app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'sim', version: '1.0.0' }, () => {});
    const get = async (path: string) => {
      const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': KEY } }));
      return { status: res.status, body: (await res.json()) as any };
    };
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

    // Yesterday's minutes (the first step) and the hours of the steps written are served.
    const minutes = await get(`/crypto/agg/BTCUSD/1/minute/${day(TODAY - DAY_MS)}/${day(TODAY - DAY_MS)}?limit=5000`);
    expect(minutes.status).toBe(200);
    expect(minutes.body.results.length).toBe(1440);
    const hours = await get(`/crypto/agg/BTCUSD/1/hour/${day(record.builtFromMs)}/${day(TODAY - DAY_MS)}?limit=5000`);
    expect(hours.status).toBe(200);
    expect(hours.body.results.length).toBe(((TODAY - record.builtFromMs) / DAY_MS) * 24);

    // Daily coverage over the last 60 days: built days have bars, the older ones are pending, no gap.
    const btc = store.registry.bySymbolName('BTCUSD')!.id;
    const oldest = store.barsInRange(btc, '1d', FROM, TODAY).data[0]!;
    expect(oldest).toBeGreaterThan(TODAY - 60 * DAY_MS);
    expect(oldest).toBeLessThanOrEqual(record.builtFromMs);
    const cov = await get(`/coverage/crypto/BTCUSD?timeframe=1d&from=${day(TODAY - 60 * DAY_MS)}&to=${day(TODAY - DAY_MS)}`);
    expect(cov.status).toBe(200);
    expect(Value.Check(CoverageSchema, cov.body)).toBe(true);
    expect(cov.body.ranges).toEqual([
      { from: TODAY - 60 * DAY_MS, to: oldest, kind: 'pending', count: (oldest - (TODAY - 60 * DAY_MS)) / DAY_MS },
      { from: oldest, to: TODAY, kind: 'bars', count: (TODAY - oldest) / DAY_MS },
    ]);
    expect(cov.body.totals.gaps).toBe(0);

    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(Value.Check(HealthSchema, health.body)).toBe(true);
    expect(health.body.history).toEqual({
      state: 'building',
      built_from: record.builtFromMs,
      target_from: FROM,
      to: END,
      steps_done: record.stepsDone,
      steps_total: STEPS.length,
      percent: Math.floor((record.stepsDone * 100) / STEPS.length),
      started: END,
      done: null,
    });

    // Once the build is done the same window has no pending slot and /health says so.
    await build(store).run();
    const after = await get(`/coverage/crypto/BTCUSD?timeframe=1d&from=${day(TODAY - 60 * DAY_MS)}&to=${day(TODAY - DAY_MS)}`);
    expect(after.body.ranges).toEqual([{ from: TODAY - 60 * DAY_MS, to: TODAY, kind: 'bars', count: 60 }]);
    expect((await get('/health')).body.history).toMatchObject({ state: 'done', built_from: FROM, percent: 100, done: END + MINUTE_MS });
    await store.close();
  });
});
