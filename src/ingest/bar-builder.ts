// Builds every timeframe's bars as consolidated prices arrive: the 1-minute bar in progress takes
// each price; a completed 1-minute bar is folded into the coarser bars in progress; a bar is
// sealed (written once, immutable) when a later price opens the next one or its end has passed.
import { foldBar, foldPrice, openBar, type Bar } from '../domain/bar.ts';
import { TIMEFRAMES, type Timeframe } from '../domain/timeframes.ts';
import type { BarAlignment } from '../market/bar-alignment.ts';
import type { Store } from '../store/index.ts';

const COARSER: readonly Timeframe[] = TIMEFRAMES.filter((tf) => tf !== '1m');

/**
 * Told of each 1-minute bar as it is sealed (it never changes after), with the day's bar in
 * progress that now holds it. Both are the builder's own objects: read them during the call.
 */
export type MinuteSealed = (symId: number, minute: Readonly<Bar>, day: Readonly<Bar> | null) => void;

interface Series {
  symId: number;
  align: BarAlignment;
  /** The 1-minute bar in progress. */
  minute: Bar | null;
  /** Coarser bars in progress, holding the completed minutes folded so far. */
  coarse: Map<Timeframe, Bar>;
  /** Start of the last sealed minute: prices at or before it are late and ignored. */
  sealedMinuteT: number;
}

export class BarBuilder {
  /** By symId (a lookup per price), and as a list to sweep. */
  private readonly series: (Series | undefined)[] = [];
  private readonly all: Series[] = [];
  /** Set by the ingest path while something listens for sealed bars; one check per sealed minute otherwise. */
  onMinuteSealed: MinuteSealed | null = null;

  constructor(
    private readonly store: Store,
    /** Prices this late after a bar's end still count before the bar is sealed by time. */
    private readonly graceMs = 1500,
  ) {}

  /** Registers a symbol and resumes its bars in progress from the store. */
  track(symId: number, align: BarAlignment): void {
    const coarse = new Map<Timeframe, Bar>();
    for (const tf of COARSER) {
      const bar = this.store.openBar(symId, tf);
      if (bar) coarse.set(tf, bar);
    }
    const series: Series = {
      symId,
      align,
      minute: this.store.openBar(symId, '1m') ?? null,
      coarse,
      sealedMinuteT: this.store.lastCompletedBarT(symId, '1m') ?? -Infinity,
    };
    const known = this.series[symId];
    if (known) this.all[this.all.indexOf(known)] = series;
    else this.all.push(series);
    this.series[symId] = series;
  }

  /** Folds one price into the symbol's bars. `size` is null when the class has no volume. */
  onPrice(symId: number, tsMs: number, price: number, size: number | null): void {
    const s = this.series[symId];
    if (s === undefined || !s.align.accepts(tsMs)) return;
    const t = s.align.barStart(tsMs, '1m');
    if (t <= s.sealedMinuteT) return;
    const minute = s.minute;
    if (minute && minute.t === t) {
      foldPrice(minute, price, size);
    } else {
      if (minute) {
        if (t < minute.t) return;
        this.sealMinute(s);
      }
      s.minute = openBar(t, price, size);
      // A price of a new bucket completes the coarse bars of the previous one at once.
      for (const [tf, acc] of s.coarse) {
        if (acc.t !== s.align.barStart(t, tf)) this.sealCoarse(s, tf, acc);
      }
    }
    this.store.setOpenBar(symId, '1m', s.minute);
  }

  /** Seals every bar whose end is more than the grace period behind `nowMs`. */
  sealDue(nowMs: number): void {
    const cutoff = nowMs - this.graceMs;
    for (const s of this.all) {
      if (s.minute && s.align.barEnd(s.minute.t, '1m') <= cutoff) this.sealMinute(s);
      for (const [tf, bar] of s.coarse) {
        if (s.align.barEnd(bar.t, tf) <= cutoff) this.sealCoarse(s, tf, bar);
      }
    }
  }

  /** The bar in progress of a timeframe, including the minute in progress. */
  barInProgress(symId: number, tf: Timeframe): Bar | null {
    const s = this.series[symId];
    if (!s) return null;
    if (tf === '1m') return s.minute ? { ...s.minute } : null;
    const acc = s.coarse.get(tf);
    const minute = s.minute;
    const minuteInBar = minute && s.align.barStart(minute.t, tf);
    if (acc && minute && minuteInBar === acc.t) {
      const merged = { ...acc };
      foldBar(merged, minute);
      return merged;
    }
    if (minute) return { ...minute, t: minuteInBar as number };
    if (acc) return { ...acc };
    return null;
  }

  private sealCoarse(s: Series, tf: Timeframe, bar: Bar): void {
    this.store.appendBar(s.symId, tf, bar);
    s.coarse.delete(tf);
    this.store.setOpenBar(s.symId, tf, null);
  }

  private sealMinute(s: Series): void {
    const minute = s.minute;
    if (!minute) return;
    s.minute = null;
    s.sealedMinuteT = minute.t;
    this.store.appendBar(s.symId, '1m', minute);
    this.store.setOpenBar(s.symId, '1m', null);
    for (const tf of COARSER) {
      const t = s.align.barStart(minute.t, tf);
      const acc = s.coarse.get(tf);
      if (acc && acc.t === t) {
        foldBar(acc, minute);
      } else {
        if (acc) this.store.appendBar(s.symId, tf, acc);
        s.coarse.set(tf, { ...minute, t });
      }
      this.store.setOpenBar(s.symId, tf, s.coarse.get(tf)!);
    }
    this.onMinuteSealed?.(s.symId, minute, s.coarse.get('1d') ?? null);
  }
}
