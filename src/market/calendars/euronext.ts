// Euronext cash markets (Paris, Amsterdam, Brussels, Lisbon, Dublin) share one harmonised holiday
// calendar: New Year, Good Friday, Easter Monday, 1 May, 25 and 26 December, and a 14:05 CET
// early close on 24 and 31 December when they are weekdays.
import { easterOffset, ymd } from '../civil-date.ts';
import { closed, earlyClose, ifWeekday } from '../holiday-rules.ts';
import type { HolidayEntry, MarketDefinition } from '../types.ts';
import { defineMarket } from './define-market.ts';

// source: Euronext trading calendar and holiday notices per year (harmonised since 2001).
function euronextHolidays(earlyCloseAt: string): (year: number) => HolidayEntry[] {
  return (year) => {
    const list = [
      closed(ymd(year, 1, 1), "New Year's Day"),
      closed(easterOffset(year, -2), 'Good Friday'),
      closed(easterOffset(year, 1), 'Easter Monday'),
      closed(ymd(year, 5, 1), 'Labour Day'),
      closed(ymd(year, 12, 25), 'Christmas Day'),
      closed(ymd(year, 12, 26), 'Boxing Day'),
    ];
    for (const date of ifWeekday(ymd(year, 12, 24))) list.push(earlyClose(date, 'Christmas Eve (early close)', earlyCloseAt));
    for (const date of ifWeekday(ymd(year, 12, 31))) list.push(earlyClose(date, "New Year's Eve (early close)", earlyCloseAt));
    return list;
  };
}

const CET_HOURS = [{ from: '2000-01-01', open: '09:00', close: '17:30' }];
// Lisbon and Dublin trade on the same CET clock, one hour earlier in local time.
const WET_HOURS = [{ from: '2000-01-01', open: '08:00', close: '16:30' }];

export const EURONEXT: MarketDefinition[] = [
  defineMarket({
    market: 'FR', name: 'Euronext Paris', mic: 'XPAR', country: 'FR', timezone: 'Europe/Paris',
    hours: CET_HOURS, holidays: euronextHolidays('14:05'),
  }),
  defineMarket({
    market: 'NL', name: 'Euronext Amsterdam', mic: 'XAMS', country: 'NL', timezone: 'Europe/Amsterdam',
    hours: CET_HOURS, holidays: euronextHolidays('14:05'),
  }),
  defineMarket({
    market: 'BE', name: 'Euronext Brussels', mic: 'XBRU', country: 'BE', timezone: 'Europe/Brussels',
    hours: CET_HOURS, holidays: euronextHolidays('14:05'),
  }),
  defineMarket({
    market: 'PT', name: 'Euronext Lisbon', mic: 'XLIS', country: 'PT', timezone: 'Europe/Lisbon',
    hours: WET_HOURS, holidays: euronextHolidays('13:05'),
  }),
  // Dublin joined Euronext in 2018 and its cash market moved to Optiq in 2021; the harmonised
  // calendar is applied to every year (earlier Irish bank-holiday differences are not modelled).
  defineMarket({
    market: 'IE', name: 'Euronext Dublin', mic: 'XDUB', country: 'IE', timezone: 'Europe/Dublin',
    hours: WET_HOURS, holidays: euronextHolidays('13:05'),
  }),
];
