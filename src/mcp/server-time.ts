// get_server_time: the service clock's now and which markets are open, so an agent knows today's
// date (get_bars wants dates) and whether a quote is live or from the last session. Answered by
// GET /markets/status, whose `as_of` is the server's clock (a simulated clock included), so the
// time is the server's and not the machine the agent runs on.
import { Type } from '@sinclair/typebox';
import type { ToolDef } from './tools.ts';

/** The markets `scope: main` shows: the largest stock exchanges and the class markets. */
export const MAIN_MARKETS = ['US', 'GB', 'DE', 'FR', 'JP', 'HK', 'CN', 'IN', 'CRYPTO', 'FOREX', 'COMMODITIES', 'INDICES', 'ETFS', 'OVERNIGHT'];

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface StatusRow {
  market: string;
  is_open: boolean;
  status: string;
  next_open: string | null;
  next_close: string | null;
}

const IsoSecond = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' });
const IsoOrNull = Type.Union([IsoSecond, Type.Null()]);

const ServerTimeSchema = Type.Object(
  {
    now: Type.String({ description: "the server clock's now, ISO 8601 UTC to the second" }),
    now_ms: Type.Integer({ description: 'the same instant in Unix milliseconds' }),
    utc_date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: "today's UTC date, as get_bars' from/to take it" }),
    utc_weekday: Type.String(),
    markets: Type.Array(
      Type.Object(
        {
          market: Type.String(),
          is_open: Type.Boolean(),
          status: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('break'), Type.Literal('early_close')]),
          next_open: IsoOrNull,
          next_close: IsoOrNull,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SERVER_TIME_TOOL: ToolDef = {
  name: 'get_server_time',
  title: 'Server time and open markets',
  description: `The server's current time (ISO 8601 UTC and Unix ms), today's UTC date and weekday, and whether each main market is open now with its next open or close (scope all: every market). Call it first when a question says today, yesterday, this week or now: the server's clock is the one its data follows. Main markets: ${MAIN_MARKETS.join(', ')}. One REST call (GET /markets/status).`,
  inputSchema: Type.Object(
    { scope: Type.Optional(Type.Union([Type.Literal('main'), Type.Literal('all')], { description: 'main (default): the markets listed in the description; all: every market', default: 'main' })) },
    { additionalProperties: false },
  ),
  outputSchema: ServerTimeSchema,
  run: async (get, args) => {
    const body = (await get('/markets/status')) as { as_of: string; markets: StatusRow[] };
    const nowMs = Date.parse(body.as_of);
    const rows = body.markets.filter((m) => args.scope === 'all' || MAIN_MARKETS.includes(m.market)).map((m) => ({ market: m.market, is_open: m.is_open, status: m.status, next_open: m.next_open, next_close: m.next_close }));
    const weekday = WEEKDAYS[new Date(nowMs).getUTCDay()]!;
    const open = rows.filter((m) => m.is_open).map((m) => `${m.market} (${m.next_close === null ? 'around the clock' : `${m.status === 'early_close' ? 'early close' : 'closes'} ${m.next_close}`})`);
    const closed = rows.filter((m) => !m.is_open).map((m) => `${m.market} (${m.status === 'break' ? 'on a break, reopens' : 'opens'} ${m.next_open ?? 'not scheduled'})`);
    return {
      structured: { now: body.as_of, now_ms: nowMs, utc_date: body.as_of.slice(0, 10), utc_weekday: weekday, markets: rows },
      text: `Server time ${body.as_of} (${weekday}). Open: ${open.join(', ') || 'none'}. Closed: ${closed.join(', ') || 'none'}.`,
    };
  },
};
