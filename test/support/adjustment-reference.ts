// A reference model of split and dividend adjustment, written from the formulas of issue 32 and
// nothing of src/domain/adjustment.ts: every bar is adjusted on its own by looping over every
// action, comparing dates as text.
//  - split: a bar dated before the execution date has its prices divided by split_to ÷ split_from
//    and its volume multiplied by it;
//  - dividend (CRSP): a bar dated before the ex-date has its prices multiplied by
//    1 − cash ÷ P, P the last raw daily close dated before the ex-date, divided by the ratio of
//    every split executed after that close's date and on or before the ex-date (so cash and P are
//    per share of the same count). No such close, or cash ≥ P: the dividend changes nothing.
import type { Bar } from '../../src/domain/bar.ts';

export interface RefSplit {
  date: string;
  from: number;
  to: number;
}

export interface RefDividend {
  exDate: string;
  cash: number;
}

export type RefAdjustment = 'raw' | 'split' | 'dividend' | 'all';

const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10);

export function referenceAdjust(bars: readonly Bar[], dailyBars: readonly Bar[], splits: readonly RefSplit[], dividends: readonly RefDividend[], adjustment: RefAdjustment): Bar[] {
  const useSplits = adjustment === 'split' || adjustment === 'all';
  const useDividends = adjustment === 'dividend' || adjustment === 'all';
  return bars.map((bar) => {
    const date = dateOf(bar.t);
    let o = bar.o;
    let h = bar.h;
    let l = bar.l;
    let c = bar.c;
    let v = bar.v;
    if (useSplits) {
      for (const s of splits) {
        if (date < s.date) {
          const ratio = s.to / s.from;
          o /= ratio;
          h /= ratio;
          l /= ratio;
          c /= ratio;
          if (v !== null) v *= ratio;
        }
      }
    }
    if (useDividends) {
      for (const d of dividends) {
        if (!(date < d.exDate)) continue;
        let prev: Bar | null = null;
        for (const day of dailyBars) if (dateOf(day.t) < d.exDate && (prev === null || day.t > prev.t)) prev = day;
        if (prev === null) continue;
        let p = prev.c;
        for (const s of splits) if (s.date > dateOf(prev.t) && s.date <= d.exDate) p /= s.to / s.from;
        const factor = 1 - d.cash / p;
        if (!(factor > 0)) continue;
        o *= factor;
        h *= factor;
        l *= factor;
        c *= factor;
      }
    }
    return { t: bar.t, o, h, l, c, v };
  });
}
