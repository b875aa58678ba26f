// The adjustment schedule of one symbol as the REST layer applies it: the symbol's corporate
// actions from the store, the previous daily closes its dividends need, the service clock's date
// for which actions are in force. Kept per store and symbol while nothing it was built from has
// changed: the actions (a counter any importing process moves), the date, and the symbol's daily
// bars (a new one may be a dividend's previous close; an import may rewrite one).
import { buildSchedule, cutoffOf, utcDateOf, type Adjustment, type AdjustmentSchedule } from '../../domain/adjustment.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import type { Store } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

interface Cached {
  schedule: AdjustmentSchedule;
  /** What it was built from, joined: actions counter, date, daily last bar and revision. */
  token: string;
}

const MAX_ENTRIES = 4096;
const caches = new WeakMap<object, Map<string, Cached>>();

function tokenOf(store: Store, symId: number, today: string): string {
  return `${store.corporateActions.version()}|${today}|${store.lastCompletedBarT(symId, '1d') ?? ''}|${store.barsRevision(symId, '1d')}`;
}

/** The schedule `adjustment` puts on the bars of `entry` now (raw: none). */
export function adjustmentScheduleOf(deps: ApiDeps, entry: SymbolEntry, adjustment: Exclude<Adjustment, 'raw'>): AdjustmentSchedule {
  const { store } = deps;
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  const key = `${entry.id}:${adjustment}`;
  const today = utcDateOf(deps.clock.nowMs());
  const token = tokenOf(store, entry.id, today);
  const hit = cache.get(key);
  if (hit && hit.token === token) return hit.schedule;
  const actions = store.corporateActions.of(entry.symbol);
  const schedule = buildSchedule(adjustment, actions, today, (exDate) => {
    const bar = store.lastBarBefore(entry.id, '1d', cutoffOf(exDate));
    return bar && { close: bar.c, date: utcDateOf(bar.t) };
  });
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { schedule, token });
  return schedule;
}
