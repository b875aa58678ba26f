// OVERNIGHT: the US overnight session, 20:00 to 04:00 New York time, Sunday to Thursday nights
// (spec). The one definition of when overnight lines trade: the simulator, bar alignment and the
// /overnight routes' session fields all ask this calendar.
import { closed } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';
import { defineMarket } from './define-market.ts';
import { usExchangeHolidays } from './us.ts';

// A session is labelled with the New York date of the morning it ends on, as FOREX labels its
// evening-to-evening sessions: the night of Sunday 20:00 to Monday 04:00 is Monday's session. So
// the Monday-to-Friday trading dates are exactly the Sunday-to-Thursday nights, and a US market
// holiday on a morning removes the night into it (no session into a holiday). Early closes (13:00)
// leave the night before them alone. The times are New York wall-clock times, so the session moves
// in UTC with daylight saving time; the switches happen at 02:00 on Sundays, when no session runs.
function overnightHolidays(year: number): HolidayEntry[] {
  return usExchangeHolidays(year)
    .filter((h) => h.closeMin === undefined)
    .map((h) => closed(h.date, `${h.name} (no overnight session into it)`));
}

export const OVERNIGHT = defineMarket({
  market: 'OVERNIGHT', name: 'US overnight session (20:00-04:00 New York, Sunday to Thursday nights)', mic: null, country: 'US',
  timezone: 'America/New_York', type: 'overnight',
  hours: [{ from: '1970-01-01', open: '20:00', close: '04:00', opensDayBefore: true }],
  holidays: overnightHolidays,
});
