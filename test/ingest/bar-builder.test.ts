import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { rollUp, type Bar } from '../../src/domain/bar.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../../src/domain/timeframes.ts';
import { BarBuilder } from '../../src/ingest/bar-builder.ts';
import { alignmentFor, type BarAlignment } from '../../src/market/bar-alignment.ts';
import { BAR_FIELDS, Store, type BarSlice } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const CRYPTO = alignmentFor({ assetClass: 'crypto', market: null });
const US = alignmentFor({ assetClass: 'stocks', market: 'US' });
const FAR_FUTURE = Date.UTC(2030, 0, 1);
// 2026-03-04 (a Wednesday, EST): the US regular session is 14:30Z–21:00Z.
const US_OPEN = Date.parse('2026-03-04T14:30:00Z');
const US_CLOSE = Date.parse('2026-03-04T21:00:00Z');

/** A price as fed: sizes in thousandths so the naive volume sum is exact. */
interface Tick {
  t: number;
  p: number;
  milli: number;
}

function unpack(slice: BarSlice): Bar[] {
  const out: Bar[] = [];
  for (let i = 0; i < slice.data.length; i += BAR_FIELDS) {
    const d = slice.data;
    out.push({ t: d[i]!, o: d[i + 1]!, h: d[i + 2]!, l: d[i + 3]!, c: d[i + 4]!, v: Number.isNaN(d[i + 5]!) ? null : d[i + 5]! });
  }
  return out;
}

const utcBucket = (tf: Timeframe) => (t: number) => t - (t % TIMEFRAME_INFO[tf].durationMs);
/** US sub-daily buckets: hourly and 4-hour anchored at the 09:30 open of 2026-03-04; days in UTC. */
const usBucket = (tf: Timeframe) => (tf === '1h' || tf === '4h' ? (t: number) => US_OPEN + Math.floor((t - US_OPEN) / TIMEFRAME_INFO[tf].durationMs) * TIMEFRAME_INFO[tf].durationMs : utcBucket(tf));

/** Naive aggregation of accepted ticks (in arrival order): o first, h max, l min, c last, v sum. */
function aggregate(ticks: readonly Tick[], bucketOf: (t: number) => number): Bar[] {
  const groups = new Map<number, Tick[]>();
  for (const tick of ticks) {
    const t = bucketOf(tick.t);
    groups.set(t, [...(groups.get(t) ?? []), tick]);
  }
  return [...groups].map(([t, g]) => ({
    t,
    o: g[0]!.p,
    h: Math.max(...g.map((x) => x.p)),
    l: Math.min(...g.map((x) => x.p)),
    c: g.at(-1)!.p,
    v: g.reduce((sum, x) => sum + x.milli, 0) / 1000,
  }));
}

/** Feeds ticks like the pipeline does and keeps the model of which ones count: a tick whose minute is older than the latest is late. */
class Feeder {
  readonly accepted: Tick[] = [];
  private lastMinute = -Infinity;
  constructor(
    private readonly builder: BarBuilder,
    private readonly symId: number,
    private readonly inSession: (t: number) => boolean = () => true,
    before: readonly Tick[] = [],
  ) {
    for (const tick of before) this.feedModel(tick);
  }
  feed(tick: Tick): void {
    this.builder.onPrice(this.symId, tick.t, tick.p, tick.milli / 1000);
    this.feedModel(tick);
  }
  private feedModel(tick: Tick): void {
    const minute = Math.floor(tick.t / MINUTE_MS) * MINUTE_MS;
    if (!this.inSession(tick.t) || minute < this.lastMinute) return;
    this.lastMinute = minute;
    this.accepted.push(tick);
  }
  get lastAcceptedT(): number {
    return this.accepted.at(-1)?.t ?? -Infinity;
  }
}

const step = fc.record({
  gapMs: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 2 * MINUTE_MS }), weight: 9 }, { arbitrary: fc.integer({ min: 0, max: 5 * HOUR_MS }), weight: 1 }),
  price: fc.integer({ min: 1, max: 1_000_000 }),
  milli: fc.integer({ min: 1, max: 10_000 }),
  lateMs: fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.integer({ min: 1, max: 30 * MINUTE_MS }), weight: 1 }),
  sealNow: fc.boolean(),
});
const start = fc.integer({ min: Date.UTC(2026, 2, 3), max: Date.UTC(2026, 2, 5) });

function expectSealedBarsEqualAggregation(store: Store, symId: number, ticks: readonly Tick[], bucket: (tf: Timeframe) => (t: number) => number): void {
  for (const tf of TIMEFRAMES) {
    // From a day before the first tick: a window over more than 64 chunks takes another read path (see report).
    const fromMs = (ticks[0]?.t ?? FAR_FUTURE) - DAY_MS;
    expect({ tf, bars: unpack(store.barsInRange(symId, tf, fromMs, FAR_FUTURE)) }).toEqual({ tf, bars: aggregate(ticks, bucket(tf)) });
    expect(store.openBar(symId, tf)).toBeUndefined();
  }
}

describe('BarBuilder', () => {
  test('every sealed bar of every timeframe equals a naive aggregation of the ticks; late ticks are ignored', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    let symId = 0;
    fc.assert(
      fc.property(start, fc.array(step, { minLength: 1, maxLength: 200 }), (t0, steps) => {
        const builder = new BarBuilder(store);
        builder.track(++symId, CRYPTO);
        const feeder = new Feeder(builder, symId);
        let t = t0;
        for (const s of steps) {
          t += s.gapMs;
          if (s.sealNow) builder.sealDue(t);
          feeder.feed({ t, p: s.price / 100, milli: s.milli });
          if (s.lateMs > 0) feeder.feed({ t: Math.floor(feeder.lastAcceptedT / MINUTE_MS) * MINUTE_MS - s.lateMs, p: s.price / 100 + 1, milli: 1 });
        }
        builder.sealDue(FAR_FUTURE);
        expect(feeder.accepted.length).toBe(steps.length);
        expectSealedBarsEqualAggregation(store, symId, feeder.accepted, utcBucket);
      }),
      { numRuns: 60 },
    );
    await store.close();
  });

  test('each sealed minute is reported once, in order, equal to the stored bar, with the day bar rolled up to it', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    let symId = 100;
    fc.assert(
      fc.property(start, fc.array(step, { minLength: 1, maxLength: 150 }), (t0, steps) => {
        const builder = new BarBuilder(store);
        builder.track(++symId, CRYPTO);
        const reported: { minute: Bar; day: Bar | null }[] = [];
        // Copies: the builder's objects are read during the call only.
        builder.onMinuteSealed = (id, minute, day) => {
          expect(id).toBe(symId);
          reported.push({ minute: { ...minute }, day: day && { ...day } });
        };
        const feeder = new Feeder(builder, symId);
        let t = t0;
        for (const s of steps) {
          t += s.gapMs;
          if (s.sealNow) builder.sealDue(t);
          feeder.feed({ t, p: s.price / 100, milli: s.milli });
        }
        builder.sealDue(FAR_FUTURE);
        const minutes = reported.map((r) => r.minute);
        expect(minutes).toEqual(unpack(store.barsInRange(symId, '1m', t0 - DAY_MS, FAR_FUTURE)));
        for (const [i, r] of reported.entries()) {
          const dayStart = utcBucket('1d')(r.minute.t);
          const sameDay = minutes.slice(0, i + 1).filter((m) => m.t >= dayStart);
          expect(r.day).toEqual(rollUp(sameDay, utcBucket('1d'))[0]!);
        }
      }),
      { numRuns: 40 },
    );
    await store.close();
  });

  test('barInProgress of every timeframe equals the aggregation of all ticks so far in the bucket of the latest tick', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    let symId = 0;
    fc.assert(
      fc.property(start, fc.array(step, { minLength: 1, maxLength: 120 }), (t0, steps) => {
        const builder = new BarBuilder(store);
        builder.track(++symId, CRYPTO);
        const feeder = new Feeder(builder, symId);
        let t = t0;
        for (const s of steps) {
          t += s.gapMs;
          if (s.sealNow) builder.sealDue(t);
          feeder.feed({ t, p: s.price / 100, milli: s.milli });
          for (const tf of TIMEFRAMES) {
            const bucketOf = utcBucket(tf);
            const inBucket = feeder.accepted.filter((x) => bucketOf(x.t) === bucketOf(t));
            expect({ tf, bar: builder.barInProgress(symId, tf) }).toEqual({ tf, bar: aggregate(inBucket, bucketOf)[0]! });
          }
        }
      }),
      { numRuns: 60 },
    );
    await store.close();
  });

  // In the first minute of a new coarse bucket the previous coarse bar is complete: the bar in
  // progress is the new bucket, holding the new minute.
  test('barInProgress of 5m right after a bucket boundary is the new bucket holding the new minute', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const builder = new BarBuilder(store);
    builder.track(1, CRYPTO);
    const t0 = Date.UTC(2026, 2, 4);
    builder.onPrice(1, t0 + 4 * MINUTE_MS + 30_000, 10, 1);
    builder.onPrice(1, t0 + 5 * MINUTE_MS + 500, 20, 2);
    expect(builder.barInProgress(1, '5m')).toEqual({ t: t0 + 5 * MINUTE_MS, o: 20, h: 20, l: 20, c: 20, v: 2 });
    await store.close();
  });

  test('US stocks: ticks outside 09:30–16:00 New York are ignored; hourly and 4-hour bars are anchored at 09:30', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    let symId = 0;
    const inSession = (t: number) => t >= US_OPEN && t < US_CLOSE;
    fc.assert(
      fc.property(fc.array(fc.record({ gapMs: fc.integer({ min: 0, max: 5 * MINUTE_MS }), price: fc.integer({ min: 1, max: 100_000 }), milli: fc.integer({ min: 1, max: 10_000 }) }), { minLength: 1, maxLength: 150 }), (steps) => {
        const builder = new BarBuilder(store);
        builder.track(++symId, US);
        const feeder = new Feeder(builder, symId, inSession);
        let t = Date.parse('2026-03-04T13:00:00Z');
        for (const s of steps) feeder.feed({ t: (t += s.gapMs), p: s.price / 100, milli: s.milli });
        builder.sealDue(FAR_FUTURE);
        expectSealedBarsEqualAggregation(store, symId, feeder.accepted, usBucket);
      }),
      { numRuns: 40 },
    );
    await store.close();
  });

  test('US stocks: a full session gives hourly bars 09:30…15:30 and 4-hour bars 09:30 and 13:30, the last ones sealed at the 16:00 close', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const builder = new BarBuilder(store);
    builder.track(1, US);
    for (let t = Date.parse('2026-03-04T13:00:00Z'), i = 0; t < Date.parse('2026-03-04T22:00:00Z'); t += 30_000, i++) builder.onPrice(1, t, 100 + (i % 7), 1);
    const startsOf = (tf: Timeframe) => unpack(store.barsInRange(1, tf, Date.parse('2026-03-04T00:00:00Z'), FAR_FUTURE)).map((b) => new Date(b.t).toISOString().slice(11, 16));
    expect(US.barEnd(Date.parse('2026-03-04T20:30:00Z'), '1h')).toBe(US_CLOSE);
    expect(US.barEnd(Date.parse('2026-03-04T18:30:00Z'), '4h')).toBe(US_CLOSE);
    builder.sealDue(US_CLOSE - 1);
    expect(store.openBar(1, '1h')?.t).toBe(Date.parse('2026-03-04T20:30:00Z'));
    builder.sealDue(US_CLOSE + 2_000);
    expect(startsOf('1h')).toEqual(['14:30', '15:30', '16:30', '17:30', '18:30', '19:30', '20:30']);
    expect(startsOf('4h')).toEqual(['14:30', '18:30']);
    expect(store.openBar(1, '1h')).toBeUndefined();
    expect(store.openBar(1, '4h')).toBeUndefined();
    const minutes = unpack(store.barsInRange(1, '1m', Date.parse('2026-03-04T00:00:00Z'), FAR_FUTURE));
    expect(minutes.length).toBe(390);
    expect([minutes[0]!.t, minutes.at(-1)!.t]).toEqual([US_OPEN, US_CLOSE - MINUTE_MS]);
    await store.close();
  });

  test('US stocks on an early-close day: the last hourly bar ends at the 13:00 close and is sealed then', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const builder = new BarBuilder(store);
    builder.track(1, US);
    const close = Date.parse('2025-11-28T18:00:00Z');
    for (let t = Date.parse('2025-11-28T14:00:00Z'); t < Date.parse('2025-11-28T19:00:00Z'); t += 20_000) builder.onPrice(1, t, 50, 2);
    builder.sealDue(close + 2_000);
    const startsOf = (tf: Timeframe) => unpack(store.barsInRange(1, tf, Date.parse('2025-11-28T00:00:00Z'), FAR_FUTURE)).map((b) => new Date(b.t).toISOString().slice(11, 16));
    expect(startsOf('1h')).toEqual(['14:30', '15:30', '16:30', '17:30']);
    expect(startsOf('4h')).toEqual(['14:30']);
    expect(unpack(store.barsInRange(1, '1h', Date.parse('2025-11-28T00:00:00Z'), FAR_FUTURE)).at(-1)).toEqual({ t: Date.parse('2025-11-28T17:30:00Z'), o: 50, h: 50, l: 50, c: 50, v: 2 * 90 });
    expect(store.openBar(1, '1d')?.t).toBe(Date.parse('2025-11-28T00:00:00Z'));
    await store.close();
  });

  test('after reopening the store, tracking resumes the bars in progress and continues them correctly', async () => {
    await fc.assert(
      fc.asyncProperty(start, fc.array(step, { minLength: 2, maxLength: 120 }), fc.nat(), async (t0, steps, cut) => {
        using dir = tempDir();
        const split = 1 + (cut % (steps.length - 1));
        let store = Store.open({ dataDir: dir.path });
        let builder = new BarBuilder(store);
        builder.track(7, CRYPTO);
        let feeder = new Feeder(builder, 7);
        let t = t0;
        for (const s of steps.slice(0, split)) feeder.feed({ t: (t += s.gapMs), p: s.price / 100, milli: s.milli });
        const before = TIMEFRAMES.map((tf) => builder.barInProgress(7, tf));
        const accepted = feeder.accepted;
        await store.close();

        store = Store.open({ dataDir: dir.path });
        builder = new BarBuilder(store);
        builder.track(7, CRYPTO);
        expect(TIMEFRAMES.map((tf) => builder.barInProgress(7, tf))).toEqual(before);
        feeder = new Feeder(builder, 7, undefined, accepted);
        // A tick in the minute before the one in progress stays late after the restart.
        feeder.feed({ t: Math.floor(t / MINUTE_MS) * MINUTE_MS - 1, p: 999_999, milli: 1 });
        for (const s of steps.slice(split)) feeder.feed({ t: (t += s.gapMs), p: s.price / 100, milli: s.milli });
        builder.sealDue(FAR_FUTURE);
        expectSealedBarsEqualAggregation(store, 7, feeder.accepted, utcBucket);
        await store.close();
      }),
      { numRuns: 15 },
    );
  });
});
