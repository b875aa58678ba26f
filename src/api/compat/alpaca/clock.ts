// The Alpaca-compatible US market clock and calendar (`/v2/clock`, `/v2/calendar`), from the mds
// US calendar: regular hours, early closes, holidays, and the 04:00-20:00 extended session.
import { DateTime } from 'luxon';
import { badRequest } from '../../../domain/errors.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import { addDays, isValidDate, localDateOf, marketStatusAt, MAX_YEAR, MIN_YEAR, sessionsBetween, toDayNumber } from '../../../market/index.ts';
import type { ApiDeps } from '../../deps.ts';

const NEW_YORK = 'America/New_York';
/** Longest calendar window answered at once, both ends included (ten years). */
const MAX_CALENDAR_DAYS = 3660;

/** RFC 3339 in New York time, as the vendor's clock writes it. */
function newYorkTime(ms: number): string {
  return DateTime.fromMillis(ms, { zone: NEW_YORK }).toISO() ?? new Date(ms).toISOString();
}

export function clockBody(deps: ApiDeps): string {
  const now = deps.clock.nowMs();
  const us = marketStatusAt('US', now);
  return JSON.stringify({
    timestamp: newYorkTime(now),
    is_open: us.isOpen,
    next_open: us.nextOpenMs === null ? null : newYorkTime(us.nextOpenMs),
    next_close: us.nextCloseMs === null ? null : newYorkTime(us.nextCloseMs),
  });
}

/** The date a `start`/`end` names: its first ten characters (a date, or the date part of RFC 3339 as written). */
function dateOf(name: string, raw: string | undefined, fallback: string): string {
  if (raw === undefined || raw === '') return fallback;
  const date = raw.slice(0, 10);
  if (!isValidDate(date) || (raw.length > 10 && raw[10] !== 'T' && raw[10] !== 't')) throw badRequest(`invalid ${name}: ${quoteInput(raw)} is neither RFC 3339 nor YYYY-MM-DD`);
  const clamped = date < `${MIN_YEAR}-01-01` ? `${MIN_YEAR}-01-01` : date > `${MAX_YEAR}-12-31` ? `${MAX_YEAR}-12-31` : date;
  return clamped;
}

const hhmm = (ms: number, sep: string) => DateTime.fromMillis(ms, { zone: NEW_YORK }).toFormat(`HH${sep}mm`);

/** `/v2/calendar`: one row per US trading day in [start, end], by default the coming year. */
export function calendarBody(deps: ApiDeps, query: { start?: string; end?: string }): string {
  const today = localDateOf(deps.clock.nowMs(), NEW_YORK);
  const from = dateOf('start', query.start, today);
  const to = dateOf('end', query.end, addDays(from, 365));
  if (to < from) throw badRequest('end should not be before start');
  if (toDayNumber(to) - toDayNumber(from) + 1 > MAX_CALENDAR_DAYS) throw badRequest(`window too long: at most ${MAX_CALENDAR_DAYS} days per request`);
  // A few days past the end, for the last row's settlement date (the next trading day).
  const sessions = sessionsBetween('US', from, addDays(to, 10) > `${MAX_YEAR}-12-31` ? to : addDays(to, 10));
  const rows = [];
  for (let i = 0; i < sessions.length && sessions[i]!.date <= to; i++) {
    const s = sessions[i]!;
    rows.push({
      date: s.date,
      open: hhmm(s.openMs, ':'),
      close: hhmm(s.closeMs, ':'),
      session_open: '0400',
      session_close: '2000',
      settlement_date: sessions[i + 1]?.date ?? s.date,
    });
  }
  return JSON.stringify(rows);
}
