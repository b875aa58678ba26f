// Property tests over every market: next open/close are real transitions with no session in
// between, the status route's next_open follows its rule (the break's end while in the break, else
// the next session's open), and isOpenAt agrees with the sessions listed by sessionsBetween.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import {
  isOpenAt, listMarkets, marketStatusAt, nextCloseAfter, nextOpenAfter, sessionAt, sessionsBetween, type Session,
} from '../../src/market/index.ts';

const CODES = listMarkets().map((m) => m.market);
const FROM = Date.parse('2015-01-01T00:00:00Z');
const TO = Date.parse('2027-12-31T00:00:00Z');
const DAY = 86_400_000;
// Per market and property; 44 markets make the total a few thousand samples.
const RUNS = 60;
// The first test of a market builds its calendar years (2014-2029): the date-holidays lunar rules
// (TW, HK) cost about 0.3 s per year, past bun's 5 s default.
const TIMEOUT_MS = 30_000;

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Sessions overlapping [fromMs - 3 days, toMs + 3 days], by local dates around them. */
function sessionsAround(code: string, fromMs: number, toMs: number): Session[] {
  return sessionsBetween(code, isoDate(fromMs - 3 * DAY), isoDate(toMs + 3 * DAY));
}

/** No session opens in (fromMs, toMs) except one that merely continues the one before it (FOREX). */
function expectNoOpenBetween(sessions: Session[], fromMs: number, toMs: number): void {
  for (let i = 0; i < sessions.length; i++) {
    const s = sessions[i] as Session;
    if (s.openMs <= fromMs || s.openMs >= toMs) continue;
    expect(sessions[i - 1]?.closeMs).toBe(s.openMs);
  }
}

const instant = fc.integer({ min: FROM, max: TO });

test('the properties run over every market', () => {
  expect(CODES.length).toBe(44);
});

describe.each(CODES)('calendar properties of %s', (code) => {
  const alwaysOpen = code === 'CRYPTO';

  test('nextOpenAfter(t) is after t, is the open of a session, and no session starts between them except continuations', () => {
    fc.assert(fc.property(instant, (tsMs) => {
      const next = nextOpenAfter(code, tsMs);
      if (alwaysOpen) return expect(next).toBeNull();
      expect(next).not.toBeNull();
      if (next === null) return;
      expect(next).toBeGreaterThan(tsMs);
      const sessions = sessionsAround(code, tsMs, next);
      expect(sessions.some((s) => s.openMs === next)).toBe(true);
      expectNoOpenBetween(sessions, tsMs, next);
    }), { numRuns: RUNS });
  }, TIMEOUT_MS);

  test('nextCloseAfter(t) is after t, is the close of a session, and no session continues from it', () => {
    fc.assert(fc.property(instant, (tsMs) => {
      const next = nextCloseAfter(code, tsMs);
      if (alwaysOpen) return expect(next).toBeNull();
      expect(next).not.toBeNull();
      if (next === null) return;
      expect(next).toBeGreaterThan(tsMs);
      const sessions = sessionsAround(code, tsMs, next);
      expect(sessions.some((s) => s.closeMs === next)).toBe(true);
      expect(sessions.some((s) => s.openMs === next)).toBe(false);
      expect(isOpenAt(code, next)).toBe(false);
    }), { numRuns: RUNS });
  }, TIMEOUT_MS);

  test('status next_open is the break end in a break, else the next session open; no session starts before it', () => {
    fc.assert(fc.property(instant, (tsMs) => {
      const status = marketStatusAt(code, tsMs);
      if (alwaysOpen) return expect(status.nextOpenMs).toBeNull();
      const nextOpen = status.nextOpenMs;
      expect(nextOpen).not.toBeNull();
      if (nextOpen === null) return;
      expect(nextOpen).toBeGreaterThan(tsMs);
      if (status.status === 'break') expect(nextOpen).toBe(sessionAt(code, tsMs)?.breakEndMs ?? NaN);
      else expect(nextOpen).toBe(nextOpenAfter(code, tsMs) ?? NaN);
      expectNoOpenBetween(sessionsAround(code, tsMs, nextOpen), tsMs, nextOpen);
      // The next close comes first while open, the next open first while closed or in a break.
      const nextClose = status.nextCloseMs ?? NaN;
      expect(status.isOpen ? nextClose < nextOpen : nextOpen < nextClose).toBe(true);
    }), { numRuns: RUNS });
  }, TIMEOUT_MS);

  test('isOpenAt and the status agree with the sessions of sessionsBetween', () => {
    fc.assert(fc.property(instant, (tsMs) => {
      const containing = sessionsAround(code, tsMs, tsMs).find((s) => s.openMs <= tsMs && tsMs < s.closeMs);
      const inBreak = containing?.breakStartMs != null && containing.breakEndMs != null
        && tsMs >= containing.breakStartMs && tsMs < containing.breakEndMs;
      const isOpen = containing !== undefined && !inBreak;
      expect(isOpenAt(code, tsMs)).toBe(isOpen);
      expect(sessionAt(code, tsMs)).toEqual(containing ?? null);
      const status = marketStatusAt(code, tsMs);
      expect([status.isOpen, status.sessionOpenMs, status.sessionCloseMs])
        .toEqual([isOpen, containing?.openMs ?? null, containing?.closeMs ?? null]);
    }), { numRuns: RUNS });
  }, TIMEOUT_MS);

  test('sessions are ordered, non-overlapping and their breaks lie inside them', () => {
    fc.assert(fc.property(instant, (tsMs) => {
      const sessions = sessionsAround(code, tsMs, tsMs + 30 * DAY);
      for (let i = 0; i < sessions.length; i++) {
        const s = sessions[i] as Session;
        expect(s.openMs).toBeLessThan(s.closeMs);
        if (i > 0) expect((sessions[i - 1] as Session).closeMs).toBeLessThanOrEqual(s.openMs);
        if (s.breakStartMs !== null && s.breakEndMs !== null) {
          expect(s.openMs).toBeLessThan(s.breakStartMs);
          expect(s.breakStartMs).toBeLessThan(s.breakEndMs);
          expect(s.breakEndMs).toBeLessThan(s.closeMs);
        }
      }
    }), { numRuns: 20 });
  }, TIMEOUT_MS);
});
