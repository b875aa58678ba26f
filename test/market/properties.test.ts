// Property tests: next open/close are real transitions with no session in between, and isOpenAt
// agrees with the sessions listed by sessionsBetween.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { isOpenAt, nextCloseAfter, nextOpenAfter, sessionAt, sessionsBetween, type Session } from '../../src/market/index.ts';

// A spread of calendars: rules, tables, lunch breaks, other weekends, overnight sessions.
const CODES = ['US', 'GB', 'DE', 'JP', 'CN', 'SA', 'IL', 'AU', 'NZ', 'BR', 'FOREX', 'COMMODITIES', 'ETFS'] as const;
const FROM = Date.parse('2015-01-01T00:00:00Z');
const TO = Date.parse('2027-12-31T00:00:00Z');
const DAY = 86_400_000;

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Sessions overlapping [fromMs - 3 days, toMs + 3 days], by local dates around them. */
function sessionsAround(code: string, fromMs: number, toMs: number): Session[] {
  return sessionsBetween(code, isoDate(fromMs - 3 * DAY), isoDate(toMs + 3 * DAY));
}

const arbitrary = fc.record({ code: fc.constantFrom(...CODES), tsMs: fc.integer({ min: FROM, max: TO }) });

describe('calendar properties', () => {
  test('nextOpenAfter(t) is after t, is the open of a session, and no session starts between them except continuations', () => {
    fc.assert(fc.property(arbitrary, ({ code, tsMs }) => {
      const next = nextOpenAfter(code, tsMs);
      expect(next).not.toBeNull();
      if (next === null) return;
      expect(next).toBeGreaterThan(tsMs);
      const sessions = sessionsAround(code, tsMs, next);
      expect(sessions.some((s) => s.openMs === next)).toBe(true);
      for (let i = 0; i < sessions.length; i++) {
        const s = sessions[i] as Session;
        if (s.openMs <= tsMs || s.openMs >= next) continue;
        // Only a session that merely continues the previous one (FOREX, CRYPTO) may start in between.
        expect(sessions[i - 1]?.closeMs).toBe(s.openMs);
      }
    }), { numRuns: 300 });
  });

  test('nextCloseAfter(t) is after t, is the close of a session, and no session continues from it', () => {
    fc.assert(fc.property(arbitrary, ({ code, tsMs }) => {
      const next = nextCloseAfter(code, tsMs);
      expect(next).not.toBeNull();
      if (next === null) return;
      expect(next).toBeGreaterThan(tsMs);
      const sessions = sessionsAround(code, tsMs, next);
      expect(sessions.some((s) => s.closeMs === next)).toBe(true);
      expect(sessions.some((s) => s.openMs === next)).toBe(false);
      expect(isOpenAt(code, next)).toBe(false);
    }), { numRuns: 300 });
  });

  test('isOpenAt agrees with the sessions of sessionsBetween', () => {
    fc.assert(fc.property(arbitrary, ({ code, tsMs }) => {
      const containing = sessionsAround(code, tsMs, tsMs).find((s) => s.openMs <= tsMs && tsMs < s.closeMs);
      const inBreak = containing?.breakStartMs != null && containing.breakEndMs != null
        && tsMs >= containing.breakStartMs && tsMs < containing.breakEndMs;
      expect(isOpenAt(code, tsMs)).toBe(containing !== undefined && !inBreak);
      expect(sessionAt(code, tsMs)).toEqual(containing ?? null);
    }), { numRuns: 500 });
  });

  test('sessions are ordered, non-overlapping and their breaks lie inside them', () => {
    fc.assert(fc.property(arbitrary, ({ code, tsMs }) => {
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
    }), { numRuns: 100 });
  });
});
