// The simulator's corporate actions: two splits and quarterly dividends of a few US stocks, so
// the default data shows adjusted history. They are dated from the first start's end (kept in
// the store), so every first start's history holds them whatever its clock, and a restart makes
// the same ones again. The simulated raw prices agree with them: each series' random walk is
// continuous, and its bars are restated the way a real raw tape moves, higher by a split's ratio
// before its execution date and by the cash before an ex-date (`ActionPrices`).
import type { Bar } from '../../domain/bar.ts';
import type { Dividend, Split, SymbolActions } from '../../domain/corporate-actions.ts';
import { DAY_MS } from '../../domain/timeframes.ts';
import { sessionsBetween } from '../../market/index.ts';
import type { Store } from '../../store/index.ts';
import { roundTo } from './price-model.ts';

/** Metadata key: the first start's end the actions are dated from (absent in a data dir made before them). */
export const SIM_ACTIONS_META = 'simCorporateActions';

export interface SimActionsRecord {
  endMs: number;
}

/** Splits: the first session on or after `daysBefore` calendar days before the first start's date. */
export const SIM_SPLITS: readonly { symbol: string; daysBefore: number; from: number; to: number }[] = [
  { symbol: 'US:WMT', daysBefore: 7, from: 1, to: 4 },
  { symbol: 'US:KO', daysBefore: 182, from: 2, to: 3 },
];

/**
 * Quarterly dividends: ex-date the first session on or after `day` of each of `months` (1-12),
 * over the `SIM_DIVIDEND_YEARS` before the first start's date; `cash` per share in today's
 * shares for the last year, 4% less for each year before (a yearly raise).
 */
export const SIM_DIVIDENDS: readonly { symbol: string; months: readonly number[]; day: number; cash: number }[] = [
  { symbol: 'US:KO', months: [3, 6, 9, 12], day: 14, cash: 0.51 },
  { symbol: 'US:PG', months: [1, 4, 7, 10], day: 20, cash: 1.06 },
  { symbol: 'US:WMT', months: [3, 5, 8, 12], day: 8, cash: 0.235 },
  { symbol: 'US:XOM', months: [2, 5, 8, 11], day: 13, cash: 0.99 },
];
export const SIM_DIVIDEND_YEARS = 5;
/** The stocks with simulated actions. */
export const SIM_ACTION_SYMBOLS: ReadonlySet<string> = new Set([...SIM_SPLITS, ...SIM_DIVIDENDS].map((a) => a.symbol));
const YEARLY_RAISE = 1.04;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first US session on or after `date` (YYYY-MM-DD). */
function sessionOnOrAfter(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return sessionsBetween('US', date, isoDate(ms + 14 * DAY_MS))[0]!.date;
}

let memo: { endMs: number; actions: SymbolActions } | null = null;

/** Every simulated action, dated from the first start's end; all strictly before its UTC date. */
export function simulatedActions(endMs: number): SymbolActions {
  if (memo?.endMs !== endMs) memo = { endMs, actions: makeActions(endMs) };
  return memo.actions;
}

function makeActions(endMs: number): SymbolActions {
  const today = isoDate(endMs);
  const dayStart = Date.parse(`${today}T00:00:00Z`);
  const splits: Split[] = SIM_SPLITS.map((s) => ({ symbol: s.symbol, date: sessionOnOrAfter(isoDate(dayStart - s.daysBefore * DAY_MS)), from: s.from, to: s.to }));
  const dividends: Dividend[] = [];
  const firstYear = Number(today.slice(0, 4)) - SIM_DIVIDEND_YEARS;
  const oldest = isoDate(dayStart - Math.round(SIM_DIVIDEND_YEARS * 365.25) * DAY_MS);
  for (const d of SIM_DIVIDENDS) {
    for (let year = firstYear; year <= Number(today.slice(0, 4)); year++) {
      for (const month of d.months) {
        const exDate = sessionOnOrAfter(`${year}-${String(month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`);
        if (exDate < oldest || exDate >= today) continue;
        const yearsBack = Math.floor((dayStart - Date.parse(`${exDate}T00:00:00Z`)) / (365 * DAY_MS));
        // As paid: in the shares of the ex-date, so more per share before a later split.
        const ratio = laterSplitRatio(splits, d.symbol, exDate);
        const cash = roundTo((d.cash / YEARLY_RAISE ** yearsBack) * ratio, 4);
        const ex = Date.parse(`${exDate}T00:00:00Z`);
        dividends.push({ symbol: d.symbol, exDate, cash, payDate: isoDate(ex + 21 * DAY_MS), recordDate: exDate, declarationDate: isoDate(ex - 28 * DAY_MS), frequency: 4, dividendType: 'CD' });
      }
    }
  }
  return { splits, dividends };
}

/** The product of `to/from` of the symbol's splits dated after `date`: how many of today's shares one share of then is. */
function laterSplitRatio(splits: readonly Split[], symbol: string, date: string): number {
  let ratio = 1;
  for (const s of splits) if (s.symbol === symbol && s.date > date) ratio *= s.to / s.from;
  return ratio;
}

/**
 * The actions the store's simulated history was made with, of the stocks among `symbols`: null
 * when none has any, or for a data dir made before the simulator had actions.
 */
export function storedSimActions(store: Store, symbols: Iterable<string>): SymbolActions | null {
  const record = store.getMeta<SimActionsRecord>(SIM_ACTIONS_META);
  const wanted = new Set([...symbols].filter((s) => SIM_ACTION_SYMBOLS.has(s)));
  if (record === undefined || wanted.size === 0) return null;
  const all = simulatedActions(record.endMs);
  return { splits: all.splits.filter((a) => wanted.has(a.symbol)), dividends: all.dividends.filter((a) => wanted.has(a.symbol)) };
}

/**
 * Writes the actions through the store as `mds import splits|dividends` does (one transaction;
 * the same actions again change nothing) and notes the symbols for the cluster's edges.
 */
export async function writeSimActions(store: Store, actions: SymbolActions): Promise<void> {
  const written = store.corporateActions.put(actions.splits, actions.dividends);
  if (written.added + written.replaced > 0) await store.historyChanges.note({ kind: 'actions', symbols: [...new Set([...actions.splits, ...actions.dividends].map((a) => a.symbol))] });
}

/**
 * A series' raw prices from its continuous walk: raw = (walk + later cash) × later split ratio,
 * where "later" counts the actions dated after the bar (an action applies to bars before UTC
 * midnight of its date, as in domain/adjustment.ts). Cash is in today's shares here (as paid ÷
 * the ratio of the splits after its ex-date). Volume is in the shares of the bar's day.
 */
export class ActionPrices {
  /** Ascending UTC midnights; bars before cutoffs[j] and at or after cutoffs[j-1] get ratio[j] and cash[j]. */
  private readonly cutoffs: number[];
  private readonly ratio: number[];
  private readonly cash: number[];

  private constructor(splits: readonly Split[], dividends: readonly Dividend[]) {
    const events = [...splits.map((s) => ({ t: Date.parse(`${s.date}T00:00:00Z`), ratio: s.to / s.from, cash: 0 })), ...dividends.map((d) => ({ t: Date.parse(`${d.exDate}T00:00:00Z`), ratio: 1, cash: d.cash / laterSplitRatio(splits, d.symbol, d.exDate) }))].sort((a, b) => a.t - b.t);
    this.cutoffs = events.map((e) => e.t);
    this.ratio = new Array(events.length + 1).fill(1);
    this.cash = new Array(events.length + 1).fill(0);
    for (let j = events.length - 1; j >= 0; j--) {
      this.ratio[j] = this.ratio[j + 1]! * events[j]!.ratio;
      this.cash[j] = this.cash[j + 1]! + events[j]!.cash;
    }
  }

  /** The raw-price map of one stock, or null when it has no action (its walk is its raw prices). */
  static of(actions: SymbolActions | null, assetClass: string, symbol: string): ActionPrices | null {
    if (actions === null || assetClass !== 'stocks') return null;
    const splits = actions.splits.filter((s) => s.symbol === symbol);
    const dividends = actions.dividends.filter((d) => d.symbol === symbol);
    return splits.length + dividends.length === 0 ? null : new ActionPrices(splits, dividends);
  }

  private segment(t: number): number {
    let j = 0;
    while (j < this.cutoffs.length && t >= this.cutoffs[j]!) j++;
    return j;
  }

  /** The bars as a raw tape shows them (new objects; prices rounded to `decimals`, volume to whole shares). */
  toRaw(bars: readonly Bar[], decimals: number): Bar[] {
    return bars.map((b) => {
      const j = this.segment(b.t);
      const r = this.ratio[j]!;
      const c = this.cash[j]!;
      if (r === 1 && c === 0) return b;
      const raw = (p: number) => roundTo((p + c) * r, decimals);
      return { t: b.t, o: raw(b.o), h: raw(b.h), l: raw(b.l), c: raw(b.c), v: b.v === null ? null : Math.round(b.v / r) };
    });
  }

  /** The walk's price behind a raw price of a bar at `t` (where a walk goes on from a stored bar). */
  toWalk(rawPrice: number, t: number): number {
    const j = this.segment(t);
    return rawPrice / this.ratio[j]! - this.cash[j]!;
  }
}
