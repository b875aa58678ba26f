// Checks a store's bars against the roll-up of its 1-minute bars, for every series and timeframe:
// what restart, kill and history tests assert after any sequence of starts and stops.
import { ASSET_CLASSES } from '../../src/domain/asset-classes.ts';
import type { Bar } from '../../src/domain/bar.ts';
import { DAY_MS, TIMEFRAMES } from '../../src/domain/timeframes.ts';
import { alignmentFor } from '../../src/market/bar-alignment.ts';
import { BAR_FIELDS, type Store } from '../../src/store/index.ts';

const FAR_MS = Date.parse('2100-01-01T00:00:00Z');

/** Completed bars of a series with t ≥ fromMs, ascending. */
export function storedBars(store: Store, id: number, tf: (typeof TIMEFRAMES)[number], fromMs: number): Bar[] {
  const d = store.barsInRange(id, tf, fromMs, FAR_MS).data;
  const out: Bar[] = [];
  for (let i = 0; i < d.length; i += BAR_FIELDS) out.push({ t: d[i]!, o: d[i + 1]!, h: d[i + 2]!, l: d[i + 3]!, c: d[i + 4]!, v: Number.isNaN(d[i + 5]!) ? null : d[i + 5]! });
  return out;
}

/** Naive roll-up: o first, h max, l min, c last, v the running sum rounded to 8 decimals at each step, as volumes are stored. */
export function naiveRollUp(minutes: readonly Bar[], bucketOf: (t: number) => number): Bar[] {
  const groups = new Map<number, Bar[]>();
  for (const m of minutes) {
    const t = bucketOf(m.t);
    const group = groups.get(t);
    if (group) group.push(m);
    else groups.set(t, [m]);
  }
  return [...groups].map(([t, g]) => ({
    t,
    o: g[0]!.o,
    h: Math.max(...g.map((b) => b.h)),
    l: Math.min(...g.map((b) => b.l)),
    c: g.at(-1)!.c,
    v: g[0]!.v === null ? null : g.reduce((sum, b) => Math.round((sum + b.v!) * 1e8) / 1e8, 0),
  }));
}

export interface RollUpReport {
  /** Series with at least one 1-minute bar. */
  series: number;
  /** Coarse bars compared. */
  bars: number;
  /** Every difference found, described (empty when consistent). */
  mismatches: string[];
}

/**
 * For every series with minutes since `minuteFromMs` (a UTC midnight, where the 1-minute history
 * starts): each coarser timeframe's completed bars plus its bar in progress equal the roll-up of
 * the completed minutes (the minute in progress is in no coarse bar yet), and minutes ascend.
 */
export function checkRollUps(store: Store, minuteFromMs: number): RollUpReport {
  const report: RollUpReport = { series: 0, bars: 0, mismatches: [] };
  for (const cls of ASSET_CLASSES) {
    for (const entry of store.registry.all(cls)) {
      const minutes = storedBars(store, entry.id, '1m', minuteFromMs);
      if (minutes.length === 0) continue;
      report.series++;
      const name = `${cls}:${entry.symbol}`;
      for (let i = 1; i < minutes.length; i++) if (minutes[i]!.t <= minutes[i - 1]!.t) report.mismatches.push(`${name} 1m: t ${minutes[i]!.t} after ${minutes[i - 1]!.t}`);
      const align = alignmentFor(entry);
      for (const tf of TIMEFRAMES) {
        if (tf === '1m') continue;
        // Buckets that start before the 1-minute history also hold coarser history bars.
        const rolled = naiveRollUp(minutes, (t) => align.barStart(t, tf)).filter((b) => b.t >= minuteFromMs);
        if (rolled.length === 0) continue;
        const open = store.openBar(entry.id, tf);
        const actual = storedBars(store, entry.id, tf, rolled[0]!.t);
        if (open) actual.push(open);
        report.bars += rolled.length;
        const n = Math.max(actual.length, rolled.length);
        for (let i = 0; i < n; i++) {
          const [got, want] = [actual[i], rolled[i]];
          if (JSON.stringify(got) !== JSON.stringify(want)) {
            report.mismatches.push(`${name} ${tf} #${i}: stored ${JSON.stringify(got)}, minutes roll up to ${JSON.stringify(want)}`);
            break;
          }
        }
      }
    }
  }
  return report;
}

/**
 * Made-up minutes (history and gap fills) with fromMs ≤ t < toMs that repeat the one before them:
 * the same o, h, l, c and volume. Their volumes are continuous, so equal ones are copies, not
 * chance (series without volume, and live minutes with a few whole-lot trades, can repeat by chance).
 */
export function copiedMinutes(store: Store, fromMs: number, toMs: number): string[] {
  const copies: string[] = [];
  for (const cls of ASSET_CLASSES) {
    for (const entry of store.registry.all(cls)) {
      const minutes = storedBars(store, entry.id, '1m', fromMs).filter((m) => m.t < toMs);
      for (let i = 1; i < minutes.length; i++) {
        const [a, b] = [minutes[i - 1]!, minutes[i]!];
        if (a.v !== null && a.o === b.o && a.h === b.h && a.l === b.l && a.c === b.c && a.v === b.v) copies.push(`${cls}:${entry.symbol} ${JSON.stringify([a, b])}`);
      }
    }
  }
  return copies;
}

/** UTC midnight of the day `days - 1` before the one holding `endMs`: where `--history-days days` minutes start. */
export function minuteHistoryFrom(endMs: number, days: number): number {
  return Math.floor(endMs / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
}
