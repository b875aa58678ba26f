// The market hours and holidays routes (tracker issue 5): the market list, status now or at an
// instant, and sessions and holidays over a date window. Handlers parse, ask the calendar, serialize.
import { Elysia, t } from 'elysia';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { quoteInput } from '../../domain/symbols.ts';
import {
  addDays, calendarVersion, getMarket, holidaysBetween, isValidDate, listMarkets, localDateOf, marketStatusAt, MAX_YEAR, MIN_YEAR, sessionsBetween, toDayNumber,
  type Holiday, type MarketInfo, type MarketStatus, type Session,
} from '../../market/index.ts';
import type { ApiDeps } from '../deps.ts';
import { jsonResponse } from '../http.ts';

/** Longest sessions or holidays window, both ends included. */
export const MAX_WINDOW_DAYS = 366;
/** Default windows, both ends included: a month of sessions, a year of holidays. */
export const SESSIONS_DEFAULT_DAYS = 31;
export const HOLIDAYS_DEFAULT_DAYS = 366;

const FIRST_DATE = `${MIN_YEAR}-01-01`;
const LAST_DATE = `${MAX_YEAR}-12-31`;
const FIRST_MS = Date.UTC(MIN_YEAR, 0, 1);
const LAST_MS = Date.UTC(MAX_YEAR + 1, 0, 1) - 1;

const MarketParams = t.Object({ market: t.String() });
const AtQuery = t.Object({ at: t.Optional(t.String()) });
const WindowQuery = t.Object({ from: t.Optional(t.String()), to: t.Optional(t.String()) });

/** Whole-second ISO 8601 UTC, the one time format of these routes. */
function isoUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : isoUtc(ms);
}

/** Trims and uppercases the code; a code the calendar does not know is a 404. */
function resolveMarket(raw: string): MarketInfo {
  const info = getMarket(raw.trim().toUpperCase());
  if (!info) throw new ApiError('UNKNOWN_MARKET');
  return info;
}

const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/i;
const AT_ALLOWED = 'expected an ISO 8601 time with Z or an offset (e.g. 2026-03-04T15:30:00Z) or Unix milliseconds (e.g. 1772638200000)';

/** ISO 8601 with an explicit zone, or Unix ms; absent or empty means now. Throws a 400 otherwise. */
export function parseAt(raw: string | undefined, nowMs: number): number {
  if (raw === undefined || raw === '') return nowMs;
  let ms = Number.NaN;
  const m = ISO_TIME.exec(raw);
  if (/^\d{1,15}$/.test(raw)) {
    ms = Number(raw);
  } else if (m) {
    const [, date = '', hh = '', mm = '', ss = '0', frac = '', z, sign, oh = '0', om = '0'] = m;
    const valid = isValidDate(date) && Number(hh) <= 23 && Number(mm) <= 59 && Number(ss) <= 59 && Number(oh) <= 23 && Number(om) <= 59;
    if (valid) {
      const offsetMin = z ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
      const local = toDayNumber(date) * 86_400_000 + (Number(hh) * 60 + Number(mm)) * 60_000 + Number(ss) * 1000 + Number(frac.padEnd(3, '0').slice(0, 3));
      ms = local - offsetMin * 60_000;
    }
  }
  if (Number.isNaN(ms)) throw badRequest(`invalid at ${quoteInput(raw)}: ${AT_ALLOWED}`);
  if (ms < FIRST_MS || ms > LAST_MS) {
    throw badRequest(`invalid at ${quoteInput(raw)}: the calendars cover ${isoUtc(FIRST_MS)} to ${isoUtc(LAST_MS)}`);
  }
  return ms;
}

function parseDate(name: string, raw: string): string {
  if (!isValidDate(raw)) throw badRequest(`invalid ${name} date ${quoteInput(raw)}: expected a calendar date YYYY-MM-DD`);
  if (raw < FIRST_DATE || raw > LAST_DATE) throw badRequest(`invalid ${name} date ${quoteInput(raw)}: the calendars cover ${FIRST_DATE} to ${LAST_DATE}`);
  return raw;
}

/**
 * The inclusive local-date window of a sessions or holidays query. Without `from` it starts today
 * in the market's time zone (or `defaultDays` before `to`); without `to` it runs `defaultDays`.
 */
export function parseWindow(query: { from?: string; to?: string }, today: string, defaultDays: number): { from: string; to: string } {
  const fromRaw = query.from === '' ? undefined : query.from;
  const toRaw = query.to === '' ? undefined : query.to;
  const given = { from: fromRaw === undefined ? undefined : parseDate('from', fromRaw), to: toRaw === undefined ? undefined : parseDate('to', toRaw) };
  const clamp = (date: string) => (date < FIRST_DATE ? FIRST_DATE : date > LAST_DATE ? LAST_DATE : date);
  const from = given.from ?? (given.to === undefined ? today : clamp(addDays(given.to, -(defaultDays - 1))));
  const to = given.to ?? clamp(addDays(from, defaultDays - 1));
  if (to < from) throw badRequest(`invalid window: to ${to} is before from ${from}`);
  const spanDays = toDayNumber(to) - toDayNumber(from) + 1;
  if (spanDays > MAX_WINDOW_DAYS) {
    throw badRequest(`window too long: ${from} to ${to} spans ${spanDays} days; at most ${MAX_WINDOW_DAYS} days are allowed, from and to included`);
  }
  return { from, to };
}

function marketJson(m: MarketInfo) {
  return { market: m.market, name: m.name, mic: m.mic, country: m.country, timezone: m.timezone, type: m.type, calendar_version: calendarVersion(m.market) };
}

function statusJson(s: MarketStatus) {
  return {
    market: s.market,
    is_open: s.isOpen,
    status: s.status,
    session_open: isoOrNull(s.sessionOpenMs),
    session_close: isoOrNull(s.sessionCloseMs),
    next_open: isoOrNull(s.nextOpenMs),
    next_close: isoOrNull(s.nextCloseMs),
    as_of: isoUtc(s.asOfMs),
    calendar_version: calendarVersion(s.market),
  };
}

function sessionJson(s: Session) {
  return {
    date: s.date,
    open: isoUtc(s.openMs),
    close: isoUtc(s.closeMs),
    break_start: isoOrNull(s.breakStartMs),
    break_end: isoOrNull(s.breakEndMs),
    early_close: s.earlyClose,
  };
}

function holidayJson(h: Holiday) {
  return { date: h.date, name: h.name, status: h.status, close: isoOrNull(h.closeMs), source: h.source };
}

const byCode = (a: MarketInfo, b: MarketInfo) => (a.market < b.market ? -1 : a.market > b.market ? 1 : 0);

export function marketRoutes(deps: ApiDeps) {
  const today = (info: MarketInfo) => localDateOf(deps.clock.nowMs(), info.timezone);
  return new Elysia({ prefix: '/markets' })
    .get('/', () => jsonResponse(JSON.stringify({ markets: listMarkets().sort(byCode).map(marketJson) })))
    .get(
      '/status',
      ({ query }) => {
        const atMs = parseAt(query.at, deps.clock.nowMs());
        const markets = listMarkets().sort(byCode).map((m) => statusJson(marketStatusAt(m.market, atMs)));
        return jsonResponse(JSON.stringify({ as_of: isoUtc(atMs), markets }));
      },
      { query: AtQuery },
    )
    .get(
      '/:market/status',
      ({ params, query }) => {
        const info = resolveMarket(params.market);
        const atMs = parseAt(query.at, deps.clock.nowMs());
        return jsonResponse(JSON.stringify(statusJson(marketStatusAt(info.market, atMs))));
      },
      { params: MarketParams, query: AtQuery },
    )
    .get(
      '/:market/sessions',
      ({ params, query }) => {
        const info = resolveMarket(params.market);
        const { from, to } = parseWindow(query, today(info), SESSIONS_DEFAULT_DAYS);
        const sessions = sessionsBetween(info.market, from, to).map(sessionJson);
        return jsonResponse(JSON.stringify({ market: info.market, sessions, calendar_version: calendarVersion(info.market) }));
      },
      { params: MarketParams, query: WindowQuery },
    )
    .get(
      '/:market/holidays',
      ({ params, query }) => {
        const info = resolveMarket(params.market);
        const { from, to } = parseWindow(query, today(info), HOLIDAYS_DEFAULT_DAYS);
        const holidays = holidaysBetween(info.market, from, to).map(holidayJson);
        return jsonResponse(JSON.stringify({ market: info.market, holidays, calendar_version: calendarVersion(info.market) }));
      },
      { params: MarketParams, query: WindowQuery },
    );
}
