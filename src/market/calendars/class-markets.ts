// The asset-class markets: CRYPTO, FOREX, COMMODITIES, INDICES, ETFS and OVERNIGHT, each with the rule it
// follows and why (the simulator and the status routes ask these codes for non-stock classes).
import { ymd } from '../civil-date.ts';
import { closed } from '../holiday-rules.ts';
import type { HolidayEntry, MarketDefinition } from '../types.ts';
import { defineMarket } from './define-market.ts';
import { OVERNIGHT } from './overnight.ts';
import { usExchangeHolidays } from './us.ts';

// CRYPTO trades around the clock. sessionsBetween still answers one row per UTC date
// (00:00-24:00) so daily bars and listings have a natural unit; consecutive rows touch, so
// nextOpenAfter/nextCloseAfter are null (the market never opens or closes).
const CRYPTO = defineMarket({
  market: 'CRYPTO', name: 'Crypto (24/7)', mic: null, country: null, timezone: 'UTC', type: 'crypto',
  hours: [{ from: '1970-01-01', open: '00:00', close: '24:00' }],
  weekends: [{ from: '1970-01-01', days: [] }],
  holidays: () => [],
  alwaysOpen: true,
});

// FOREX: the interbank week runs Sunday 17:00 to Friday 17:00 New York time. One row per New York
// trading date (Mon-Fri), from 17:00 the previous day to 17:00; the rows of a week touch, so the
// market opens Sunday 17:00 and closes Friday 17:00. The global FX holidays (Dec 25 and Jan 1)
// remove the session of that trading date.
function fxHolidays(year: number): HolidayEntry[] {
  return [closed(ymd(year, 1, 1), "New Year's Day"), closed(ymd(year, 12, 25), 'Christmas Day')];
}
const FOREX = defineMarket({
  market: 'FOREX', name: 'Forex (global OTC)', mic: null, country: null, timezone: 'America/New_York', type: 'forex',
  hours: [{ from: '1970-01-01', open: '17:00', close: '17:00', opensDayBefore: true }],
  holidays: fxHolidays,
});

// COMMODITIES follow CME Globex futures: trading date D (Mon-Fri) runs 18:00 New York on D-1 to
// 17:00 on D; the daily 17:00-18:00 maintenance break is the gap between two sessions. The main
// US exchange holidays (the NYSE full closures) remove the session; CME's shortened holiday
// sessions and 12:00 CT early closes are not modelled (an approximation, stated in the report).
function futuresHolidays(year: number): HolidayEntry[] {
  return usExchangeHolidays(year).filter((h) => h.closeMin === undefined);
}
const COMMODITIES = defineMarket({
  market: 'COMMODITIES', name: 'Commodities (CME Globex hours)', mic: 'XCME', country: 'US', timezone: 'America/New_York',
  type: 'commodities',
  hours: [{ from: '1970-01-01', open: '18:00', close: '17:00', opensDayBefore: true }],
  holidays: futuresHolidays,
});

// INDICES: a cash index is computed while its home exchange trades, so an index instrument asks
// the calendar of its home market (US, DE, JP, ...). The INDICES class market itself reports the
// US regular session, where the headline indices (S&P 500, Nasdaq, Dow) live.
const INDICES = defineMarket({
  market: 'INDICES', name: 'Indices (US cash session)', mic: null, country: 'US', timezone: 'America/New_York', type: 'indices',
  hours: [{ from: '1985-01-01', open: '09:30', close: '16:00' }],
  holidays: usExchangeHolidays,
});

// ETFS: indicative ETF prices run through US extended hours, 04:00-20:00 New York on US trading
// days; the spec's ETF quote rule uses the regular session (09:30-16:00) inside it, which is the
// US market's session. On a 13:00 early-close day the late session ends at 17:00.
function etfHolidays(year: number): HolidayEntry[] {
  return usExchangeHolidays(year).map((h) => (h.closeMin === undefined ? h : { ...h, closeMin: 17 * 60 }));
}
const ETFS = defineMarket({
  market: 'ETFS', name: 'ETFs (US extended hours)', mic: null, country: 'US', timezone: 'America/New_York', type: 'etfs',
  hours: [{ from: '1985-01-01', open: '04:00', close: '20:00' }],
  holidays: etfHolidays,
});

export const CLASS_MARKETS: MarketDefinition[] = [CRYPTO, FOREX, COMMODITIES, INDICES, ETFS, OVERNIGHT];

