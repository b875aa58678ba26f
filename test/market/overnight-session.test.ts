// The US overnight session's calendar (issue 8): 20:00 to 04:00 New York time, Sunday to Thursday
// nights, none into a US market holiday, on named real dates on both sides of the 2026 daylight
// saving switches (March 8 and November 1) and around Thanksgiving (November 26); and where its
// bars start and end.
import { describe, expect, test } from 'bun:test';
import { holidaysBetween, isOpenAt, nextCloseAfter, nextOpenAfter, sessionAt, sessionOpenedAtOrBefore, sessionsBetween } from '../../src/market/index.ts';
import { alignmentFor } from '../../src/market/bar-alignment.ts';

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number | null | undefined) => (t === null || t === undefined ? null : new Date(t).toISOString());
/** The session in progress at an instant, as [open, close] ISO strings, or null. */
const at = (instant: string) => {
  const s = sessionAt('OVERNIGHT', ms(instant));
  return s ? [iso(s.openMs), iso(s.closeMs)] : null;
};
const newYork = (t: number) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(t));

describe('OVERNIGHT sessions around the March 2026 switch to daylight saving time (Sunday March 8, 02:00)', () => {
  test('Thursday night March 5 runs 20:00-04:00 EST: 01:00-09:00 UTC', () => {
    expect(at('2026-03-06T01:00:00.000Z')).toEqual(['2026-03-06T01:00:00.000Z', '2026-03-06T09:00:00.000Z']);
    expect(at('2026-03-06T00:59:59.999Z')).toBeNull();
    expect(at('2026-03-06T09:00:00.000Z')).toBeNull();
  });

  test('Friday and Saturday nights have no session', () => {
    expect(at('2026-03-07T03:00:00Z')).toBeNull(); // Friday 22:00 EST
    expect(at('2026-03-08T03:00:00Z')).toBeNull(); // Saturday 22:00 EST
    expect(iso(nextOpenAfter('OVERNIGHT', ms('2026-03-06T09:00:00Z')))).toBe('2026-03-09T00:00:00.000Z');
  });

  test('Sunday night March 8 runs 20:00-04:00 EDT: 00:00-08:00 UTC, an hour earlier in UTC', () => {
    expect(at('2026-03-09T00:00:00Z')).toEqual(['2026-03-09T00:00:00.000Z', '2026-03-09T08:00:00.000Z']);
    expect(at('2026-03-08T23:59:59Z')).toBeNull();
    expect(at('2026-03-09T08:30:00Z')).toBeNull(); // 04:30 EDT
    expect(iso(nextCloseAfter('OVERNIGHT', ms('2026-03-09T01:00:00Z')))).toBe('2026-03-09T08:00:00.000Z');
  });
});

describe('OVERNIGHT sessions around the November 2026 switch back to standard time (Sunday November 1, 02:00)', () => {
  test('Thursday night October 29 runs 20:00-04:00 EDT: 00:00-08:00 UTC', () => {
    expect(at('2026-10-30T00:00:00Z')).toEqual(['2026-10-30T00:00:00.000Z', '2026-10-30T08:00:00.000Z']);
    expect(at('2026-10-30T08:30:00Z')).toBeNull();
  });

  test('Friday October 30 and Saturday October 31 nights have none; Sunday November 1 runs 20:00-04:00 EST: 01:00-09:00 UTC', () => {
    expect(at('2026-10-31T02:00:00Z')).toBeNull();
    expect(at('2026-11-01T02:00:00Z')).toBeNull();
    expect(at('2026-11-02T00:30:00Z')).toBeNull(); // Sunday 19:30 EST
    expect(at('2026-11-02T01:00:00Z')).toEqual(['2026-11-02T01:00:00.000Z', '2026-11-02T09:00:00.000Z']);
    expect(iso(nextOpenAfter('OVERNIGHT', ms('2026-10-30T08:00:00Z')))).toBe('2026-11-02T01:00:00.000Z');
  });
});

describe('no session into a US market holiday', () => {
  test('the night before Thanksgiving (Wednesday November 25, 2026) has none; the night after it runs before the early close', () => {
    expect(at('2026-11-25T03:00:00Z')).toEqual(['2026-11-25T01:00:00.000Z', '2026-11-25T09:00:00.000Z']); // Tuesday night
    expect(at('2026-11-26T03:00:00Z')).toBeNull(); // Wednesday 22:00 EST
    expect(at('2026-11-27T03:00:00Z')).toEqual(['2026-11-27T01:00:00.000Z', '2026-11-27T09:00:00.000Z']); // Thursday night into Black Friday
    expect(iso(nextOpenAfter('OVERNIGHT', ms('2026-11-25T09:00:00Z')))).toBe('2026-11-27T01:00:00.000Z');
    expect(holidaysBetween('OVERNIGHT', '2026-11-20', '2026-11-30')).toEqual([
      { date: '2026-11-26', name: 'Thanksgiving Day (no overnight session into it)', status: 'closed', closeMs: null, source: null },
    ]);
  });

  test('nor into Good Friday (April 3), Christmas (Friday December 25) or Martin Luther King Jr. Day (Monday January 19); the night after a Monday holiday runs', () => {
    expect(at('2026-04-03T03:00:00Z')).toBeNull();
    expect(at('2026-12-25T03:00:00Z')).toBeNull();
    expect(at('2026-01-19T03:00:00Z')).toBeNull(); // Sunday night into MLK day
    expect(at('2026-01-20T03:00:00Z')).toEqual(['2026-01-20T01:00:00.000Z', '2026-01-20T09:00:00.000Z']);
  });

  test('the sessions of 2026 are labelled with exactly the US trading dates, each 20:00 Sunday-Thursday to 04:00 New York', () => {
    const overnight = sessionsBetween('OVERNIGHT', '2026-01-01', '2026-12-31');
    expect(overnight.map((s) => s.date)).toEqual(sessionsBetween('US', '2026-01-01', '2026-12-31').map((s) => s.date));
    for (const s of overnight) {
      expect(newYork(s.openMs)).toMatch(/^(Sun|Mon|Tue|Wed|Thu) 20:00$/);
      expect(newYork(s.closeMs)).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 04:00$/);
      expect(s.closeMs - s.openMs).toBe(8 * 3600_000);
      expect(s.earlyClose).toBe(false);
    }
  });
});

describe('queries', () => {
  test('the session a value belongs to: the one in progress, else the last one, over the weekend too', () => {
    const friday = sessionOpenedAtOrBefore('OVERNIGHT', ms('2026-03-08T12:00:00Z'));
    expect([iso(friday?.openMs), iso(friday?.closeMs)]).toEqual(['2026-03-06T01:00:00.000Z', '2026-03-06T09:00:00.000Z']);
    expect(isOpenAt('OVERNIGHT', ms('2026-03-04T15:30:00Z'))).toBe(false); // Wednesday 10:30 EST: the regular session
  });
});

describe('overnight bar alignment', () => {
  const align = alignmentFor({ assetClass: 'overnight', market: 'US' });

  test('accepts prices only inside the session', () => {
    expect(align.accepts(ms('2026-03-05T03:00:00Z'))).toBe(true);
    expect(align.accepts(ms('2026-03-04T15:30:00Z'))).toBe(false);
    expect(align.accepts(ms('2026-03-07T03:00:00Z'))).toBe(false);
  });

  test('hourly bars start at 20:00 New York and 4-hour bars at 20:00 and 00:00, on both sides of the switch', () => {
    expect(iso(align.barStart(ms('2026-03-06T01:59:00Z'), '1h'))).toBe('2026-03-06T01:00:00.000Z');
    expect(iso(align.barStart(ms('2026-03-06T04:10:00Z'), '4h'))).toBe('2026-03-06T01:00:00.000Z'); // 23:10 EST → 20:00
    expect(iso(align.barStart(ms('2026-03-06T05:10:00Z'), '4h'))).toBe('2026-03-06T05:00:00.000Z'); // 00:10 EST → 00:00
    expect(iso(align.barEnd(ms('2026-03-06T05:00:00Z'), '4h'))).toBe('2026-03-06T09:00:00.000Z');
    expect(iso(align.barStart(ms('2026-03-09T03:10:00Z'), '4h'))).toBe('2026-03-09T00:00:00.000Z'); // 23:10 EDT → 20:00
    expect(iso(align.barStart(ms('2026-03-09T07:59:00Z'), '4h'))).toBe('2026-03-09T04:00:00.000Z');
    expect(iso(align.barEnd(ms('2026-03-09T07:00:00Z'), '1h'))).toBe('2026-03-09T08:00:00.000Z');
  });

  test('a session lies within one UTC date, so its daily bar is the UTC date of the morning it ends on', () => {
    for (const s of sessionsBetween('OVERNIGHT', '2026-01-01', '2026-12-31')) {
      expect(iso(align.barStart(s.openMs, '1d'))).toBe(`${s.date}T00:00:00.000Z`);
      expect(iso(align.barStart(s.closeMs - 1, '1d'))).toBe(`${s.date}T00:00:00.000Z`);
    }
  });

  test('the daily bar ends at the session close, on both sides of the switch', () => {
    expect(iso(align.barEnd(ms('2026-03-06T00:00:00Z'), '1d'))).toBe('2026-03-06T09:00:00.000Z');
    expect(iso(align.barEnd(ms('2026-03-09T00:00:00Z'), '1d'))).toBe('2026-03-09T08:00:00.000Z');
  });

  test('the next bar end: the close of the session in progress or of the next one, skipping nights without a session', () => {
    // Wednesday afternoon: the next daily bar ends at Thursday morning's close.
    expect(iso(align.nextBarEndAfter(ms('2026-03-04T20:00:00Z'), '1d'))).toBe('2026-03-05T09:00:00.000Z');
    expect(iso(align.nextBarEndAfter(ms('2026-03-05T03:20:00Z'), '1d'))).toBe('2026-03-05T09:00:00.000Z');
    // Friday afternoon: no session on Friday and Saturday nights; Sunday night's closes Monday 08:00 UTC (EDT).
    expect(iso(align.nextBarEndAfter(ms('2026-03-06T20:00:00Z'), '1d'))).toBe('2026-03-09T08:00:00.000Z');
    // Between sessions the next hourly bar to end is the first of the next session.
    expect(iso(align.nextBarEndAfter(ms('2026-03-04T20:00:00Z'), '1h'))).toBe('2026-03-05T02:00:00.000Z');
    expect(iso(align.nextBarEndAfter(ms('2026-03-05T03:20:00Z'), '1h'))).toBe('2026-03-05T04:00:00.000Z');
    expect(iso(align.nextBarEndAfter(ms('2026-03-05T08:30:00Z'), '4h'))).toBe('2026-03-05T09:00:00.000Z');
  });
});
