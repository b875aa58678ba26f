// Query parameters of `GET /calendar/economic`: the window of UTC dates, the country and
// importance filters, and the page size of the fundamentals pages (default 500, at most 1000).
// 400 messages say what was wrong and what is allowed.
import { CALENDAR_COUNTRIES, IMPORTANCES, isCalendarCountry, type Importance } from './economic-calendar.ts';
import { badRequest } from './errors.ts';
import { quoteInput } from './symbols.ts';

export const CALENDAR_PAGE_DEFAULT = 500;
export const CALENDAR_PAGE_MAX = 1000;
/** Without `to`, the window is a week. */
export const CALENDAR_DEFAULT_DAYS = 7;
export const CALENDAR_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

export interface CalendarQuery {
  from: string;
  to: string;
  fromMs: number;
  /** Exclusive: the end of the `to` date. */
  toMs: number;
  countries: ReadonlySet<string> | null;
  importances: ReadonlySet<Importance> | null;
  limit: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dateMs(name: string, raw: string): number {
  const text = raw.trim();
  const m = DATE.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text || Number(m[1]) < 1970) {
    throw badRequest(`invalid ${name} date ${quoteInput(raw)}: expected a calendar date YYYY-MM-DD from 1970 on`);
  }
  return ms;
}

function list<T extends string>(name: string, raw: string | undefined, normalize: (s: string) => string, allowed: readonly T[], isAllowed: (s: string) => boolean): ReadonlySet<T> | null {
  if (raw === undefined) return null;
  const values = raw.split(',').map((s) => normalize(s.trim())).filter((s) => s.length > 0);
  if (values.length === 0) throw badRequest(`${name} is empty: give one or more of ${allowed.join(', ')}, comma-separated`);
  for (const v of values) if (!isAllowed(v)) throw badRequest(`invalid ${name} ${quoteInput(v)}: allowed values are ${allowed.join(', ')}`);
  return new Set(values as T[]);
}

/** `todayMs`: start of the current UTC day, the default `from`. The route reads `cursor` itself: it is bound to the parsed query. */
export function parseCalendarQuery(query: { from?: string; to?: string; country?: string; importance?: string; limit?: string; cursor?: string }, todayMs: number): CalendarQuery {
  const fromMs = query.from === undefined ? todayMs : dateMs('from', query.from);
  const toDayMs = query.to === undefined ? fromMs + (CALENDAR_DEFAULT_DAYS - 1) * DAY_MS : dateMs('to', query.to);
  const from = new Date(fromMs).toISOString().slice(0, 10);
  const to = new Date(toDayMs).toISOString().slice(0, 10);
  if (toDayMs < fromMs) throw badRequest(`invalid window: to (${to}) must be on or after from (${from})`);
  const days = (toDayMs - fromMs) / DAY_MS + 1;
  if (days > CALENDAR_MAX_DAYS) throw badRequest(`window of ${days} days exceeds the maximum of ${CALENDAR_MAX_DAYS} days`);
  const countries = list('country', query.country, (s) => s.toUpperCase(), CALENDAR_COUNTRIES, isCalendarCountry);
  const importances = list('importance', query.importance, (s) => s.toLowerCase(), IMPORTANCES, (s) => (IMPORTANCES as readonly string[]).includes(s));
  let limit = CALENDAR_PAGE_DEFAULT;
  if (query.limit !== undefined) {
    const t = query.limit.trim();
    limit = /^\d{1,7}$/.test(t) ? Number(t) : NaN;
    if (!(limit >= 1 && limit <= CALENDAR_PAGE_MAX)) throw badRequest(`invalid limit ${quoteInput(query.limit)}: an integer from 1 to ${CALENDAR_PAGE_MAX} (default ${CALENDAR_PAGE_DEFAULT})`);
  }
  return { from, to, fromMs, toMs: toDayMs + DAY_MS, countries, importances, limit };
}
