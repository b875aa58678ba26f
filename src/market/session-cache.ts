// Turns a market definition into sessions and holidays per calendar year, built once and cached
// per market per year: the simulator asks per tick, so lookups must not rebuild anything.
import { datesBetween, isoWeekday, ymd } from './civil-date.ts';
import { localMinutesToMs } from './zoned-time.ts';
import type { Holiday, HolidayEntry, MarketDefinition, Session } from './types.ts';

/** Years the calendars answer for; dated tables cover 2015-2027, rules run wider. */
export const MIN_YEAR = 1990;
export const MAX_YEAR = 2100;

interface YearCalendar {
  /** Sorted by date, which is also open order: sessions never overlap. */
  sessions: Session[];
  /** Only closures and early closes that fall on a trading weekday. */
  holidays: Holiday[];
}

const cache = new Map<string, Map<number, YearCalendar>>();

function isClosure(entry: HolidayEntry): boolean {
  return entry.openMin === undefined && entry.closeMin === undefined;
}

export function yearCalendar(def: MarketDefinition, year: number): YearCalendar {
  let perYear = cache.get(def.info.market);
  if (!perYear) {
    perYear = new Map();
    cache.set(def.info.market, perYear);
  }
  let built = perYear.get(year);
  if (!built) {
    built = year < MIN_YEAR || year > MAX_YEAR ? { sessions: [], holidays: [] } : buildYear(def, year);
    perYear.set(year, built);
  }
  return built;
}

function buildYear(def: MarketDefinition, year: number): YearCalendar {
  const zone = def.info.timezone;
  const entries = new Map<string, HolidayEntry>();
  for (const entry of def.holidaysIn(year)) {
    const known = entries.get(entry.date);
    // A closure beats other hours on the same date; otherwise the first entry names the day.
    if (!known || (!isClosure(known) && isClosure(entry))) entries.set(entry.date, entry);
  }
  const sessions: Session[] = [];
  const holidays: Holiday[] = [];
  for (const date of datesBetween(ymd(year, 1, 1), ymd(year, 12, 31))) {
    const weekday = isoWeekday(date);
    if (!def.isTradingWeekday(date, weekday)) continue;
    const hours = def.hoursOn(date, weekday);
    const entry = entries.get(date);
    if (entry && isClosure(entry)) {
      holidays.push({ date, name: entry.name, status: 'closed', closeMs: null, source: entry.source ?? null });
      continue;
    }
    const openMin = entry?.openMin ?? hours.openMin;
    const closeMin = entry?.closeMin ?? hours.closeMin;
    const early = closeMin < hours.closeMin;
    // A half day that ends before the lunch break simply has no afternoon.
    const hasBreak = hours.breakStartMin !== null && hours.breakEndMin !== null && hours.breakEndMin < closeMin;
    const session: Session = {
      date,
      openMs: localMinutesToMs(date, openMin, zone),
      closeMs: localMinutesToMs(date, closeMin, zone),
      breakStartMs: hasBreak && hours.breakStartMin !== null ? localMinutesToMs(date, hours.breakStartMin, zone) : null,
      breakEndMs: hasBreak && hours.breakEndMin !== null ? localMinutesToMs(date, hours.breakEndMin, zone) : null,
      earlyClose: early,
    };
    sessions.push(Object.freeze(session));
    if (early && entry) holidays.push({ date, name: entry.name, status: 'early_close', closeMs: session.closeMs, source: entry.source ?? null });
  }
  return { sessions, holidays };
}
