// The session fields of classes whose values belong to a trading session (the US overnight
// session): which session a value was made in and whether it is still in progress, appended to
// the per-class bodies. Outside the session the last overnight values are served with the session
// they came from, never regular-session values.
import { CLASS_POLICY } from '../../domain/asset-classes.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import type { Timeframe } from '../../domain/timeframes.ts';
import { sessionOpenedAtOrBefore, sessionsBetween, type Session } from '../../market/index.ts';
import type { ApiDeps } from '../deps.ts';
import { lastTradeOf, quoteBody, snapshotOf } from './latest.ts';

function fieldsOf(deps: ApiDeps, session: Session | null): string {
  if (!session) return ',"session_start":null,"session_end":null,"session_open":false';
  const now = deps.clock.nowMs();
  return `,"session_start":${session.openMs},"session_end":${session.closeMs},"session_open":${now >= session.openMs && now < session.closeMs}`;
}

/** `,"session_start":…,"session_end":…,"session_open":…` for the session that contains `tsMs`. */
export function sessionFieldsJson(deps: ApiDeps, entry: SymbolEntry, tsMs: number | null): string {
  const session = tsMs === null ? null : sessionOpenedAtOrBefore(CLASS_POLICY[entry.assetClass].calendar, tsMs);
  // A value stamped on the close instant itself (timestamps nudged forward by a millisecond) still belongs to it.
  return fieldsOf(deps, session !== null && tsMs !== null && tsMs <= session.closeMs ? session : null);
}

/** The session a bar lies in: for a daily bar (a UTC date) the session of that date, else the one containing its start. */
export function barSessionFieldsJson(deps: ApiDeps, entry: SymbolEntry, barStartMs: number, tf: Timeframe): string {
  if (tf !== '1d') return sessionFieldsJson(deps, entry, barStartMs);
  const date = new Date(barStartMs).toISOString().slice(0, 10);
  return fieldsOf(deps, sessionsBetween(CLASS_POLICY[entry.assetClass].calendar, date, date)[0] ?? null);
}

/** A JSON object body with the fields added before its closing brace. */
export function withFields(body: string, fields: string): string {
  return body.slice(0, -1) + fields + '}';
}

export function sessionQuoteBody(deps: ApiDeps, entry: SymbolEntry): string {
  const body = quoteBody(deps, entry);
  return withFields(body, sessionFieldsJson(deps, entry, deps.store.latest(entry.id)?.quote?.tsMs ?? null));
}

export function sessionTradeBody(deps: ApiDeps, entry: SymbolEntry): string {
  const trade = lastTradeOf(deps, entry);
  return withFields(JSON.stringify(trade), sessionFieldsJson(deps, entry, trade.timestamp));
}

/** The session of the newest value in the snapshot (the quote or the last trade). */
export function sessionSnapshotBody(deps: ApiDeps, entry: SymbolEntry): string {
  const snapshot = snapshotOf(deps, entry);
  const quoteTs = deps.store.latest(entry.id)?.quote?.tsMs ?? null;
  const newest = Math.max(quoteTs ?? -Infinity, snapshot.last_timestamp ?? -Infinity);
  return withFields(JSON.stringify(snapshot), sessionFieldsJson(deps, entry, Number.isFinite(newest) ? newest : null));
}
