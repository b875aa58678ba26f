// What an agent needs so it does not guess, through the SDK's own Client over its in-memory
// transport against the MCP server on app.handle (a seeded store, a manual clock): the server
// time tool following the clock, the allowed values of every enum argument in its error, "did
// you mean" for near-miss symbols, output schemas the client validates, and the local session's
// reason why a perpetual mark cannot be served.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { allowedValues } from '../../src/mcp/argument-errors.ts';
import { MAIN_MARKETS } from '../../src/mcp/server-time.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const KEY = 'mcp-hints-dev-key';
/** Wednesday 2026-03-04 15:30 UTC: 10:30 in New York, the US session open. */
const WED = Date.UTC(2026, 2, 4, 15, 30);

let dir: TempDir;
let store: Store;
let clock: ManualClock;
let app: ReturnType<typeof createApp>;

beforeAll(() => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  seedRegistry(store, ALL_INSTRUMENTS);
  clock = new ManualClock(WED);
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: KEY, devPerMinute: 1_000_000 });
  app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

async function connect(local = false): Promise<Client & AsyncDisposable> {
  const server = createMcpServer((path) => app.handle(new Request(`http://mds.test${path}`, { headers: { 'x-api-key': KEY } })), { local });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mds-test', version: '1.0.0' });
  await client.connect(clientSide);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('get_server_time', () => {
  test("answers the server clock's now and the markets open at it, following the clock", async () => {
    await using client = await connect();
    await client.listTools();
    clock.set(WED);
    const wed = await call(client, 'get_server_time', {});
    expect(wed.isError ?? false).toBe(false);
    const w = wed.structuredContent as { now: string; now_ms: number; utc_date: string; utc_weekday: string; markets: { market: string; is_open: boolean; next_close: string | null }[] };
    expect({ now: w.now, now_ms: w.now_ms, utc_date: w.utc_date, utc_weekday: w.utc_weekday }).toEqual({ now: '2026-03-04T15:30:00Z', now_ms: WED, utc_date: '2026-03-04', utc_weekday: 'Wednesday' });
    expect(w.markets.map((m) => m.market).sort()).toEqual([...MAIN_MARKETS].sort());
    expect(w.markets.find((m) => m.market === 'US')).toMatchObject({ is_open: true, next_close: '2026-03-04T21:00:00Z' });
    expect(textOf(wed)).toStartWith('Server time 2026-03-04T15:30:00Z (Wednesday). Open: ');
    expect(textOf(wed)).toContain('US (closes 2026-03-04T21:00:00Z)');

    // Saturday noon: stock markets closed, crypto open.
    clock.set(Date.UTC(2026, 2, 7, 12, 0));
    const sat = (await call(client, 'get_server_time', { scope: 'all' })).structuredContent as typeof w;
    expect(sat.utc_weekday).toBe('Saturday');
    expect(sat.markets.length).toBeGreaterThan(MAIN_MARKETS.length);
    const open = (code: string) => sat.markets.find((m) => m.market === code)!.is_open;
    expect([open('US'), open('JP'), open('SG'), open('CRYPTO')]).toEqual([false, false, false, true]);
    expect(sat.markets.find((m) => m.market === 'US')).toMatchObject({ next_open: '2026-03-09T13:30:00Z' });
    clock.set(WED);
    // The first status of every market computes their calendars (lunisolar ones take seconds on a busy machine).
  }, 60_000);

  test('the server instructions send the agent to it', async () => {
    await using client = await connect();
    expect(client.getInstructions()).toContain('Call get_server_time first');
  });
});

describe('arguments an agent cannot guess wrong', () => {
  test('every enum argument of every tool: a bad value lists every allowed value', async () => {
    await using client = await connect();
    const { tools } = await client.listTools();
    let checked = 0;
    for (const tool of TOOLS) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties)) {
        const values = allowedValues(schema);
        if (!values) continue;
        const r = await call(client, tool.name, { [name]: 'bogus' });
        expect({ tool: tool.name, isError: r.isError }).toEqual({ tool: tool.name, isError: true });
        expect(textOf(r)).toContain(`${name} must be one of ${values.join(', ')}, not "bogus"`);
        expect(textOf(r)).not.toContain('Expected union value');
        checked++;
      }
    }
    // get_server_time scope, get_bars multiplier/timespan/sort, get_coverage timeframe, the class of each class tool, ...
    expect(checked).toBeGreaterThanOrEqual(12);
    expect(tools.length).toBe(TOOLS.length);
  });

  test('numbers, dates, lists, missing and unknown arguments say what is allowed', async () => {
    await using client = await connect();
    const bars = { class: 'crypto', symbol: 'BTCUSD', multiplier: 1, timespan: 'hour', from: '2026-03-03', to: '2026-03-04' };
    const cases: [string, Record<string, unknown>, string][] = [
      ['get_bars', { ...bars, multiplier: 7 }, 'multiplier must be one of 1, 4, 5, 15, not 7 (bar size in timespans; valid pairs: 1/minute, 5/minute, 15/minute, 1/hour, 4/hour, 1/day)'],
      ['get_bars', { ...bars, limit: 5000 }, 'limit must be an integer from 1 to 1000, not 5000'],
      ['get_bars', { ...bars, from: '03/03/2026' }, 'from must be a date as YYYY-MM-DD, not "03/03/2026"'],
      ['get_quotes', { class: 'crypto', symbols: [] }, 'symbols must be a list of 1 to 25 items'],
      ['get_last_trade', { class: 'crypto' }, 'symbol is required: text of 1 to 40 characters (the symbol in the format of the class'],
      ['get_last_trade', { class: 'crypto', symbol: 'BTCUSD', venue: 'x' }, '"venue" is not an argument of this tool; its arguments are class (required), symbol (required)'],
    ];
    for (const [name, args, message] of cases) expect(textOf(await call(client, name, args))).toContain(message);
  });

  test('each symbol argument states its own format with real examples', async () => {
    await using client = await connect();
    const { tools } = await client.listTools();
    const symbolOf = (name: string) => (tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { description: string; examples?: unknown[] }>)[name === 'get_quotes' ? 'symbols' : 'symbol']!;
    expect(symbolOf('get_bond_yield').description).toContain('COUNTRY:TENOR (colon required), e.g. US:10Y');
    expect(symbolOf('get_bond_history').examples).toContain('US:10Y');
    expect(symbolOf('get_perpetual_mark').description).toContain('the underlying code followed by USDT, e.g. BTCUSDT');
    expect(symbolOf('get_fundamentals').description).toContain('MARKET:TICKER of a market fundamentals cover (US, DE, ES, FR), e.g. US:AAPL');
    for (const name of ['get_last_trade', 'get_snapshot', 'get_bars', 'get_previous_bar', 'get_coverage', 'get_quotes']) {
      const d = symbolOf(name).description;
      for (const example of ['BTCUSD', 'EURUSD', 'US:AAPL', 'US500', 'US500ETF', 'XAUUSD', 'BTCUSDT']) expect({ name, has: d.includes(example) }).toEqual({ name, has: true });
      expect(d).toContain('a plain ticker is refused');
    }
    // The symbol descriptions are no longer one generic text shared by every tool.
    expect(new Set(['get_bond_yield', 'get_perpetual_mark', 'get_fundamentals', 'get_last_trade'].map((n) => symbolOf(n).description)).size).toBe(4);
  });
});

describe('did you mean', () => {
  test.each([
    ['get_last_trade', { class: 'crypto', symbol: 'BTC-USD' }, '404: unknown symbol; did you mean BTCUSD?'],
    ['get_snapshot', { class: 'stocks', symbol: 'AAPL' }, 'did you mean US:AAPL?'],
    ['get_quotes', { class: 'commodities', symbols: ['XAU/USD'] }, 'did you mean XAUUSD?'],
    ['get_quotes', { class: 'forex', symbols: ['eur-usd'] }, '404: unknown symbol; did you mean EURUSD?'],
    ['get_perpetual_mark', { symbol: 'BTCUSD' }, '404: unknown symbol; did you mean BTCUSDT?'],
    ['get_bond_yield', { symbol: 'US10Y' }, 'did you mean US:10Y?'],
    ['get_fundamentals', { symbol: 'MSFT' }, 'did you mean US:MSFT?'],
    ['get_last_trade', { class: 'crypto', symbol: 'NOPEUSD' }, '404: unknown symbol; search_symbols finds a symbol by code or name'],
  ])('%s %p → %s', async (name, args, message) => {
    await using client = await connect();
    const r = await call(client, name, args);
    expect({ isError: r.isError, text: textOf(r) }).toEqual({ isError: true, text: expect.stringContaining(message) });
    // Errors carry no structured content: it would have to match the tool's output schema.
    expect(r.structuredContent).toBeUndefined();
  });
});

test('search_symbols reads a code through its separators; an unknown market points to list_markets', async () => {
  await using client = await connect();
  // Crypto's list is {data, count}, unlike the others' {symbols}: it is searched too.
  for (const [query, first] of [['XAU/USD', 'XAUUSD'], ['BTC-USD', 'BTCUSD'], ['bitcoin', 'BTCUSD'], ['brk-b', 'US:BRK.B']] as const) {
    const r = await call(client, 'search_symbols', { query });
    expect({ query, first: (r.structuredContent as { matches: { symbol: string }[] }).matches[0]?.symbol }).toEqual({ query, first });
  }
  expect(textOf(await call(client, 'get_market_status', { market: 'XX' }))).toMatch(/^404: unknown market.*; list_markets lists the market codes$/);
});

describe('output schemas', () => {
  test('every tool declares one, an object schema the SDK validator compiles', async () => {
    await using client = await connect();
    const { tools } = await client.listTools();
    const ajv = new AjvJsonSchemaValidator();
    for (const t of tools as Tool[]) {
      expect({ name: t.name, type: t.outputSchema?.type }).toEqual({ name: t.name, type: 'object' });
      expect(() => ajv.getValidator(t.outputSchema!)).not.toThrow();
    }
  });

  test("a tool's answer validates; content not of its shape does not", async () => {
    await using client = await connect();
    const { tools } = await client.listTools();
    const ajv = new AjvJsonSchemaValidator();
    const schemaOf = (name: string) => tools.find((t) => t.name === name)!.outputSchema!;
    const status = await call(client, 'get_market_status', { market: 'US' });
    expect(ajv.getValidator(schemaOf('get_market_status'))(status.structuredContent).valid).toBe(true);
    const time = await call(client, 'get_server_time', {});
    expect(ajv.getValidator(schemaOf('get_server_time'))(time.structuredContent).valid).toBe(true);
    expect(ajv.getValidator(schemaOf('get_server_time'))({ ...time.structuredContent, now_ms: 'soon' }).valid).toBe(false);
    expect(ajv.getValidator(schemaOf('get_market_status'))({ market: 'US' }).valid).toBe(false);
  });
});

describe('get_perpetual_mark without a feed', () => {
  test('a local (data-dir) session says why there is no mark and what to use instead', async () => {
    await using local = await connect(true);
    const r = await call(local, 'get_perpetual_mark', { symbol: 'BTCUSDT' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toStartWith('503: market data temporarily unavailable: no live source for this composite. Perpetual prices are composites of live venue quotes');
    expect(textOf(r)).toContain('mds mcp --url URL --key KEY, or POST /mcp');
    // A server's session (HTTP /mcp, --url) says REST's 503 alone: its feed may come back.
    await using served = await connect(false);
    expect(textOf(await call(served, 'get_perpetual_mark', { symbol: 'BTCUSDT' }))).toBe('503: market data temporarily unavailable: no live source for this composite');
  });
});

test('docs/mcp.md lists every tool with each of its arguments', () => {
  const doc = readFileSync(resolve(import.meta.dir, '../../docs/mcp.md'), 'utf8');
  for (const tool of TOOLS) {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${tool.name}\` |`));
    expect({ tool: tool.name, documented: row !== undefined }).toEqual({ tool: tool.name, documented: true });
    for (const arg of Object.keys(tool.inputSchema.properties)) expect({ tool: tool.name, arg, documented: row!.includes(`\`${arg}\``) }).toEqual({ tool: tool.name, arg, documented: true });
  }
});
