// The MCP tools: each mirrors REST routes of the route table, with an input schema built from the
// same TypeBox schemas (class, path parameters, query), and is answered by calling those routes
// (so a tool call is checked, entitled, counted and refused exactly as the REST call is).
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { ROUTE_TABLE, type RouteRow } from '../api/route-table/index.ts';
import { ASSET_CLASSES, type AssetClass } from '../domain/asset-classes.ts';
import { listOutputSchema, outputSchemaOf, type OutputSchema } from './output-schemas.ts';
import { SERVER_TIME_TOOL } from './server-time.ts';
import { BOND_SYMBOL_ARG, classSymbolArg, classSymbolsArg, FUNDAMENTALS_SYMBOL_ARG, fixedClassSymbolArg } from './symbol-args.ts';

/** Most bars one `get_bars` call returns (the REST route allows 5000 per page). */
export const MCP_MAX_BARS = 1000;
/** Most symbols one `get_quotes` call asks for (one REST call each). */
export const MCP_MAX_QUOTES = 25;
/** Most matches `search_symbols` lists. */
export const MCP_MAX_MATCHES = 50;

/** One REST GET (path with query) as the caller's key: the 200 body, or it throws the refusal. */
export type RestGet = (pathAndQuery: string) => Promise<unknown>;

/** A tool's answer: the structured result and a short human-readable text. */
export interface ToolResult {
  structured: Record<string, unknown>;
  text: string;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: TObject;
  /** What `structured` always satisfies (MCP `outputSchema`): the REST routes' own 200 schemas. */
  outputSchema: TSchema | OutputSchema;
  /** Answers arguments already checked against the schema, through REST calls. */
  run(get: RestGet, args: Record<string, unknown>): Promise<ToolResult>;
}

function row(path: string): RouteRow {
  const found = ROUTE_TABLE.find((r) => r.path === path);
  if (!found) throw new Error(`route table has no ${path}`);
  return found;
}

/** The route rows of one path template for every class that has it (`/{class}/quote/:symbol`). */
function classRows(template: string): RouteRow[] {
  return ASSET_CLASSES.map((cls) => ROUTE_TABLE.find((r) => r.path === template.replace('{class}', cls))).filter((r): r is RouteRow => r !== undefined);
}

/** The classes of rows from `classRows(template)`: the path segment where the template has `{class}`. */
function classesOf(rows: RouteRow[], template: string): AssetClass[] {
  const at = template.split('/').indexOf('{class}');
  return rows.map((r) => r.path.split('/')[at]! as AssetClass);
}

const CLASS_ARG = 'asset class; the symbol must be of this class (see symbol)';

/** An input schema: the class (when the route exists per class), then the route's params and query. */
function inputOf(rows: RouteRow[], template: string, opts: { perClass: boolean; symbol?: TSchema; extra?: Record<string, TSchema>; omit?: string[]; override?: Record<string, TSchema> }): TObject {
  const first = rows[0]!;
  const props: Record<string, TSchema> = {};
  if (opts.perClass) props.class = Type.Union(classesOf(rows, template).map((c) => Type.Literal(c)), { description: CLASS_ARG });
  for (const [name, schema] of Object.entries({ ...(first.params?.properties ?? {}), ...(first.query?.properties ?? {}) })) {
    if (opts.omit?.includes(name)) continue;
    props[name] = opts.override?.[name] ?? (name === 'symbol' && opts.symbol ? opts.symbol : (schema as TSchema));
  }
  Object.assign(props, opts.extra ?? {});
  // Path parameters are required, query parameters optional (as the route table's schemas say).
  return Type.Object(props, { additionalProperties: false });
}

/** `/crypto/quote/:symbol` with `{symbol: 'BTCUSD'}` → `/crypto/quote/BTCUSD?…query`. */
function pathOf(template: string, args: Record<string, unknown>, queryNames: readonly string[]): string {
  const path = template.replace('{class}', String(args.class)).replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(String(args[name])));
  const query = new URLSearchParams();
  for (const name of queryNames) if (args[name] !== undefined) query.set(name, String(args[name]));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

function queryNames(r: RouteRow): string[] {
  return Object.keys(r.query?.properties ?? {});
}

const json = (value: unknown) => JSON.stringify(value);

/** A tool that is one REST route per class (or one route), its body the structured result. */
function mirror(name: string, title: string, template: string, description: string, summary: (body: Record<string, unknown>, args: Record<string, unknown>) => string, symbol?: TSchema): ToolDef {
  const perClass = template.includes('{class}');
  const rows = perClass ? classRows(template) : [row(template)];
  const q = queryNames(rows[0]!);
  return {
    name,
    title,
    description,
    inputSchema: inputOf(rows, template, { perClass, symbol: symbol ?? (perClass ? classSymbolArg(classesOf(rows, template)) : undefined) }),
    outputSchema: outputSchemaOf(...rows.map((r) => r.response)),
    run: async (get, args) => {
      const body = (await get(pathOf(template, args, q))) as Record<string, unknown>;
      return { structured: body, text: summary(body, args) };
    },
  };
}

const BARS = '/{class}/agg/:symbol/:multiplier/:timespan/:from/:to';
const LIST = '/{class}/symbols';

const PRICE_NOTE = 'Prices are in the quote currency; timestamps are Unix milliseconds (UTC).';
const STALE_NOTE = '`stale: true` means no live source feeds the symbol now (its venues went stale or stopped quoting): the values are the last known, not current; the text says STALE.';
/** The freshness mark of a quote or snapshot answer, in the tool's text (perpetual composites carry none: they are never stale). */
const staleMark = (b: Record<string, unknown>) => (b.stale === true ? ' [STALE: no live source; last known values]' : '');

const QUOTE = '/{class}/quote/:symbol';

export const TOOLS: readonly ToolDef[] = [
  SERVER_TIME_TOOL,
  {
    name: 'get_quotes',
    title: 'Latest quotes',
    description: `Latest bid/ask (with sizes where the class has them) of one or several symbols of one class, as GET /{class}/quote/{symbol} answers each. ${PRICE_NOTE} ${STALE_NOTE} At most ${MCP_MAX_QUOTES} symbols per call; each counts as one REST call against the key's quota.`,
    inputSchema: Type.Object(
      {
        class: Type.Union(classesOf(classRows(QUOTE), QUOTE).map((c) => Type.Literal(c)), { description: CLASS_ARG }),
        symbols: classSymbolsArg(classesOf(classRows(QUOTE), QUOTE), MCP_MAX_QUOTES),
      },
      { additionalProperties: false },
    ),
    outputSchema: listOutputSchema('quotes', classRows(QUOTE).map((r) => r.response), 'one quote per symbol asked, in the order asked'),
    run: async (get, args) => {
      const quotes: Record<string, unknown>[] = [];
      for (const symbol of args.symbols as string[]) quotes.push((await get(pathOf('/{class}/quote/:symbol', { ...args, symbol }, []))) as Record<string, unknown>);
      return { structured: { quotes }, text: quotes.map((q) => `${q.symbol}: bid ${q.bid} ask ${q.ask} at ${new Date(Number(q.timestamp)).toISOString()}${staleMark(q)}`).join('\n') };
    },
  },
  mirror('get_last_trade', 'Last trade', '/{class}/trade/last/:symbol', `The last trade of a symbol (price, size, time), as GET /{class}/trade/last/{symbol}. ${PRICE_NOTE}`, (b) => `${b.symbol}: last ${b.price} (size ${b.size}) at ${new Date(Number(b.timestamp)).toISOString()}`),
  mirror('get_snapshot', 'Snapshot', '/{class}/snapshot/:symbol', `Quote, last trade, today's bar and the previous close of a symbol in one answer, as GET /{class}/snapshot/{symbol}. ${PRICE_NOTE} Changes are in percent. ${STALE_NOTE}`, (b) => `${b.symbol}: bid ${b.bid} ask ${b.ask}, last ${b.last_price}, previous close ${b.prev_close}${staleMark(b)}`),
  {
    name: 'get_bars',
    title: 'Bars in a range',
    description: `OHLCV bars of a symbol between two UTC dates (inclusive), as GET /{class}/agg/{symbol}/{multiplier}/{timespan}/{from}/{to}: bar sizes 1/minute, 5/minute, 15/minute, 1/hour, 4/hour, 1/day; t is the bar's start in Unix ms. At most ${MCP_MAX_BARS} bars per call (limit, default 100); when more exist the answer has next_offset: call again with offset set to it.`,
    inputSchema: inputOf(classRows(BARS), BARS, {
      perClass: true,
      symbol: classSymbolArg(classesOf(classRows(BARS), BARS)),
      override: { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MCP_MAX_BARS, description: `bars per call, at most ${MCP_MAX_BARS} (default 100)` })) },
    }),
    outputSchema: outputSchemaOf(...classRows(BARS).map((r) => r.response)),
    run: async (get, args) => {
      const b = (await get(pathOf(BARS, { limit: 100, ...args }, queryNames(classRows(BARS)[0]!)))) as { symbol: string; results_count: number; total_count: number; next_offset: number | null };
      return { structured: b as unknown as Record<string, unknown>, text: `${b.symbol}: ${b.results_count} of ${b.total_count} bars${b.next_offset !== null ? `; more: call again with offset ${b.next_offset}` : ''}` };
    },
  },
  mirror('get_previous_bar', 'Previous bar', '/{class}/agg/:symbol/prev', `The last completed daily bar of a symbol (or, with interval, the latest settled bar of that size), as GET /{class}/agg/{symbol}/prev. ${PRICE_NOTE}`, (b) => {
    const bar = b.result as { t: number; o: number; h: number; l: number; c: number; v: number | null } | undefined;
    return bar ? `${b.symbol}: bar of ${new Date(bar.t).toISOString()}: open ${bar.o} high ${bar.h} low ${bar.l} close ${bar.c}${bar.v === null ? '' : ` volume ${bar.v}`}` : `${b.symbol}: ${json(b).slice(0, 200)}`;
  }),
  mirror(
    'get_perpetual_mark',
    'Perpetual composite',
    '/perpetuals/mark/:symbol',
    `The composite mark of a perpetual future across venues (median of live bids and asks) with source_count, the venues behind it, as GET /perpetuals/mark/{symbol}. ${PRICE_NOTE} It needs a live feed: with no venue live (and always over \`mds mcp --data-dir\`, which runs no feed) it answers 503; get_previous_bar and get_bars (class perpetuals) answer from stored bars.`,
    (b) => `${b.symbol}: mark ${b.mark ?? json(b).slice(0, 120)} from ${b.source_count} sources`,
    fixedClassSymbolArg('perpetuals', 'the perpetual'),
  ),
  mirror('list_markets', 'Markets', '/markets', 'Every market mds has a calendar for (stock exchanges and the class markets CRYPTO, FOREX, ...), with time zones and regular hours, as GET /markets.', (b) => `${(b.markets as unknown[] | undefined)?.length ?? 0} markets`),
  {
    name: 'get_market_status',
    title: 'Market status',
    description: 'Whether a market is open now (or at the instant `at`: ISO 8601 with Z or an offset, or Unix ms), its session and the next open/close, as GET /markets/{market}/status; without market, every market, as GET /markets/status.',
    inputSchema: inputOf([row('/markets/:market/status')], '/markets/:market/status', { perClass: false, override: { market: Type.Optional(Type.String({ description: 'market code such as US, DE, CRYPTO, FOREX; omit for every market', minLength: 1, maxLength: 20 })) } }),
    outputSchema: outputSchemaOf(row('/markets/:market/status').response, row('/markets/status').response),
    run: async (get, args) => {
      const body = (await get(args.market === undefined ? pathOf('/markets/status', args, ['at']) : pathOf('/markets/:market/status', args, ['at']))) as Record<string, unknown>;
      return { structured: body, text: args.market === undefined ? `status of ${((body.markets as unknown[] | undefined) ?? []).length} markets` : `${body.market}: ${json(body).slice(0, 200)}` };
    },
  },
  mirror('get_market_sessions', 'Market sessions', '/markets/:market/sessions', 'The trading sessions of a market between two local dates (open, close, breaks, early closes; times in Unix ms), as GET /markets/{market}/sessions; at most 366 days.', (b) => `${b.market}: ${(b.sessions as unknown[] | undefined)?.length ?? 0} sessions`),
  mirror('get_market_holidays', 'Market holidays', '/markets/:market/holidays', 'Holidays and early closes of a market between two local dates, as GET /markets/{market}/holidays; at most 366 days.', (b) => `${b.market}: ${(b.holidays as unknown[] | undefined)?.length ?? 0} holidays`),
  {
    name: 'search_symbols',
    title: 'Search and resolve symbols',
    description: `Finds symbols by code or name across classes (or in one class), the classes the query's shape suggests first; a commodity code such as CL1 resolves to its symbol (WTIUSD). Answers matches with class, symbol and name, at most ${MCP_MAX_MATCHES}. One REST call per class searched (GET /{class}/symbols), plus one to resolve a code.`,
    inputSchema: Type.Object(
      {
        query: Type.String({ minLength: 1, maxLength: 60, description: 'part of a symbol or name, or a code, such as BTC, CL1, apple' }),
        class: Type.Optional(Type.Union(classesOf(classRows(LIST), LIST).map((c) => Type.Literal(c)), { description: 'search one class only' })),
      },
      { additionalProperties: false },
    ),
    outputSchema: Type.Object(
      {
        query: Type.String(),
        matches: Type.Array(Type.Object({ class: Type.String(), symbol: Type.String(), name: Type.String(), resolved_from: Type.Optional(Type.String({ description: 'the alias asked for, when the match is what it resolves to' })) }, { additionalProperties: false })),
        total: Type.Integer({ description: 'matches before the cap' }),
      },
      { additionalProperties: false },
    ),
    run: async (get, args) => {
      const q = String(args.query).trim().toUpperCase();
      // `XAU/USD`, `BTC-USD`, `US.AAPL`: the code without the separators people write in it.
      const bare = bareSymbol(q);
      const classes = args.class !== undefined ? [args.class as string] : likelyClasses(q);
      const matches: { class: string; symbol: string; name: string; resolved_from?: string }[] = [];
      for (const cls of classes) {
        for (const s of symbolsOf(await get(`/${cls}/symbols`))) {
          const hit = [s.symbol, s.name ?? ''].some((h) => h.toUpperCase().includes(q)) || (bare.length > 1 && bareSymbol(s.symbol).includes(bare));
          if (hit) matches.push({ class: cls, symbol: s.symbol, name: s.name ?? '' });
        }
      }
      // A code no list shows (an alias): the class's own resolution says what it stands for.
      if (matches.length === 0 && classes.includes('commodities') && /^[A-Z]{1,4}\d{0,2}$/.test(q)) {
        try {
          const quote = (await get(`/commodities/quote/${encodeURIComponent(q)}`)) as { symbol: string };
          const listed = symbolsOf(await get('/commodities/symbols')).find((s) => s.symbol === quote.symbol);
          matches.push({ class: 'commodities', symbol: quote.symbol, name: listed?.name ?? '', resolved_from: q });
        } catch {
          // Not a code of the class: no match.
        }
      }
      matches.sort((a, b) => rank(a, q) - rank(b, q));
      const shown = matches.slice(0, MCP_MAX_MATCHES);
      return { structured: { query: args.query, matches: shown, total: matches.length }, text: shown.length === 0 ? `no symbol matches ${args.query}` : shown.map((m) => `${m.class} ${m.symbol}: ${m.name}`).join('\n') };
    },
  },
  mirror('get_fundamentals', 'Fundamentals', '/fundamentals/stocks/:symbol', 'Company fundamentals of a stock (market cap, shares, float, sector, ...), as GET /fundamentals/stocks/{symbol}; symbol as MARKET:TICKER such as US:AAPL.', (b) => `${b.symbol}: ${json(b).slice(0, 200)}`, FUNDAMENTALS_SYMBOL_ARG),
  mirror('list_fundamentals', 'Fundamentals, batch or page', '/fundamentals/stocks', 'Fundamentals of up to 100 stocks at once (symbols, comma-separated MARKET:TICKER), or one page of a market (market, cursor, limit), as GET /fundamentals/stocks.', (b) => `${((b.items ?? b.results) as unknown[] | undefined)?.length ?? 0} records${b.next_cursor ? '; more: call again with cursor set to next_cursor' : ''}`),
  mirror('get_bond_yield', 'Bond yield', '/bonds/yield/:symbol', 'The latest yield of a government bond in percent, as GET /bonds/yield/{symbol}; symbol COUNTRY:TENOR such as US:10Y.', (b) => `${b.symbol}: ${b.yield}% on ${b.date}`, BOND_SYMBOL_ARG),
  mirror('get_yield_curve', 'Yield curve', '/bonds/curve/:country', 'A country\'s government yield curve (percent per tenor) on a date (default the latest), as GET /bonds/curve/{country}.', (b) => `${b.country}: curve of ${b.date}`),
  mirror('get_bond_history', 'Bond yield history', '/bonds/history/:symbol', 'Daily yields (percent) of one bond between two dates, paged, as GET /bonds/history/{symbol}.', (b) => `${b.symbol}: ${b.results_count} of ${b.total_count} observations${b.next_offset !== null && b.next_offset !== undefined ? `; more: call again with offset ${b.next_offset}` : ''}`, BOND_SYMBOL_ARG),
  mirror('get_economic_calendar', 'Economic calendar', '/calendar/economic', 'Economic events (releases with actual, forecast and previous values) in a window of UTC dates, filtered by country and importance, paged, as GET /calendar/economic.', (b) => `${((b.items ?? b.results) as unknown[] | undefined)?.length ?? 0} events${b.next_cursor ? '; more: call again with cursor set to next_cursor' : ''}`),
  mirror('get_coverage', 'Coverage', '/coverage/{class}/:symbol', 'Which bar slots of a symbol inside its market\'s sessions have a bar, none because nothing traded, are gaps, or are pending (history not yet built), as merged ranges with counts (GET /coverage/{class}/{symbol}).', (b) => `${b.symbol}: ${json(b.totals)}`),
];

type SymbolItem = { symbol: string; name?: string };

/** A symbol without separators or market prefix colon: `US:BRK.B` → `USBRKB`. */
const bareSymbol = (s: string) => s.toUpperCase().replace(/[\s\-_/.:]+/g, '');

/** The entries of a class's symbol list: `{symbols}` for most classes, `{data, count}` for crypto (spec). */
function symbolsOf(body: unknown): SymbolItem[] {
  const b = body as { results?: SymbolItem[]; symbols?: SymbolItem[]; data?: SymbolItem[] } | SymbolItem[];
  if (Array.isArray(b)) return b;
  return b.results ?? b.symbols ?? b.data ?? [];
}

/** 0 for the symbol or name asked for (a pair's name is `Bitcoin / US Dollar`), 1 for a symbol starting with it, 2 otherwise. */
function rank(m: { symbol: string; name: string; resolved_from?: string }, q: string): number {
  if (m.symbol === q || m.symbol.endsWith(`:${q}`) || m.resolved_from === q || bareSymbol(m.symbol) === bareSymbol(q) || m.name.toUpperCase().split(' / ')[0] === q) return 0;
  if (m.symbol.startsWith(q)) return 1;
  return 2;
}

/** The classes a query may name, the likeliest first: a class is told from the symbol's shape. */
export function likelyClasses(query: string): string[] {
  const q = query.trim().toUpperCase();
  const all = classesOf(classRows(LIST), LIST);
  const pick = (first: string[]) => [...first, ...all.filter((c) => !first.includes(c))];
  if (/^[A-Z]{2}:[A-Z0-9.\-]+$/.test(q)) return pick(['stocks', 'overnight']);
  if (/USDT$/.test(q)) return pick(['perpetuals', 'crypto']);
  if (/^[A-Z]{6}$/.test(q) && /(USD|EUR|JPY|GBP|CHF|AUD|CAD|NZD)$/.test(q)) return pick(['forex', 'crypto', 'commodities']);
  return all;
}
