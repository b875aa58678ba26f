// Public face of the market calendar: markets, sessions, holidays and status per market code.
export type { Holiday, MarketInfo, MarketStatus, MarketType, Session } from './types.ts';
export { getMarket, listMarkets } from './registry.ts';
export {
  holidaysBetween, isOpenAt, nextCloseAfter, nextOpenAfter, sessionAt, sessionOpenedAtOrBefore, sessionsBetween, usRegularSessionAt,
} from './session-query.ts';
export { marketStatusAt } from './market-status.ts';
export { calendarVersion } from './provenance.ts';
export { addDays, isValidDate, toDayNumber } from './civil-date.ts';
export { MAX_YEAR, MIN_YEAR } from './session-cache.ts';
export { localDateOf } from './zoned-time.ts';
export { newYorkMidnight, stampsNewYork, vendorBarTime } from './us-daily-stamp.ts';
