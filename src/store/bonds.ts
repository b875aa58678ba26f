// Bond-yield observations, keyed [symbol, date] (ordered-binary): a symbol's history is one
// sequential range read in date order, its latest observation the last key of its range, a curve
// one point read per tenor. One observation per symbol and date by construction, so a re-import of
// the same dates replaces them. Writes are one synchronous transaction: an import is applied whole
// or not at all, also while a server reads the same data dir.
import type { BondObservation } from '../domain/bonds.ts';
import type { StoreDbs } from './env.ts';

/** Stored value: [yield in percent, source]. */
type Stored = [number, string];

export interface BondPoint {
  date: string;
  yieldPct: number;
  source: string;
}

export interface BondWriteSummary {
  /** Symbol-dates not stored before. */
  added: number;
  /** Symbol-dates stored before with another value or source. */
  replaced: number;
  /** Symbol-dates stored before with the same value and source. */
  unchanged: number;
}

export interface BondHistoryPage {
  /** Observations in the whole window. */
  total: number;
  points: BondPoint[];
}

/** After every date string: the exclusive end of a symbol's keys. */
const AFTER_DATES = '\uffff';

function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

function pointOf(date: string, value: Stored): BondPoint {
  return { date, yieldPct: value[0], source: value[1] };
}

export class BondStore {
  constructor(private readonly dbs: StoreDbs) {}

  /** Stores observations in one transaction; a later one for the same symbol and date wins. */
  put(observations: Iterable<BondObservation>): BondWriteSummary {
    const summary: BondWriteSummary = { added: 0, replaced: 0, unchanged: 0 };
    const seen = new Set<string>();
    this.dbs.root.transactionSync(() => {
      for (const o of observations) {
        const key = [o.symbol, o.date];
        const before = this.dbs.bonds.get(key) as Stored | undefined;
        const id = `${o.symbol}|${o.date}`;
        // A repeat inside one call counts once, as what it finally does to the stored data.
        if (!seen.has(id)) {
          seen.add(id);
          if (before === undefined) summary.added++;
          else if (before[0] === o.yieldPct && before[1] === o.source) summary.unchanged++;
          else summary.replaced++;
        }
        this.dbs.bonds.putSync(key, [o.yieldPct, o.source] satisfies Stored);
      }
    });
    return summary;
  }

  /**
   * Stores observations the caller knows are not stored yet (the simulator's next dates), in one
   * transaction, without reading what is there first: a first start writes years of them.
   */
  putNew(observations: readonly BondObservation[]): void {
    // In key order, so the B-tree grows at its ends instead of splitting pages all over it.
    const sorted = [...observations].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    this.dbs.root.transactionSync(() => {
      for (const o of sorted) this.dbs.bonds.putSync([o.symbol, o.date], [o.yieldPct, o.source] satisfies Stored);
    });
  }

  /** The most recent observation of a symbol, or undefined. */
  latest(symbol: string): BondPoint | undefined {
    for (const { key, value } of this.dbs.bonds.getRange({ start: [symbol, AFTER_DATES], end: [symbol], reverse: true, limit: 1 })) {
      return pointOf(key[1] as string, value as Stored);
    }
    return undefined;
  }

  /** The latest observation on or before `date`, or undefined. */
  latestOnOrBefore(symbol: string, date: string): BondPoint | undefined {
    for (const { key, value } of this.dbs.bonds.getRange({ start: [symbol, `${date}\u0000`], end: [symbol], reverse: true, limit: 1 })) {
      return pointOf(key[1] as string, value as Stored);
    }
    return undefined;
  }

  /** The observation of a symbol on one date, or undefined. */
  on(symbol: string, date: string): BondPoint | undefined {
    const value = this.dbs.bonds.get([symbol, date]) as Stored | undefined;
    return value === undefined ? undefined : pointOf(date, value);
  }

  /** Observations from `from` to `to` inclusive, sorted by date, then paged by offset and limit. */
  history(symbol: string, from: string, to: string, page: { offset: number; limit: number; sort: 'asc' | 'desc' }): BondHistoryPage {
    const lo = [symbol, from];
    // Dates are fixed-width, so `to` followed by NUL sorts after `to` and before the next date.
    const hi = [symbol, `${to}\u0000`];
    const total = this.dbs.bonds.getCount({ start: lo, end: hi });
    const points: BondPoint[] = [];
    if (page.offset < total) {
      // Range ends are exclusive, also in reverse: newest first ends after the day before `from`.
      const range = page.sort === 'asc' ? { start: lo, end: hi } : { start: hi, end: [symbol, `${dayBefore(from)}\u0000`], reverse: true };
      for (const { key, value } of this.dbs.bonds.getRange({ ...range, offset: page.offset, limit: page.limit })) {
        points.push(pointOf(key[1] as string, value as Stored));
      }
    }
    return { total, points };
  }
}
