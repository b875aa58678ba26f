// Every session of the reference files (38 markets, 2015 to each file's last row) against the
// calendar: the date, open, close and break of each through GET /markets/{m}/sessions (one request
// per market-year, in-process), no session on the dates between, and GET /markets/{m}/status at the
// instants around every open, close and break edge (the calendar's status function for every
// session, the route for a sample).
import { describe, expect, test } from 'bun:test';
import type { Static } from '@sinclair/typebox';
import type { ApiDeps } from '../../src/api/deps.ts';
import { marketRoutes } from '../../src/api/routes/markets.ts';
import { ManualClock } from '../../src/clock.ts';
import { SessionSchema } from '../../src/domain/schemas.ts';
import { listMarkets, marketStatusAt, type Session } from '../../src/market/index.ts';
import { compareWithReference, readReference, REFERENCE_FILES, summarize } from './reference-sessions.ts';

/** Building a market's years from the holiday rules takes seconds on a loaded machine. */
const PER_MARKET_TIMEOUT_MS = 30_000;
const STOCK_MARKETS = listMarkets().filter((m) => m.type === 'stocks').map((m) => m.market).sort();
const deps: Pick<ApiDeps, 'clock'> = { clock: new ManualClock(Date.parse('2026-03-04T15:30:00Z')) };
const routes = marketRoutes(deps as ApiDeps);

type SessionRow = Static<typeof SessionSchema>;

const msOrNull = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** One year of sessions as the route serves them. */
async function sessionsOverHttp(market: string, year: number): Promise<Session[]> {
  const res = await routes.handle(new Request(`http://localhost/markets/${market}/sessions?from=${year}-01-01&to=${year}-12-31`));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { sessions: SessionRow[] };
  return body.sessions.map((s) => ({
    date: s.date, openMs: Date.parse(s.open), closeMs: Date.parse(s.close),
    breakStartMs: msOrNull(s.break_start), breakEndMs: msOrNull(s.break_end), earlyClose: s.early_close,
  }));
}

test('every stock market has a reference file', () => {
  expect(Object.keys(REFERENCE_FILES).sort()).toEqual(STOCK_MARKETS);
});

describe('sessions match the reference files', () => {
  for (const market of STOCK_MARKETS) {
    test(market, async () => {
      const ref = readReference(market);
      expect(ref.rows.length).toBeGreaterThan(1000);
      const years: Session[][] = [];
      for (let y = Number(ref.first.slice(0, 4)); y <= Number(ref.last.slice(0, 4)); y++) years.push(await sessionsOverHttp(market, y));
      const disagreements = compareWithReference(ref, years.flat());
      if (disagreements.length > 0) console.log(summarize(market, disagreements));
      expect(disagreements.length).toBe(0);
    }, PER_MARKET_TIMEOUT_MS);
  }
});

/** What the status says at `at`: open, in a break, or closed, and the session it is in. */
function statusAt(market: string, atMs: number): string {
  const s = marketStatusAt(market, atMs);
  return `${s.status}${s.sessionOpenMs === null ? '' : ` ${new Date(s.sessionOpenMs).toISOString()}`}`;
}

/** The expected status around each edge of one session, from its open, close and break. */
function edgeExpectations(s: Session): [number, string][] {
  const openIso = new Date(s.openMs).toISOString();
  const inSession = s.earlyClose ? `early_close ${openIso}` : `open ${openIso}`;
  const edges: [number, string][] = [[s.openMs - 1, 'closed'], [s.openMs, inSession], [s.closeMs - 1, inSession], [s.closeMs, 'closed']];
  if (s.breakStartMs !== null && s.breakEndMs !== null) {
    edges.push([s.breakStartMs - 1, inSession], [s.breakStartMs, `break ${openIso}`], [s.breakEndMs - 1, `break ${openIso}`], [s.breakEndMs, inSession]);
  }
  return edges;
}

describe('status at the edges of every reference session', () => {
  for (const market of STOCK_MARKETS) {
    test(market, async () => {
      const ref = readReference(market);
      const ours = new Map((await sessionsOverHttp(market, Number(ref.last.slice(0, 4)))).map((s) => [s.date, s]));
      // The edges of every session the reference and the calendar agree on (the sessions test above
      // proves they agree on every row but the listed exceptions).
      const wrong: string[] = [];
      let checked = 0;
      for (let y = Number(ref.first.slice(0, 4)); y < Number(ref.last.slice(0, 4)); y++) for (const s of await sessionsOverHttp(market, y)) ours.set(s.date, s);
      for (const row of ref.rows) {
        const session = ours.get(row.date);
        if (!session || session.openMs !== row.openMs || session.closeMs !== row.closeMs) continue;
        for (const [at, expected] of edgeExpectations(session)) {
          checked++;
          const actual = statusAt(market, at);
          if (actual !== expected) wrong.push(`${new Date(at).toISOString()} expected ${expected} got ${actual}`);
        }
      }
      if (wrong.length > 0) console.log(`${market}: ${wrong.length} wrong statuses\n  ${wrong.slice(0, 5).join('\n  ')}`);
      expect(checked).toBeGreaterThan(ref.rows.length * 2);
      expect(wrong).toEqual([]);
    }, PER_MARKET_TIMEOUT_MS);
  }

  test('the status route answers the same at the edges of a sample of sessions', async () => {
    for (const market of STOCK_MARKETS) {
      const ref = readReference(market);
      const date = ref.rows[Math.floor(ref.rows.length / 2)]?.date ?? '';
      const row = (await sessionsOverHttp(market, Number(date.slice(0, 4)))).find((s) => s.date === date);
      if (!row) throw new Error(`no session for ${market} on ${date}`);
      for (const [at, open] of [[row.openMs - 1000, false], [row.openMs, true], [row.closeMs - 1000, true], [row.closeMs, false]] as const) {
        const res = await routes.handle(new Request(`http://localhost/markets/${market}/status?at=${at}`));
        expect(res.status).toBe(200);
        const body = (await res.json()) as { is_open: boolean; session_open: string | null };
        const inBreak = row.breakStartMs !== null && row.breakEndMs !== null && at >= row.breakStartMs && at < row.breakEndMs;
        expect({ market, at, open: body.is_open }).toEqual({ market, at, open: open && !inBreak });
      }
    }
  });
});
