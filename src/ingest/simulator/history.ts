// History for the simulated universe. On first start each series' head (its last days of
// minutes and the bars in progress) is written before the server opens; older history follows in
// steps, newest first, generated backwards from the oldest bar built (1-minute bars for the most
// recent days, coarser bars further back, daily bars for years). After a restart the gap since the
// last stored minute is filled forwards. Coarse bars are always rolled up from finer ones, so
// every timeframe agrees with the bars below it.
import { foldBar, type Bar } from '../../domain/bar.ts';
import type { InstrumentSpec, SymbolEntry } from '../../domain/instrument.ts';
import { CLASS_POLICY, registryKeyOf } from '../../domain/asset-classes.ts';
import { DAY_MS, MINUTE_MS, TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../../domain/timeframes.ts';
import { alignmentFor, type BarAlignment } from '../../market/bar-alignment.ts';
import { sessionsBetween } from '../../market/index.ts';
import type { Store } from '../../store/index.ts';
import type { ActionPrices } from './corporate-actions.ts';
import { calendarOf } from './hours.ts';
import { expectedVolume, roundTo, sigmaOver, SIM_TRADES_PER_SECOND, stepPrice } from './price-model.ts';
import { Rng, seedFor } from './random.ts';

export interface HistoryPlan {
  /** Calendar days of 1-minute bars, today included (the longest 1-minute window is 31). */
  minuteDays: number;
  /** Years of daily bars. */
  years: number;
}

/** How far back each timeframe is generated as the finest bar (the spec's maximum windows). */
export const FINEST_SPAN_DAYS: [Timeframe, number][] = [
  ['5m', 90],
  ['15m', 180],
  ['1h', 365],
  ['4h', 730],
];

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Bar starts of `tf` inside the instrument's trading sessions, fromMs ≤ t < toMs, ascending. */
export function barTimes(calendar: string, align: BarAlignment, tf: Timeframe, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  if (toMs <= fromMs) return out;
  const sessions = sessionsBetween(calendar, isoDate(fromMs - DAY_MS), isoDate(toMs + DAY_MS));
  if (tf === '1d') {
    const seen = new Set<number>();
    for (const s of sessions) {
      const t = Date.parse(`${s.date}T00:00:00Z`);
      if (t >= fromMs && t < toMs && !seen.has(t)) {
        seen.add(t);
        out.push(t);
      }
    }
    return out;
  }
  const dur = TIMEFRAME_INFO[tf].durationMs;
  let last = -Infinity;
  for (const s of sessions) {
    for (let ts = Math.max(s.openMs, fromMs); ts < Math.min(s.closeMs, toMs); ) {
      if (s.breakStartMs !== null && s.breakEndMs !== null && ts >= s.breakStartMs && ts < s.breakEndMs) {
        ts = s.breakEndMs;
        continue;
      }
      const t = align.barStart(ts, tf);
      if (t > last && t >= fromMs - dur) {
        out.push(t);
        last = t;
      }
      ts = t + dur;
    }
  }
  return out;
}

/** Generates bars at `times` ending (backwards) or starting (forwards) at `anchorPrice`. */
export function synthesizeBars(spec: InstrumentSpec, times: readonly number[], durMs: number, anchorPrice: number, direction: 'backward' | 'forward', rng: Rng): Bar[] {
  const sigma = sigmaOver(spec, durMs) / 2;
  const hasVolume = CLASS_POLICY[spec.assetClass].hasVolume;
  const bars: Bar[] = new Array(times.length);
  let price = anchorPrice;
  const make = (t: number, from: number): { bar: Bar; to: number } => {
    let p = from;
    let hi = p;
    let lo = p;
    for (let k = 0; k < 4; k++) {
      p = stepPrice(p, sigma, rng);
      if (p > hi) hi = p;
      if (p < lo) lo = p;
    }
    const first = roundTo(from, spec.decimals);
    const last = roundTo(p, spec.decimals);
    const [o, c] = direction === 'forward' ? [first, last] : [last, first];
    const h = Math.max(roundTo(hi * (1 + Math.abs(rng.normal()) * sigma * 0.2), spec.decimals), o, c);
    const l = Math.min(roundTo(lo * (1 - Math.abs(rng.normal()) * sigma * 0.2), spec.decimals), o, c);
    const v = hasVolume ? expectedVolume(spec, durMs, SIM_TRADES_PER_SECOND, rng) : null;
    return { bar: { t, o, h, l, c, v }, to: p };
  };
  if (direction === 'forward') {
    for (let i = 0; i < times.length; i++) {
      const { bar, to } = make(times[i]!, price);
      bars[i] = bar;
      price = to;
    }
  } else {
    for (let i = times.length - 1; i >= 0; i--) {
      const { bar, to } = make(times[i]!, price);
      bars[i] = bar;
      price = to;
    }
  }
  return bars;
}

/**
 * Writes ascending, completed 1-minute bars ending at `endMs` and everything rolled up from them,
 * as the bar builder would have: coarse bars that end by `endMs` are completed, the last one of
 * each timeframe stays in progress. Bars left in progress by an earlier run are continued: a
 * minute in progress that has ended since is completed and, like every new minute, folded into
 * the coarser bars in progress, one minute at a time in time order (the order the bar builder
 * folds them in, so even volume sums round alike).
 */
export function writeMinuteHistory(store: Store, entry: SymbolEntry, minutes: readonly Bar[], endMs: number): void {
  const align = alignmentFor(entry);
  const first = minutes[0];
  const openMinute = store.openBar(entry.id, '1m') ?? null;
  // A minute in progress after the new ones contradicts them (it cannot happen: gaps are filled
  // after it); it is dropped rather than folded twice.
  const leftover = openMinute && align.barEnd(openMinute.t, '1m') <= endMs && (first === undefined || openMinute.t < first.t) ? openMinute : null;
  const completedMinutes = leftover ? [leftover, ...minutes] : minutes;
  for (const tf of TIMEFRAMES) {
    const open = tf === '1m' ? (leftover === null && first === undefined ? openMinute : null) : (store.openBar(entry.id, tf) ?? null);
    let current: Bar | null = open && { ...open };
    const completed: Bar[] = [];
    for (const minute of completedMinutes) {
      const t = align.barStart(minute.t, tf);
      if (current && current.t === t) {
        foldBar(current, minute);
      } else {
        if (current) completed.push(current);
        current = { ...minute, t };
      }
    }
    if (current && align.barEnd(current.t, tf) <= endMs) {
      completed.push(current);
      current = null;
    }
    store.appendHistory(entry.id, tf, completed);
    store.setOpenBar(entry.id, tf, current);
  }
}

/** How far back the last sessions of a market are looked for (the longest closures are under two weeks). */
export const LAST_SESSION_SEARCH_DAYS = 21;

/** UTC day starts of the calendar's sessions that opened before `endMs`, newest first, at most `count`. */
function lastSessionDays(calendar: string, endMs: number, count: number): number[] {
  const sessions = sessionsBetween(calendar, isoDate(endMs - LAST_SESSION_SEARCH_DAYS * DAY_MS), isoDate(endMs + DAY_MS));
  const days = new Set<number>();
  for (const s of sessions) if (s.openMs < endMs) days.add(Math.floor(s.openMs / DAY_MS) * DAY_MS);
  return [...days].sort((a, b) => b - a).slice(0, count);
}

/**
 * Where a series' head starts: the history written before the server opens. It reaches back to
 * the start of today and of the market's last session, so the bars in progress, the closing book
 * and the last trade resolve at once; older history (yesterday first) follows in the background.
 * Always a UTC midnight: every bar of every timeframe lies within one UTC day (bar-alignment.ts).
 */
export function headFromMs(spec: InstrumentSpec, endMs: number): number {
  const today = Math.floor(endMs / DAY_MS) * DAY_MS;
  return Math.min(today, ...lastSessionDays(calendarOf(spec), endMs, 1));
}

/**
 * Writes a series' head, [headFromMs, endMs), as the bar builder would have: completed bars and
 * the bars left in progress at `endMs`, which the live bar builder resumes. Generated backwards
 * from the instrument's reference level; returns the walk's open of the oldest minute (where the
 * background build walks on), or the reference level when the head has no minute. A stock with
 * simulated corporate actions gets its walk restated as raw prices (corporate-actions.ts).
 */
export function writeHead(store: Store, entry: SymbolEntry, spec: InstrumentSpec, endMs: number, seed: number, prices: ActionPrices | null = null): number {
  const times = barTimes(calendarOf(spec), alignmentFor(entry), '1m', headFromMs(spec, endMs), endMs);
  const rng = new Rng(seedFor(seed, `history:${registryKeyOf(entry.assetClass, entry.symbol)}`));
  const minutes = synthesizeBars(spec, times, MINUTE_MS, spec.price, 'backward', rng);
  writeMinuteHistory(store, entry, prices ? prices.toRaw(minutes, spec.decimals) : minutes, endMs);
  return minutes[0]?.o ?? spec.price;
}

/** The newest stored minute of a series, completed or in progress, or null when it has none. */
function lastStoredMinute(store: Store, entry: SymbolEntry): Bar | null {
  const lastT = store.lastCompletedBarT(entry.id, '1m');
  const open = store.openBar(entry.id, '1m');
  if (open && (lastT === null || open.t > lastT)) return open;
  return lastT !== null ? store.lastBarBefore(entry.id, '1m', lastT + 1) : null;
}

/** After a restart: fills the minutes since the last stored minute, walking on from its close. */
export function fillGap(store: Store, entry: SymbolEntry, spec: InstrumentSpec, endMs: number, maxDays: number, rng: Rng): number {
  const lastMinute = lastStoredMinute(store, entry);
  if (!lastMinute) return 0;
  const from = Math.max(lastMinute.t + MINUTE_MS, endMs - maxDays * DAY_MS);
  const times = barTimes(calendarOf(spec), alignmentFor(entry), '1m', from, endMs);
  const bars = synthesizeBars(spec, times, MINUTE_MS, lastMinute.c, 'forward', rng);
  writeMinuteHistory(store, entry, bars, endMs);
  return bars.length;
}

/**
 * Brings one series' recent history up to `endMs` (a minute boundary), whatever an earlier run
 * left: a series without minutes gets its head (a first start, one killed before it reached this
 * series, or a series new to the catalog); one with minutes is continued from its last minute,
 * never made again (that would append minutes generated for another end). Returns the 1-minute
 * bars a fill added (0 for a head). A fill walks on from the last raw close unrestated: the
 * simulated actions all lie before the first start's end.
 */
export function extendHistory(store: Store, entry: SymbolEntry, spec: InstrumentSpec, endMs: number, plan: HistoryPlan, seed: number, prices: ActionPrices | null = null): number {
  if (lastStoredMinute(store, entry) === null) {
    writeHead(store, entry, spec, endMs, seed, prices);
    return 0;
  }
  // Seeded by the end too: each fill walks on its own path, not the one the last fill took.
  const key = registryKeyOf(entry.assetClass, entry.symbol);
  return fillGap(store, entry, spec, endMs, plan.minuteDays, new Rng(seedFor(seed, `gap:${key}:${endMs}`)));
}
