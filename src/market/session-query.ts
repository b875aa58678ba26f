// Questions about sessions at an instant or over a date range: which session contains t, is the
// market open, when it next opens or closes. Sessions that touch (FOREX Monday close = Tuesday
// open) count as one run, so "next open" and "next close" are real transitions.
import { badRequest } from '../domain/errors.ts';
import { isValidDate } from './civil-date.ts';
import { requireDefinition } from './registry.ts';
import { MAX_YEAR, MIN_YEAR, yearCalendar } from './session-cache.ts';
import type { Holiday, MarketDefinition, Session } from './types.ts';

/** Bound on touching sessions walked through when looking for a real transition. */
const MAX_RUN = 1000;

function utcYear(tsMs: number): number {
  return new Date(tsMs).getUTCFullYear();
}

/** Index of the first session whose open is after tsMs (binary search). */
function firstOpenIndexAfter(sessions: readonly Session[], tsMs: number): number {
  let lo = 0;
  let hi = sessions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sessions[mid] as Session).openMs > tsMs) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The latest session that opened at or before tsMs. A session of local year y+1 may open in UTC year y. */
function lastOpenAtOrBefore(def: MarketDefinition, tsMs: number): Session | null {
  const year = utcYear(tsMs);
  for (let y = year + 1; y >= year - 2; y--) {
    const sessions = yearCalendar(def, y).sessions;
    const index = firstOpenIndexAfter(sessions, tsMs) - 1;
    if (index >= 0) return sessions[index] ?? null;
  }
  return null;
}

function firstOpenAfter(def: MarketDefinition, tsMs: number): Session | null {
  const year = utcYear(tsMs);
  for (let y = year - 1; y <= year + 2; y++) {
    const sessions = yearCalendar(def, y).sessions;
    const found = sessions[firstOpenIndexAfter(sessions, tsMs)];
    if (found) return found;
  }
  return null;
}

// Per-market memo of the last answer: the simulator asks with nearby timestamps, so most calls
// land in the same session or the same closed gap and skip the search entirely.
interface Memo {
  session: Session | null;
  gapFromMs: number;
  gapToMs: number;
}
const memos = new Map<string, Memo>();

export function sessionAt(code: string, tsMs: number): Session | null {
  const memo = memos.get(code);
  if (memo) {
    const s = memo.session;
    if (s && tsMs >= s.openMs && tsMs < s.closeMs) return s;
    if (tsMs >= memo.gapFromMs && tsMs < memo.gapToMs) return null;
  }
  const def = requireDefinition(code);
  const candidate = lastOpenAtOrBefore(def, tsMs);
  if (candidate && tsMs < candidate.closeMs) {
    memos.set(code, { session: candidate, gapFromMs: memo?.gapFromMs ?? 0, gapToMs: memo?.gapToMs ?? 0 });
    return candidate;
  }
  const next = firstOpenAfter(def, tsMs);
  // The searches look only a few years around tsMs: with no session found on one side (outside
  // MIN_YEAR..MAX_YEAR), the known gap ends at tsMs itself. An unbounded gap would answer null for
  // every later question about this market.
  memos.set(code, {
    session: memo?.session ?? null,
    gapFromMs: candidate ? candidate.closeMs : tsMs,
    gapToMs: next ? next.openMs : tsMs + 1,
  });
  return null;
}

/** The latest session that opened at or before tsMs, in progress or over (the session a value made then belongs to). */
export function sessionOpenedAtOrBefore(code: string, tsMs: number): Session | null {
  return lastOpenAtOrBefore(requireDefinition(code), tsMs);
}

/** Inside a session and not inside its lunch break. */
export function isOpenAt(code: string, tsMs: number): boolean {
  const session = sessionAt(code, tsMs);
  if (!session) return false;
  return session.breakStartMs === null || session.breakEndMs === null || tsMs < session.breakStartMs || tsMs >= session.breakEndMs;
}

/** Open of the first session starting after tsMs that does not merely continue the one before it. */
export function nextOpenAfter(code: string, tsMs: number): number | null {
  const def = requireDefinition(code);
  if (def.alwaysOpen) return null;
  let next = firstOpenAfter(def, tsMs);
  for (let step = 0; next && step < MAX_RUN; step++) {
    const before = lastOpenAtOrBefore(def, next.openMs - 1);
    if (!before || before.closeMs !== next.openMs) return next.openMs;
    next = firstOpenAfter(def, next.openMs);
  }
  return null;
}

/** Close of the session in progress (or the next one), walking through sessions that touch. */
export function nextCloseAfter(code: string, tsMs: number): number | null {
  const def = requireDefinition(code);
  if (def.alwaysOpen) return null;
  const current = lastOpenAtOrBefore(def, tsMs);
  let session = current && current.closeMs > tsMs ? current : firstOpenAfter(def, tsMs);
  for (let step = 0; session && step < MAX_RUN; step++) {
    const following = firstOpenAfter(def, session.closeMs - 1);
    if (!following || following.openMs !== session.closeMs) return session.closeMs;
    session = following;
  }
  return null;
}

/** The calendar years a date range touches, clamped to the years the calendars answer for. */
function yearsOf(fromDate: string, toDate: string): number[] {
  if (!isValidDate(fromDate) || !isValidDate(toDate)) throw badRequest('dates must be YYYY-MM-DD');
  const years: number[] = [];
  for (let y = Math.max(MIN_YEAR, Number(fromDate.slice(0, 4))); y <= Math.min(MAX_YEAR, Number(toDate.slice(0, 4))); y++) years.push(y);
  return years;
}

/** One row per trading day, inclusive local dates. */
export function sessionsBetween(code: string, fromDate: string, toDate: string): Session[] {
  const def = requireDefinition(code);
  const out: Session[] = [];
  for (const y of yearsOf(fromDate, toDate)) {
    for (const s of yearCalendar(def, y).sessions) if (s.date >= fromDate && s.date <= toDate) out.push(s);
  }
  return out;
}

/** Closures and early closes on days that would otherwise trade, inclusive local dates. */
export function holidaysBetween(code: string, fromDate: string, toDate: string): Holiday[] {
  const def = requireDefinition(code);
  const out: Holiday[] = [];
  for (const y of yearsOf(fromDate, toDate)) {
    for (const h of yearCalendar(def, y).holidays) if (h.date >= fromDate && h.date <= toDate) out.push({ ...h });
  }
  return out;
}

/** US regular session (09:30 to the close, early closes included) for bar alignment. */
export function usRegularSessionAt(tsMs: number): Session | null {
  return sessionAt('US', tsMs);
}
