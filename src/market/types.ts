// The public shapes of the market calendar (markets, sessions, holidays, status) and the
// internal definition every market calendar implements.

export type MarketType = 'stocks' | 'crypto' | 'forex' | 'commodities' | 'indices' | 'etfs' | 'overnight';

export interface MarketInfo {
  market: string;
  name: string;
  mic: string | null;
  country: string | null;
  timezone: string;
  type: MarketType;
}

export interface Session {
  /** YYYY-MM-DD, the trading date in the market's local time. */
  date: string;
  openMs: number;
  closeMs: number;
  breakStartMs: number | null;
  breakEndMs: number | null;
  earlyClose: boolean;
}

export interface Holiday {
  date: string;
  name: string;
  status: 'closed' | 'early_close';
  /** Only for early closes. */
  closeMs: number | null;
  /** Where the entry comes from (an exchange notice, a report quoting it); null where none is recorded. */
  source: string | null;
}

export interface MarketStatus {
  market: string;
  isOpen: boolean;
  status: 'open' | 'closed' | 'break' | 'early_close';
  sessionOpenMs: number | null;
  sessionCloseMs: number | null;
  nextOpenMs: number | null;
  nextCloseMs: number | null;
  asOfMs: number;
}

/**
 * Regular hours of one trading date, in minutes after local midnight of that date. `openMin`
 * may be negative: FOREX and futures sessions open on the previous evening.
 */
export interface TradingHours {
  openMin: number;
  closeMin: number;
  breakStartMin: number | null;
  breakEndMin: number | null;
}

/**
 * A closure (neither `openMin` nor `closeMin`), or a day on other hours: an early close
 * (`closeMin` before the regular close), a late open (`openMin`), or both shifted (KRX's exam day
 * opens an hour late and closes an hour late), in local minutes.
 */
export interface HolidayEntry {
  date: string;
  name: string;
  openMin?: number;
  closeMin?: number;
  /** The notice or report the entry follows, where recorded (dated tables). */
  source?: string;
}

/** What a market calendar has to say; the engine turns it into cached sessions. */
export interface MarketDefinition {
  info: MarketInfo;
  /**
   * False for the market's weekend days (which may change over the years, e.g. IL in 2026), but
   * true on a weekend date the market announced as a trading day (TWSE make-up Saturdays).
   */
  isTradingWeekday(date: string, isoWeekday: number): boolean;
  hoursOn(date: string, isoWeekday: number): TradingHours;
  /** Closures and early closes of one calendar year; entries on weekend days are ignored. */
  holidaysIn(year: number): readonly HolidayEntry[];
  /** Never closes (CRYPTO): next open and next close are null. */
  alwaysOpen?: boolean;
}
