// The economic calendar over real HTTP: the simulator's releases by window, country and
// importance, ordered by time and paged by a signed cursor; the fundamentals add-on; and
// `mds import calendar` into a running server (updates replace by id, never duplicate).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { EconomicCalendarPageSchema } from '../../src/domain/economic-calendar.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';
import { runMds, until } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let dataDir: string;

async function errorOf(path: string, key?: string): Promise<[number, string]> {
  const res = await server.get(path, key === undefined ? {} : { key });
  return [res.status, ((await res.json()) as { error: string }).error];
}

async function pageAll(query: string, limit: number): Promise<{ pages: number; items: any[] }> {
  const items: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { status, body }: { status: number; body: any } = await server.json(`/calendar/economic?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(status).toBe(200);
    expect(Value.Check(EconomicCalendarPageSchema, body)).toBe(true);
    pages++;
    items.push(...body.items);
    cursor = body.next_cursor;
  } while (cursor);
  return { pages, items };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-cal-'));
  server = await startServer({ dataDir });
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /calendar/economic', () => {
  test('without a window: the week from today (UTC), ordered by time; released events carry their actual', async () => {
    const { status, body } = await server.json('/calendar/economic');
    expect(status).toBe(200);
    expect(Value.Check(EconomicCalendarPageSchema, body)).toBe(true);
    expect(body).toMatchObject({ from: '2026-03-04', to: '2026-03-10' });
    expect(body.items.map((e: any) => e.id)).toContain('US-NFP-2026-03-06');
    const times = body.items.map((e: any) => e.scheduled_at);
    expect(times).toEqual([...times].sort((a: number, b: number) => a - b));
    const march = (await server.json('/calendar/economic?from=2026-02-01&to=2026-03-31')).body.items;
    // The test clock is 2026-03-04 15:30 UTC.
    for (const e of march) expect(e.actual === null).toBe(e.scheduled_at > Date.parse('2026-03-04T15:30:00Z'));
    expect(march.find((e: any) => e.id === 'US-NFP-2026-02-06')).toMatchObject({ country: 'US', event: 'Nonfarm Payrolls', category: 'employment', importance: 'high', scheduled_at: Date.parse('2026-02-06T13:30:00Z'), unit: 'K' });
  });

  test('filters by country and importance (comma-separated, any case)', async () => {
    const all = (await server.json('/calendar/economic?from=2026-02-01&to=2026-04-30')).body.items;
    const some = (await server.json('/calendar/economic?from=2026-02-01&to=2026-04-30&country=us,gb&importance=HIGH')).body.items;
    expect(some.length).toBeGreaterThan(5);
    expect(some).toEqual(all.filter((e: any) => ['US', 'GB'].includes(e.country) && e.importance === 'high'));
    const ecb = (await server.json('/calendar/economic?from=2026-01-01&to=2026-04-30&country=EU')).body.items;
    // Second Thursdays of January, March and April (the window reaches 60 days back).
    expect(ecb.map((e: any) => [e.event, new Date(e.scheduled_at).toISOString()])).toEqual([
      ['ECB Deposit Facility Rate Decision', '2026-01-08T13:15:00.000Z'],
      ['ECB Deposit Facility Rate Decision', '2026-03-12T13:15:00.000Z'],
      ['ECB Deposit Facility Rate Decision', '2026-04-09T12:15:00.000Z'],
    ]);
  });

  test('pages by cursor like the fundamentals list: every event once, in order', async () => {
    const whole = (await server.json('/calendar/economic?from=2026-01-10&to=2026-05-01&limit=1000')).body;
    expect(whole.next_cursor).toBeUndefined();
    const paged = await pageAll('from=2026-01-10&to=2026-05-01', 7);
    expect(paged.items).toEqual(whole.items);
    expect(paged.pages).toBe(Math.ceil(whole.items.length / 7));
  });

  test('400s: bad window, filters, limit and forged cursors', async () => {
    expect(await errorOf('/calendar/economic?from=2026-03-10&to=2026-03-01')).toEqual([400, 'invalid window: to (2026-03-01) must be on or after from (2026-03-10)']);
    expect(await errorOf('/calendar/economic?country=JP')).toEqual([400, 'invalid country "JP": allowed values are US, EU, DE, FR, IT, ES, GB']);
    expect(await errorOf('/calendar/economic?importance=urgent')).toEqual([400, 'invalid importance "urgent": allowed values are low, medium, high']);
    expect(await errorOf('/calendar/economic?limit=0')).toEqual([400, 'invalid limit "0": an integer from 1 to 1000 (default 500)']);
    const first = (await server.json('/calendar/economic?from=2026-01-10&to=2026-05-01&limit=3')).body;
    for (const cursor of ['abc', `${first.next_cursor}x`, `x${first.next_cursor}`]) {
      expect(await errorOf(`/calendar/economic?from=2026-01-10&to=2026-05-01&cursor=${cursor}`)).toEqual([400, 'invalid cursor: pass the next_cursor of the previous page unchanged, or omit cursor for the first page']);
    }
    // A fundamentals cursor is not a calendar cursor.
    const fundamentals = (await server.json('/fundamentals/stocks?market=US&limit=1')).body.next_cursor;
    expect((await errorOf(`/calendar/economic?cursor=${fundamentals}`))[0]).toBe(400);
  });

  test('a cursor is bound to its window and filters: reused with others it is a 400 saying which', async () => {
    const query = 'from=2026-01-10&to=2026-05-01&importance=high';
    const { next_cursor: cursor } = (await server.json(`/calendar/economic?${query}&limit=3`)).body;
    expect((await server.json(`/calendar/economic?${query}&limit=3&cursor=${cursor}`)).status).toBe(200);
    const message = 'cursor does not match this query: it pages from=2026-01-10&to=2026-05-01&importance=high; send those parameters with it, or omit cursor for the first page';
    for (const other of ['from=2026-01-11&to=2026-05-01&importance=high', 'from=2026-01-10&to=2026-04-30&importance=high', 'from=2026-01-10&to=2026-05-01&importance=high&country=US', 'from=2026-01-10&to=2026-05-01&importance=high,low', 'from=2026-01-10&to=2026-05-01']) {
      expect(await errorOf(`/calendar/economic?${other}&cursor=${cursor}`)).toEqual([400, message]);
    }
    // The same filters written otherwise are the same query.
    expect((await server.json(`/calendar/economic?from=2026-01-10&to=2026-05-01&importance=HIGH,high&cursor=${cursor}`)).status).toBe(200);
  });

  test('without from, a cursor pages its own window (a default window stays put across UTC midnight)', async () => {
    const first = (await server.json('/calendar/economic?from=2026-02-01&to=2026-02-28&limit=4')).body;
    const explicit = (await server.json(`/calendar/economic?from=2026-02-01&to=2026-02-28&limit=4&cursor=${first.next_cursor}`)).body;
    const implicit = (await server.json(`/calendar/economic?limit=4&to=2026-02-28&cursor=${first.next_cursor}`)).body;
    expect(implicit).toEqual(explicit);
    const today = (await server.json('/calendar/economic?limit=1')).body;
    expect((await server.json(`/calendar/economic?limit=1&cursor=${today.next_cursor}`)).body).toMatchObject({ from: today.from, to: today.to, count: 1 });
  });

  test('figures updated while paging (an actual, a forecast, a revision): every event once, the later pages with the new figures', async () => {
    const query = 'from=2026-02-01&to=2026-02-28';
    const whole = (await server.json(`/calendar/economic?${query}&limit=1000`)).body.items as any[];
    expect(whole.length).toBeGreaterThan(12);
    const first = (await server.json(`/calendar/economic?${query}&limit=5`)).body;
    // Updated underneath: an event of the first page, its last one (the cursor's), and events of later pages.
    const changed = [whole[1], whole[4], whole[5], whole[6], whole[whole.length - 1]].map((e) => ({ ...e, actual: (e.actual ?? 0) + 1, forecast: (e.forecast ?? 0) + 2, previous: (e.previous ?? 0) + 3 }));
    const path = join(dataDir, 'cal-revisions.ndjson');
    writeFileSync(path, changed.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = await runMds('import', 'calendar', path, '--data-dir', dataDir);
    expect(r.out).toContain('events: 0 new, 5 updated, 0 unchanged');
    const seen: any[] = [...first.items];
    let cursor: string | undefined = first.next_cursor;
    while (cursor) {
      const { status, body }: { status: number; body: any } = await server.json(`/calendar/economic?${query}&limit=5&cursor=${cursor}`);
      expect(status).toBe(200);
      seen.push(...body.items);
      cursor = body.next_cursor;
    }
    const after = new Map(changed.map((e) => [e.id, e]));
    expect(seen).toEqual(whole.map((e, i) => (i >= 5 ? (after.get(e.id) ?? e) : e)));
  });

  test('needs the fundamentals add-on: 403 naming it; 401 without a key', async () => {
    const r = await runMds('keys', 'create', '--json', '--data-dir', dataDir, '--plan', 'pro', '--addons', 'bonds');
    const key = JSON.parse(r.out).key as string;
    await until(async () => (await server.get('/crypto/symbols', { key })).status === 200, 'the new key');
    expect(await errorOf('/calendar/economic', key)).toEqual([403, 'the fundamentals add-on is not enabled for this account']);
    expect((await server.get('/calendar/economic', { key: null })).status).toBe(401);
  });
});

describe('mds import calendar into a running server', () => {
  const header = 'id,country,event,category,importance,scheduled_at,actual,forecast,previous,unit';
  const write = (name: string, lines: string[]) => {
    const path = join(dataDir, name);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  };
  const event = async (id: string, from: string) => ((await server.json(`/calendar/economic?from=${from}&to=${from}`)).body.items as any[]).filter((e) => e.id === id);

  test('a new event, then its actual arriving and a new time: replaced by id, never duplicated', async () => {
    const first = write('cal-1.csv', [header, 'ACME-SURVEY-2026-03-20,DE,Ifo Business Climate,business survey,medium,2026-03-20T10:00:00+01:00,,88.5,88.1,index']);
    let r = await runMds('import', 'calendar', first, '--data-dir', dataDir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('events: 1 new, 0 updated, 0 unchanged');
    expect(await event('ACME-SURVEY-2026-03-20', '2026-03-20')).toEqual([
      { id: 'ACME-SURVEY-2026-03-20', country: 'DE', event: 'Ifo Business Climate', category: 'business survey', importance: 'medium', scheduled_at: Date.parse('2026-03-20T09:00:00Z'), actual: null, forecast: 88.5, previous: 88.1, unit: 'index' },
    ]);
    const update = join(dataDir, 'cal-2.ndjson');
    writeFileSync(update, `${JSON.stringify({ id: 'ACME-SURVEY-2026-03-20', country: 'DE', event: 'Ifo Business Climate', category: 'business survey', importance: 'medium', scheduled_at: '2026-03-20T09:00:00Z', actual: 89.2, forecast: 88.5, previous: 88.1, unit: 'index' })}\n`);
    r = await runMds('import', 'calendar', update, '--data-dir', dataDir);
    expect(r.out).toContain('events: 0 new, 1 updated, 0 unchanged');
    expect((await event('ACME-SURVEY-2026-03-20', '2026-03-20'))[0].actual).toBe(89.2);
    r = await runMds('import', 'calendar', update, '--data-dir', dataDir);
    expect(r.out).toContain('events: 0 new, 0 updated, 1 unchanged');
    // Rescheduled to the next Monday: it moves, and the old date no longer lists it.
    const moved = write('cal-3.csv', [header, 'ACME-SURVEY-2026-03-20,DE,Ifo Business Climate,business survey,medium,2026-03-23T09:00:00Z,89.2,88.5,88.1,index']);
    r = await runMds('import', 'calendar', moved, '--data-dir', dataDir);
    expect(r.out).toContain('events: 0 new, 1 updated, 0 unchanged');
    expect(await event('ACME-SURVEY-2026-03-20', '2026-03-20')).toEqual([]);
    expect((await event('ACME-SURVEY-2026-03-20', '2026-03-23')).length).toBe(1);
  });

  test('an import replaces a simulated event of the same id, and the simulator leaves it so', async () => {
    const path = write('cal-4.csv', [header, 'US-CPI-2026-03-11,US,CPI (YoY),inflation,high,1773232200000,,2.9,2.3,%']);
    const r = await runMds('import', 'calendar', path, '--data-dir', dataDir);
    expect(r.out).toContain('events: 0 new, 1 updated, 0 unchanged');
    expect((await event('US-CPI-2026-03-11', '2026-03-11'))[0].forecast).toBe(2.9);
  });

  test('bad rows are reported by line and skipped; --strict writes nothing', async () => {
    const path = write('cal-5.csv', [
      header,
      'ACME-1,FR,Business Climate,business survey,low,2026-03-25T07:45:00Z,,97,96,index',
      'ACME-2,JP,Tankan,business survey,high,2026-03-25T07:45:00Z,,,,',
      'ACME-3,FR,Business Climate,business survey,low,25/03/2026,,,,',
      'ACME-4,FR,Consumer Confidence,survey,low,2026-03-26T07:45:00Z,,-1,2.5%,',
    ]);
    let r = await runMds('import', 'calendar', path, '--data-dir', dataDir, '--strict');
    expect(r.code).toBe(1);
    expect((await event('ACME-1', '2026-03-25')).length).toBe(0);
    r = await runMds('import', 'calendar', path, '--data-dir', dataDir);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      [
        'line 3: skipped: country "JP" is not covered; the calendar covers US, EU, DE, FR, IT, ES, GB',
        'line 4: skipped: scheduled_at must be Unix ms or an ISO 8601 time with its zone (2026-03-06T13:30:00Z), got "25/03/2026"',
        'line 5: skipped: previous must be a number or empty, got "2.5%"',
        '',
      ].join('\n'),
    );
    expect(r.out).toContain('4 rows, 3 skipped as bad');
    expect((await event('ACME-1', '2026-03-25')).length).toBe(1);
  });

  test('the example files import', async () => {
    for (const file of ['examples/economic-calendar.csv', 'examples/economic-calendar.ndjson']) {
      const r = await runMds('import', 'calendar', file, '--data-dir', dataDir);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
    }
  });
});

describe('paging a default window across UTC midnight', () => {
  test('a cursor made before midnight pages the same window after it', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const at = (iso: string, n: number) => ({ id: `E-${n}`, country: 'US', event: `Release ${n}`, category: 'survey', importance: 'low' as const, scheduledAtMs: Date.parse(iso), actual: null, forecast: null, previous: null, unit: null, origin: 'import' as const });
    store.calendar.upsert([at('2026-03-04T12:00:00Z', 1), at('2026-03-05T12:00:00Z', 2), at('2026-03-10T12:00:00Z', 3), at('2026-03-11T12:00:00Z', 4)]);
    const clock = new ManualClock(Date.parse('2026-03-04T23:59:00Z'));
    const key = 'k'.repeat(10);
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: key, devPerMinute: 100 });
    const app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' });
    const get = async (query: string) => (await app.handle(new Request(`http://localhost/calendar/economic?${query}`, { headers: { 'x-api-key': key } }))).json() as Promise<any>;
    const first = await get('limit=2');
    expect(first).toMatchObject({ from: '2026-03-04', to: '2026-03-10', items: [{ id: 'E-1' }, { id: 'E-2' }] });
    clock.set(Date.parse('2026-03-05T00:01:00Z'));
    expect(await get(`limit=2&cursor=${first.next_cursor}`)).toEqual({ from: '2026-03-04', to: '2026-03-10', count: 1, items: [expect.objectContaining({ id: 'E-3' })] });
    // A first page asked now is the new day's window.
    expect(await get('limit=2')).toMatchObject({ from: '2026-03-05', to: '2026-03-11' });
    await store.close();
  });
});

describe('store failures', () => {
  test('the route answers 503 market data temporarily unavailable, logged', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'calendar') return { page: () => { throw new Error('disk read failed'); } };
        return Reflect.get(target, prop, receiver);
      },
    });
    const logs: string[] = [];
    const clock = new ManualClock(Date.UTC(2026, 2, 4));
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'k'.repeat(10), devPerMinute: 100 });
    const app = createApp({ store: failing, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, (line) => logs.push(line));
    const res = await app.handle(new Request('http://localhost/calendar/economic', { headers: { 'x-api-key': 'k'.repeat(10) } }));
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe('market data temporarily unavailable');
    expect(logs.some((l) => l.includes('disk read failed'))).toBe(true);
    await store.close();
  });
});
