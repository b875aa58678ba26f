// The days an independent check of the calendars disagreed on (tracker issue 34), each answered
// over the route layer (in-process) as the exchange's notice says, and the provenance every
// calendar answer carries: `calendar_version`, and the `source` of each holiday and early close.
import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import type { ApiDeps } from '../../src/api/deps.ts';
import { marketRoutes } from '../../src/api/routes/markets.ts';
import { ManualClock } from '../../src/clock.ts';
import { HolidayListSchema, MarketListSchema, MarketStatusListSchema, MarketStatusSchema, SessionListSchema } from '../../src/domain/schemas.ts';
import { parseDatedTable } from '../../src/market/holiday-rules.ts';
import { calendarVersion } from '../../src/market/index.ts';
import { VERSION } from '../../src/version.ts';

/** The status of every market builds each market's year from its holiday rules on first use: seconds on a loaded machine. */
const ALL_MARKETS_TIMEOUT_MS = 30_000;
const deps: Pick<ApiDeps, 'clock'> = { clock: new ManualClock(Date.parse('2026-03-04T15:30:00Z')) };
const routes = marketRoutes(deps as ApiDeps);

interface SessionRow { date: string; open: string; close: string; break_start: string | null; break_end: string | null; early_close: boolean }
interface HolidayRow { date: string; name: string; status: string; close: string | null; source: string | null }

async function get(path: string): Promise<any> {
  const res = await routes.handle(new Request(`http://localhost${path}`));
  expect(res.status).toBe(200);
  return res.json();
}

async function sessions(market: string, from: string, to: string): Promise<Map<string, SessionRow>> {
  const body = await get(`/markets/${market}/sessions?from=${from}&to=${to}`);
  expect(Value.Check(SessionListSchema, body)).toBe(true);
  return new Map((body.sessions as SessionRow[]).map((s) => [s.date, s]));
}

async function holidays(market: string, from: string, to: string): Promise<Map<string, HolidayRow>> {
  const body = await get(`/markets/${market}/holidays?from=${from}&to=${to}`);
  expect(Value.Check(HolidayListSchema, body)).toBe(true);
  return new Map((body.holidays as HolidayRow[]).map((h) => [h.date, h]));
}

describe('PSE: close is the pre-close (end of continuous trading), the run-off to the market close is not in the session', () => {
  test('full days from 1 March 2022 close at 14:45 Manila; 14 January to 28 February 2022 at the 12:45 pre-close (the 2 February return was withdrawn)', async () => {
    const days = await sessions('PH', '2022-01-13', '2022-03-01');
    expect(days.get('2022-01-13')).toMatchObject({ close: '2022-01-13T06:45:00Z', break_start: '2022-01-13T04:00:00Z', break_end: '2022-01-13T05:00:00Z' });
    expect(days.get('2022-01-14')).toMatchObject({ close: '2022-01-14T04:45:00Z', break_start: null, early_close: true });
    expect(days.get('2022-02-02')).toMatchObject({ close: '2022-02-02T04:45:00Z', early_close: true });
    expect(days.get('2022-02-28')).toMatchObject({ close: '2022-02-28T04:45:00Z', early_close: true });
    expect(days.get('2022-03-01')).toMatchObject({ open: '2022-03-01T01:30:00Z', close: '2022-03-01T06:45:00Z', early_close: false });
    const marked = await holidays('PH', '2022-01-14', '2022-03-01');
    expect(marked.get('2022-02-02')?.source).toContain('Manila Bulletin 2022-01-26');
    expect(marked.has('2022-03-01')).toBe(false);
  });

  test('the pandemic schedule of 2020-2021: 12:45 pre-close from 16 March 2020, 09:00 opens to 14 April, no trading on 17-18 March', async () => {
    const days = await sessions('PH', '2020-03-13', '2020-04-16');
    expect(days.get('2020-03-13')).toMatchObject({ close: '2020-03-13T07:30:00Z', break_start: '2020-03-13T04:00:00Z' });
    expect(days.get('2020-03-16')).toMatchObject({ open: '2020-03-16T01:30:00Z', close: '2020-03-16T04:45:00Z', break_start: null });
    expect(days.has('2020-03-17')).toBe(false);
    expect(days.has('2020-03-18')).toBe(false);
    expect(days.get('2020-03-19')).toMatchObject({ open: '2020-03-19T01:00:00Z', close: '2020-03-19T04:45:00Z' });
    expect(days.get('2020-04-14')).toMatchObject({ open: '2020-04-14T01:00:00Z' });
    expect(days.get('2020-04-15')).toMatchObject({ open: '2020-04-15T01:30:00Z', close: '2020-04-15T04:45:00Z' });
    const late2021 = await sessions('PH', '2021-12-03', '2021-12-06');
    expect(late2021.get('2021-12-03')).toMatchObject({ close: '2021-12-03T04:45:00Z' });
    expect(late2021.get('2021-12-06')).toMatchObject({ close: '2021-12-06T06:45:00Z' });
    expect((await holidays('PH', '2020-03-17', '2020-03-17')).get('2020-03-17')).toMatchObject({ status: 'closed', source: expect.stringContaining('Philstar 2020-03-17') });
  });

  test('24 and 31 December 2021 were half days to the 11:55 pre-close, not closures', async () => {
    const days = await sessions('PH', '2021-12-24', '2021-12-31');
    expect(days.get('2021-12-24')).toMatchObject({ close: '2021-12-24T03:55:00Z', early_close: true, break_start: null });
    expect(days.get('2021-12-31')).toMatchObject({ close: '2021-12-31T03:55:00Z', early_close: true });
    expect((await holidays('PH', '2021-12-24', '2021-12-24')).get('2021-12-24')).toMatchObject({
      status: 'early_close', close: '2021-12-24T03:55:00Z', source: expect.stringContaining('ABS-CBN 2021-12-15'),
    });
  });
});

describe('Borsa Istanbul: the February 2023 earthquake suspension', () => {
  test('8 February ends at the 11:01 suspension, 9-14 February are closed, trading resumes on 15 February', async () => {
    const days = await sessions('TR', '2023-02-07', '2023-02-15');
    expect([...days.keys()]).toEqual(['2023-02-07', '2023-02-08', '2023-02-15']);
    expect(days.get('2023-02-08')).toMatchObject({ open: '2023-02-08T07:00:00Z', close: '2023-02-08T08:01:00Z', early_close: true });
    const marked = await holidays('TR', '2023-02-08', '2023-02-15');
    expect([...marked.keys()]).toEqual(['2023-02-08', '2023-02-09', '2023-02-10', '2023-02-13', '2023-02-14']);
    for (const h of marked.values()) expect(h.source).toContain('Borsa Istanbul statements of 8 February 2023');
    expect(marked.get('2023-02-08')?.source).toContain('closed for trading 11:01');
    const status = await get('/markets/TR/status?at=2023-02-14T10:00:00Z');
    expect(status).toMatchObject({ is_open: false, status: 'closed', next_open: '2023-02-15T07:00:00Z' });
  });
});

describe('days kept as the exchange announced them (the independent check differs; docs/markets.md lists each with its source)', () => {
  test('Euronext Dublin follows the harmonised Euronext calendar: open 3 May 2021, 27-28 December 2021 and 5 May 2025; closed 1 May 2025', async () => {
    const y2021 = await sessions('IE', '2021-05-03', '2021-12-28');
    for (const date of ['2021-05-03', '2021-12-27', '2021-12-28']) expect(y2021.has(date)).toBe(true);
    const y2025 = await sessions('IE', '2025-05-01', '2025-05-05');
    expect(y2025.has('2025-05-01')).toBe(false);
    expect(y2025.has('2025-05-05')).toBe(true);
  });

  test('TWSE traded on the make-up Saturday 30 January 2016', async () => {
    expect((await sessions('TW', '2016-01-30', '2016-01-30')).get('2016-01-30')).toMatchObject({ open: '2016-01-30T01:00:00Z', close: '2016-01-30T05:30:00Z' });
  });

  test('Tadawul traded on 22 February 2021 (Founding Day from 2022) and on 4 June 2025; closed 5-10 June 2025, resuming 11 June', async () => {
    expect((await sessions('SA', '2021-02-22', '2021-02-22')).has('2021-02-22')).toBe(true);
    const june = await sessions('SA', '2025-06-04', '2025-06-11');
    expect([...june.keys()]).toEqual(['2025-06-04', '2025-06-11']);
    expect((await holidays('SA', '2025-06-10', '2025-06-10')).get('2025-06-10')?.source).toContain('closed 5-10 June 2025, resuming 11 June');
  });

  test('Bursa Malaysia closed on 3 December 2021 and 15 September 2025; IDX on 18 August 2025', async () => {
    const my2021 = await holidays('MY', '2021-12-03', '2021-12-03');
    expect(my2021.get('2021-12-03')?.source).toContain('The Malaysian Reserve 2021-12-02');
    const my2025 = await holidays('MY', '2025-09-15', '2025-09-15');
    expect(my2025.get('2025-09-15')?.source).toContain('Oriental Daily 2025-08-26');
    const id2025 = await holidays('ID', '2025-08-18', '2025-08-18');
    expect(id2025.get('2025-08-18')).toMatchObject({ status: 'closed', source: expect.stringContaining('18 August 2025 collective leave') });
  });
});

describe('provenance: calendar_version and source', () => {
  test('every /markets answer carries the market\'s calendar_version, the same on every route', async () => {
    const version = calendarVersion('PH');
    expect(version).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}\\.[0-9a-f]{8}\\+${VERSION.replaceAll('.', '\\.')}-`));
    const list = await get('/markets');
    expect(Value.Check(MarketListSchema, list)).toBe(true);
    expect(list.markets.find((m: { market: string }) => m.market === 'PH').calendar_version).toBe(version);
    const all = await get('/markets/status?at=2026-03-04T03:00:00Z');
    expect(Value.Check(MarketStatusListSchema, all)).toBe(true);
    for (const s of all.markets as { market: string; calendar_version: string }[]) expect(s.calendar_version).toBe(calendarVersion(s.market));
    const one = await get('/markets/ph/status?at=2026-03-04T03:00:00Z');
    expect(Value.Check(MarketStatusSchema, one)).toBe(true);
    expect(one.calendar_version).toBe(version);
    expect((await get('/markets/PH/sessions?from=2026-03-02&to=2026-03-06')).calendar_version).toBe(version);
    expect((await get('/markets/PH/holidays?from=2026-01-01&to=2026-12-31')).calendar_version).toBe(version);
  }, ALL_MARKETS_TIMEOUT_MS);

  test('the version is the newest dated entry, and a changed or added dated line changes it', () => {
    const text = '2026-10-01 A closure | notice A\n2026-10-02 12:00 An early close | notice B';
    parseDatedTable(text, 'TEST-A');
    parseDatedTable(text, 'TEST-B');
    parseDatedTable(text.replace('notice B', 'notice C'), 'TEST-C');
    parseDatedTable(`${text}\n2026-11-03 One more`, 'TEST-D');
    expect(calendarVersion('TEST-A')).toBe(calendarVersion('TEST-B'));
    expect(calendarVersion('TEST-A').startsWith('2026-10-02.')).toBe(true);
    expect(calendarVersion('TEST-C')).not.toBe(calendarVersion('TEST-A'));
    expect(calendarVersion('TEST-D').startsWith('2026-11-03.')).toBe(true);
    parseDatedTable('2027-01-04 Added later', 'TEST-B');
    expect(calendarVersion('TEST-B').startsWith('2027-01-04.')).toBe(true);
    expect(calendarVersion('TEST-B')).not.toBe(calendarVersion('TEST-A'));
    expect(calendarVersion('TR')).not.toBe(calendarVersion('PH'));
  });

  test('holidays from a dated table carry its source; days from holiday rules carry null', async () => {
    const us = await holidays('US', '2025-01-01', '2025-12-31');
    expect(us.get('2025-01-09')).toMatchObject({ status: 'closed', source: expect.stringContaining('NYSE') });
    expect(us.get('2025-11-27')).toMatchObject({ name: 'Thanksgiving Day', source: null });
    const cn = await holidays('CN', '2026-01-01', '2026-12-31');
    for (const h of cn.values()) expect(h.source).toContain('SSE holiday notices');
  });
});
