// The simulator's corporate actions in process: dated from the first start's end, written once
// through the store (a restart changes nothing, a first start killed and made again makes the
// same ones), none for a data dir made before them, and the raw prices of the series' head and
// background build agree with them.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import { BAR_FIELDS } from '../../src/store/index.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { makeHistory } from '../../src/ingest/simulator/backfill.ts';
import { ActionPrices, SIM_ACTIONS_META, simulatedActions } from '../../src/ingest/simulator/corporate-actions.ts';
import { HistoryBuild } from '../../src/ingest/simulator/history-build.ts';
import { sessionsBetween } from '../../src/market/index.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

/** Wed 2026-03-04 15:30 UTC, the test servers' clock. */
const END = Date.parse('2026-03-04T15:30:00Z');
const DAY = 86_400_000;
const OPTS = { seed: 7, historyDays: 2, historyYears: 0 };
const INSTRUMENTS = ALL_INSTRUMENTS.filter((s) => ['US:WMT', 'US:KO', 'US:AAPL'].includes(s.symbol));

function openStore(dir: string): Store {
  const store = Store.open({ dataDir: dir });
  seedRegistry(store, INSTRUMENTS);
  return store;
}

const start = (store: Store, endMs: number, isFirstStart: boolean) => makeHistory(store, { endMs, isFirstStart }, new ManualClock(endMs), OPTS, () => {}, INSTRUMENTS);

describe('simulatedActions', () => {
  test('dated from the first start: two splits and quarterly dividends on US sessions before its date', () => {
    const { splits, dividends } = simulatedActions(END);
    expect(splits).toEqual([
      { symbol: 'US:WMT', date: '2026-02-25', from: 1, to: 4 },
      { symbol: 'US:KO', date: '2025-09-03', from: 2, to: 3 },
    ]);
    const sessions = new Set(sessionsBetween('US', '2020-01-01', '2026-03-04').map((s) => s.date));
    for (const symbol of ['US:KO', 'US:PG', 'US:WMT', 'US:XOM']) {
      const mine = dividends.filter((d) => d.symbol === symbol);
      expect(mine.length).toBe(20);
      for (const d of mine) {
        expect(sessions.has(d.exDate)).toBe(true);
        expect(d.exDate >= '2021-03-04' && d.exDate < '2026-03-04').toBe(true);
      }
    }
    // As paid: WMT's last payout before its 4-for-1 split is four times the one after (no raise between).
    const wmt = dividends.filter((d) => d.symbol === 'US:WMT');
    expect(wmt.at(-1)!.exDate).toBe('2025-12-08');
    expect(wmt.at(-1)!.cash).toBe(0.94);
    // A clock a week later moves every date with it; the same clock gives the same actions.
    expect(simulatedActions(END + 7 * DAY).splits.map((s) => s.date)).toEqual(['2026-03-04', '2025-09-10']);
    expect(simulatedActions(END)).toEqual({ splits, dividends });
  });

  test('ActionPrices: raw bars are the walk × the later split ratio plus the later cash, and back', () => {
    const actions = simulatedActions(END);
    const prices = ActionPrices.of(actions, 'stocks', 'US:WMT')!;
    expect(ActionPrices.of(actions, 'stocks', 'US:AAPL')).toBeNull();
    expect(ActionPrices.of(actions, 'overnight', 'US:WMT')).toBeNull();
    const bar = (date: string) => ({ t: Date.parse(`${date}T15:00:00Z`), o: 100, h: 101, l: 99, c: 100.5, v: 4000 });
    const [after, before, beforeDividend] = prices.toRaw([bar('2026-02-25'), bar('2026-02-24'), bar('2025-12-05')], 2);
    expect(after).toEqual(bar('2026-02-25'));
    expect(before).toEqual({ ...bar('2026-02-24'), o: 400, h: 404, l: 396, c: 402, v: 1000 });
    // Before the 2025-12-08 ex-date: 0.94 as paid, 0.235 in today's shares.
    expect(beforeDividend!.c).toBeCloseTo((100.5 + 0.235) * 4, 2);
    expect(prices.toWalk(beforeDividend!.c, beforeDividend!.t)).toBeCloseTo(100.5, 6);
  });
});

describe('the simulator writes its actions', () => {
  test('on the first start, through the store; a restart changes nothing', async () => {
    using dir = tempDir();
    const store = openStore(dir.path);
    await start(store, END, true);
    expect(store.corporateActions.symbols()).toEqual(['US:KO', 'US:WMT']);
    expect(store.corporateActions.of('US:WMT').splits).toEqual([{ symbol: 'US:WMT', date: '2026-02-25', from: 1, to: 4 }]);
    const version = store.corporateActions.version();
    expect(version).toBeGreaterThan(0);
    expect(store.historyChanges.pending().some((n) => n.change.kind === 'actions')).toBe(true);
    await store.close();
    const again = openStore(dir.path);
    await start(again, END + 3 * DAY, false);
    expect(again.corporateActions.version()).toBe(version);
    expect(again.corporateActions.of('US:WMT').splits.map((s) => s.date)).toEqual(['2026-02-25']);
    await again.close();
  });

  test('a first start made again (killed before its build was recorded) keeps the dates of the first', async () => {
    using dir = tempDir();
    const store = openStore(dir.path);
    await start(store, END, true);
    const actions = store.corporateActions.all();
    await start(store, END + 2 * DAY, true);
    expect(store.corporateActions.all()).toEqual(actions);
    await store.close();
  });

  test('a data dir made before the simulator had actions gets none (its bars were made without them)', async () => {
    using dir = tempDir();
    const old = openStore(dir.path);
    await start(old, END, false);
    expect(old.getMeta(SIM_ACTIONS_META)).toBeUndefined();
    expect(old.corporateActions.version()).toBe(0);
    await old.close();
  });

  test("the head and the build's raw bars jump at the split, in every timeframe", async () => {
    using dir = tempDir();
    const store = openStore(dir.path);
    await makeHistory(store, { endMs: END, isFirstStart: true }, new ManualClock(END), { ...OPTS, historyDays: 9 }, () => {}, INSTRUMENTS);
    await new HistoryBuild(store, new ManualClock(END + 60_000), () => {}, {}, INSTRUMENTS).run();
    const id = store.registry.resolve('stocks', 'US:WMT')!.id;
    for (const tf of ['1m', '5m', '1h', '1d'] as const) {
      const d = store.barsInRange(id, tf, Date.parse('2026-02-24T00:00:00Z'), Date.parse('2026-02-26T00:00:00Z')).data;
      const closes = new Map<string, number>();
      const opens = new Map<string, number>();
      for (let i = 0; i < d.length; i += BAR_FIELDS) {
        const date = new Date(d[i]!).toISOString().slice(0, 10);
        closes.set(date, d[i + 4]!);
        if (!opens.has(date)) opens.set(date, d[i + 1]!);
      }
      // The walk is continuous: the first open after the split is the last close before it ÷ 4.
      const jump = closes.get('2026-02-24')! / opens.get('2026-02-25')!;
      expect([tf, Math.abs(jump - 4) < 0.01]).toEqual([tf, true]);
    }
    await store.close();
  });
});
