// Compact builder for session-based market definitions: regular hours and weekends as dated eras
// (hours change on a known date, e.g. Tokyo closes at 15:30 from 2024-11-05), holidays by year.
import { recordRules } from '../provenance.ts';
import { hm } from '../zoned-time.ts';
import type { HolidayEntry, MarketDefinition, MarketInfo, TradingHours } from '../types.ts';

export interface HoursEra {
  /** First local date these hours apply to; the first era's `from` is ignored. */
  from: string;
  open: string;
  close: string;
  lunch?: [string, string];
  /** Only on these ISO weekdays (e.g. TASE's shorter Sunday); otherwise every trading day. */
  weekdays?: number[];
  /** The session opens on the previous calendar day (FOREX, futures). */
  opensDayBefore?: boolean;
}

export interface WeekendEra {
  from: string;
  /** ISO weekdays without trading. */
  days: number[];
}

export interface MarketSpec extends Omit<MarketInfo, 'type'> {
  type?: MarketInfo['type'];
  hours: HoursEra[];
  weekends?: WeekendEra[];
  holidays: (year: number) => HolidayEntry[];
  /**
   * Dated sessions on weekend days (TWSE traded some make-up Saturdays until 2018), at the
   * regular hours of that date; holidays still close them.
   */
  weekendSessions?: ReadonlySet<string>;
  alwaysOpen?: boolean;
}

const SAT_SUN: WeekendEra[] = [{ from: '0000-01-01', days: [6, 7] }];

function toTradingHours(era: HoursEra): TradingHours {
  return {
    openMin: hm(era.open) - (era.opensDayBefore ? 1440 : 0),
    closeMin: era.close === '24:00' ? 1440 : hm(era.close),
    breakStartMin: era.lunch ? hm(era.lunch[0]) : null,
    breakEndMin: era.lunch ? hm(era.lunch[1]) : null,
  };
}

export function defineMarket(spec: MarketSpec): MarketDefinition {
  const { hours, weekends = SAT_SUN, holidays, weekendSessions, alwaysOpen, type = 'stocks', ...info } = spec;
  const eras = hours.map((era) => ({ era, hours: toTradingHours(era) }));
  recordRules(info.market, [...hours.map((e) => e.from), ...weekends.map((e) => e.from), ...(weekendSessions ?? [])],
    { hours, weekends, weekendSessions: [...(weekendSessions ?? [])].sort() });
  return {
    info: { ...info, type },
    alwaysOpen: alwaysOpen ?? false,
    isTradingWeekday(date, isoWeekday) {
      if (weekendSessions?.has(date)) return true;
      let days = SAT_SUN[0]?.days ?? [];
      for (const era of weekends) if (era.from <= date) days = era.days;
      return !days.includes(isoWeekday);
    },
    hoursOn(date, isoWeekday) {
      // The latest era that has started and applies to this weekday wins.
      let found: TradingHours | undefined;
      for (const { era, hours: h } of eras) {
        if (found !== undefined && era.from > date) break;
        if (!era.weekdays || era.weekdays.includes(isoWeekday)) found = h;
      }
      if (!found) throw new Error(`no trading hours for ${info.market} on ${date}`);
      return found;
    },
    holidaysIn: holidays,
  };
}

/**
 * A market whose hours on some dates follow a rule the dated eras cannot express (hours tied to
 * another zone's daylight time, seasonal closes): `adjust` gets the eras' hours of the date.
 */
export function withAdjustedHours(def: MarketDefinition, adjust: (date: string, hours: TradingHours) => TradingHours): MarketDefinition {
  return { ...def, hoursOn: (date, weekday) => adjust(date, def.hoursOn(date, weekday)) };
}
