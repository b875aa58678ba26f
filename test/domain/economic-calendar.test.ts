// Economic-calendar rules: one input record into an event (required fields, times with their
// zone, figures or null), and the route's query (window, filters, page size).
import { describe, expect, test } from 'bun:test';
import { parseEventInput } from '../../src/domain/economic-calendar.ts';
import { parseCalendarQuery } from '../../src/domain/economic-calendar-params.ts';
import { ApiError } from '../../src/domain/errors.ts';

const base = { id: 'US-NFP-2026-03-06', country: 'us', event: 'Nonfarm Payrolls', category: 'employment', importance: 'High', scheduled_at: '2026-03-06T08:30:00-05:00' };

describe('parseEventInput', () => {
  test('CSV cells: trimmed, country uppercased, importance lowercased, empty figures null', () => {
    expect(parseEventInput({ ...base, actual: '', forecast: ' 145 ', previous: '151', unit: 'K' })).toEqual({
      ok: true,
      event: { id: 'US-NFP-2026-03-06', country: 'US', event: 'Nonfarm Payrolls', category: 'employment', importance: 'high', scheduledAtMs: Date.UTC(2026, 2, 6, 13, 30), actual: null, forecast: 145, previous: 151, unit: 'K' },
    });
  });

  test('NDJSON values: numbers, null, Unix ms', () => {
    const parsed = parseEventInput({ ...base, scheduled_at: 1772803800000, actual: 162, forecast: null, unit: null });
    expect(parsed).toMatchObject({ ok: true, event: { scheduledAtMs: 1772803800000, actual: 162, forecast: null, previous: null, unit: null } });
  });

  test.each([
    [{ ...base, id: '' }, 'id is missing'],
    [{ ...base, id: 'has space' }, `id "has space" must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', ':', '-'`],
    [{ ...base, country: 'JP' }, 'country "JP" is not covered; the calendar covers US, EU, DE, FR, IT, ES, GB'],
    [{ ...base, importance: 'urgent' }, 'importance "urgent" must be low, medium or high'],
    [{ ...base, scheduled_at: '2026-03-06 08:30' }, 'scheduled_at must be Unix ms or an ISO 8601 time with its zone (2026-03-06T13:30:00Z), got "2026-03-06 08:30"'],
    [{ ...base, scheduled_at: '2026-03-06T08:30:00' }, 'scheduled_at must be Unix ms or an ISO 8601 time with its zone'],
    [{ ...base, actual: '1,5' }, 'actual must be a number or empty, got "1,5"'],
    [{ ...base, forecast: true }, 'forecast must be a number or empty, got "true"'],
    [{ ...base, rating: 'A' }, 'unknown field "rating"'],
    [{ ...base, event: 7 }, 'event must be text, got "7"'],
  ])('%p is refused: %s', (fields, error) => {
    const parsed = parseEventInput(fields as Record<string, unknown>);
    expect(parsed.ok).toBe(false);
    expect((parsed as { error: string }).error).toStartWith(error);
  });
});

describe('parseCalendarQuery', () => {
  const today = Date.UTC(2026, 2, 4);

  test('defaults: a week from today, no filters, 500 per page', () => {
    expect(parseCalendarQuery({}, today)).toEqual({ from: '2026-03-04', to: '2026-03-10', fromMs: today, toMs: Date.UTC(2026, 2, 11), countries: null, importances: null, limit: 500 });
  });

  test('comma-separated filters, trimmed and case-insensitive', () => {
    const q = parseCalendarQuery({ from: '2026-03-01', to: '2026-03-31', country: 'us, gb', importance: 'HIGH,medium', limit: '1000' }, today);
    expect([...q.countries!]).toEqual(['US', 'GB']);
    expect([...q.importances!]).toEqual(['high', 'medium']);
    expect(q.limit).toBe(1000);
  });

  test.each([
    [{ from: '2026-03-05', to: '2026-03-04' }, 'invalid window: to (2026-03-04) must be on or after from (2026-03-05)'],
    [{ from: '2026-01-01', to: '2027-01-02' }, 'window of 367 days exceeds the maximum of 366 days'],
    [{ from: '03/01/2026' }, 'invalid from date "03/01/2026": expected a calendar date YYYY-MM-DD from 1970 on'],
    [{ country: 'JP' }, 'invalid country "JP": allowed values are US, EU, DE, FR, IT, ES, GB'],
    [{ importance: 'critical' }, 'invalid importance "critical": allowed values are low, medium, high'],
    [{ importance: ',' }, 'importance is empty: give one or more of low, medium, high, comma-separated'],
    [{ limit: '1001' }, 'invalid limit "1001": an integer from 1 to 1000 (default 500)'],
  ])('%p is a 400: %s', (query, message) => {
    let caught: unknown;
    try {
      parseCalendarQuery(query, today);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect([(caught as ApiError).status, (caught as ApiError).message]).toEqual([400, message]);
  });
});
