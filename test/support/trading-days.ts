// Assertions the named-date tests of the dated exchange tables share: a date trades (one session)
// or is a listed full-day closure.
import { expect } from 'bun:test';
import { holidaysBetween, sessionsBetween } from '../../src/market/index.ts';

export function isTradingDay(code: string, date: string): boolean {
  return sessionsBetween(code, date, date).length === 1;
}

/** No session on `date`, and the holiday list names it as a full-day closure. */
export function expectClosedDay(code: string, date: string): void {
  expect(isTradingDay(code, date)).toBe(false);
  expect(holidaysBetween(code, date, date)).toEqual([expect.objectContaining({ date, status: 'closed' })]);
}
