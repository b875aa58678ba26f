// The MCP server over Streamable HTTP at /mcp, driven by the SDK's own Client against a real mds:
// the tool list with output schemas and per-tool symbol descriptions, every tool with good and
// bad arguments (allowed values, did-you-mean), the server's time, REST's refusals (free plan, markets), the
// quota counted once per REST call a tool makes, resources, and the key check at the door.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { createKeyOn, runMds, until } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { MCP_MAX_BARS, TOOLS } from '../../src/mcp/tools.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function connect(key: string | null, how: 'header' | 'bearer' = 'header', base = server.base): Promise<Client & AsyncDisposable> {
  const headers: Record<string, string> = key === null ? {} : how === 'header' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
  const client = new Client({ name: 'mds-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/** A good call per tool, on the simulator's data at the test clock (Wednesday 2026-03-04, US open). */
const GOOD: Record<string, Record<string, unknown>> = {
  get_server_time: {},
  get_quotes: { class: 'crypto', symbols: ['BTCUSD', 'ETHUSD'] },
  get_last_trade: { class: 'crypto', symbol: 'BTCUSD' },
  get_snapshot: { class: 'stocks', symbol: 'US:AAPL' },
  // Tuesday: settled bars, equal between an MCP call and the REST call after it (today's last bar still forms).
  get_bars: { class: 'crypto', symbol: 'BTCUSD', multiplier: 1, timespan: 'hour', from: '2026-03-03', to: '2026-03-03', limit: 5 },
  get_previous_bar: { class: 'forex', symbol: 'EURUSD' },
  get_perpetual_mark: { symbol: 'BTCUSDT' },
  list_markets: {},
  get_market_status: { market: 'US', at: '2026-03-04T15:00:00Z' },
  get_market_sessions: { market: 'US', from: '2026-03-02', to: '2026-03-06' },
  get_market_holidays: { market: 'US', from: '2026-01-01', to: '2026-12-31' },
  search_symbols: { query: 'CL1' },
  get_fundamentals: { symbol: 'US:AAPL' },
  list_fundamentals: { symbols: 'US:AAPL,DE:SAP' },
  get_bond_yield: { symbol: 'US:10Y' },
  get_yield_curve: { country: 'US' },
  get_bond_history: { symbol: 'US:10Y', from: '2026-02-02', to: '2026-03-04', limit: 5 },
  get_economic_calendar: { from: '2026-03-02', to: '2026-03-06', country: 'US' },
  get_coverage: { class: 'crypto', symbol: 'BTCUSD', from: '2026-03-04', to: '2026-03-04' },
};

describe('MCP over HTTP (/mcp)', () => {
  test('lists every tool with an object input schema and a description that states units or limits', async () => {
    await using client = await connect(server.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    expect(Object.keys(GOOD).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description!.length).toBeGreaterThan(40);
    }
    expect(tools.find((t) => t.name === 'get_bars')!.description).toContain(`At most ${MCP_MAX_BARS} bars per call`);
    for (const t of tools) expect({ name: t.name, outputSchema: t.outputSchema?.type }).toEqual({ name: t.name, outputSchema: 'object' });
    const symbolDescription = (name: string) => (t => (t.inputSchema.properties as Record<string, { description: string }>).symbol!.description)(tools.find((t) => t.name === name)!);
    expect(symbolDescription('get_bond_yield')).toContain('e.g. US:10Y');
    expect(symbolDescription('get_perpetual_mark')).toContain('e.g. BTCUSDT');
    expect(symbolDescription('get_fundamentals')).toContain('e.g. US:AAPL');
    expect(symbolDescription('get_last_trade')).toContain('stocks: MARKET:TICKER');
  });

  test.each(Object.entries(GOOD))('%s answers structured content of its output schema and a text', async (name, args) => {
    await using client = await connect(server.key);
    // Listing the tools makes the SDK's Client validate each answer against the tool's outputSchema (it throws otherwise).
    const { tools } = await client.listTools();
    const r = await call(client, name, args);
    expect(new AjvJsonSchemaValidator().getValidator(tools.find((t) => t.name === name)!.outputSchema!)(r.structuredContent).valid).toBe(true);
    expect({ name, isError: r.isError ?? false, text: textOf(r) }).toMatchObject({ name, isError: false });
    expect(r.structuredContent).toBeObject();
    expect(textOf(r).length).toBeGreaterThan(0);
  });

  test("get_server_time answers the server's clock (the test clock), not the machine's", async () => {
    await using client = await connect(server.key);
    const r = await call(client, 'get_server_time', {});
    const served = (await (await server.get('/markets/status')).json()) as { as_of: string };
    const now = r.structuredContent as { now: string; utc_date: string; markets: { market: string }[] };
    // The test server's clock starts on Wednesday 2026-03-04 and runs on from there.
    expect(now.utc_date).toBe('2026-03-04');
    expect(served.as_of.slice(0, 10)).toBe('2026-03-04');
    expect(Date.parse(now.now)).toBeLessThanOrEqual(Date.parse(served.as_of));
    expect(now.markets.map((m) => m.market)).toContain('US');
  }, 60_000);

  test('tool results equal the REST answers they mirror', async () => {
    await using client = await connect(server.key);
    const bars = await call(client, 'get_bars', GOOD.get_bars!);
    const rest = (await (await server.get('/crypto/agg/BTCUSD/1/hour/2026-03-03/2026-03-03?limit=5')).json()) as Record<string, unknown>;
    expect(bars.structuredContent).toEqual(rest);
    expect(textOf(bars)).toMatch(/^BTCUSD: 5 of \d+ bars; more: call again with offset 5$/);
    const search = await call(client, 'search_symbols', { query: 'CL1' });
    expect((search.structuredContent as { matches: { class: string; symbol: string }[] }).matches[0]).toMatchObject({ class: 'commodities', symbol: 'WTIUSD' });
  });

  test('bad arguments are tool errors naming what is wrong; the session goes on', async () => {
    await using client = await connect(server.key);
    const cases: [string, Record<string, unknown>, string][] = [
      ['get_quotes', { class: 'crypto', symbols: [] }, 'invalid arguments for get_quotes: symbols must be a list of 1 to 25 items'],
      ['get_quotes', { class: 'bonds', symbols: ['X'] }, 'invalid arguments for get_quotes: class must be one of crypto, forex, stocks, indices, etfs, commodities, perpetuals, overnight, not "bonds"'],
      ['get_bars', { ...GOOD.get_bars, limit: MCP_MAX_BARS + 1 }, `invalid arguments for get_bars: limit must be an integer from 1 to ${MCP_MAX_BARS}, not ${MCP_MAX_BARS + 1}`],
      ['get_last_trade', { class: 'crypto' }, 'invalid arguments for get_last_trade: symbol is required'],
      ['get_last_trade', { class: 'crypto', symbol: 'NOPEUSD' }, '404: unknown symbol; search_symbols finds a symbol by code or name'],
      ['get_last_trade', { class: 'crypto', symbol: 'BTC-USD' }, '404: unknown symbol; did you mean BTCUSD?'],
      ['get_snapshot', { class: 'stocks', symbol: 'AAPL' }, 'did you mean US:AAPL?'],
      ['get_quotes', { class: 'commodities', symbols: ['XAU/USD'] }, 'did you mean XAUUSD?'],
      ['get_bars', { ...GOOD.get_bars, multiplier: 7 }, 'invalid arguments for get_bars: multiplier must be one of 1, 4, 5, 15, not 7'],
      ['get_bars', { ...GOOD.get_bars, timespan: 'week' }, 'timespan must be one of minute, hour, day, not "week"'],
      ['get_server_time', { scope: 'today' }, 'scope must be one of main, all, not "today"'],
      ['get_bars', { ...GOOD.get_bars, from: '2026-03-05', to: '2026-03-01' }, '400: '],
      ['no_such_tool', {}, 'unknown tool "no_such_tool"'],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(client, name, args);
      expect({ name, isError: r.isError, text: textOf(r) }).toEqual({ name, isError: true, text: expect.stringContaining(message) });
    }
    expect((await call(client, 'get_last_trade', GOOD.get_last_trade!)).isError ?? false).toBe(false);
  });

  test('the key plan, markets and quota apply per REST call a tool makes', async () => {
    // On the real clock: `mds keys show` counts usage in the quota window of now. No history
    // template: making one for this clock would start the server's clock seconds behind the machine's.
    await using own = await startServer({ args: ['--clock-start', String(Date.now())], template: false });
    const { id, key } = await createKeyOn(own, '--plan', 'free');
    const used = async () => {
      const r = await runMds('keys', 'show', id, '--json', '--data-dir', own.dataDir);
      if (r.code !== 0) throw new Error(`mds keys show: ${r.err}`);
      return JSON.parse(r.out).used as number;
    };
    // Usage reaches the data dir through the write queue: wait for it as an operator would.
    const settle = async (want: number) => {
      await until(async () => (await used()) >= want, `usage to reach ${want}`);
      return used();
    };
    const before = await settle(1);
    await using client = await connect(key, 'bearer', own.base);
    const indices = await call(client, 'get_last_trade', { class: 'indices', symbol: 'US500' });
    expect(indices.isError).toBe(true);
    expect(textOf(indices)).toMatch(/^403: /);
    const de = await call(client, 'get_snapshot', { class: 'stocks', symbol: 'DE:SAP' });
    expect(textOf(de)).toMatch(/^403: /);
    const ok = await call(client, 'get_quotes', { class: 'crypto', symbols: ['BTCUSD', 'ETHUSD', 'SOLUSD'] });
    expect(ok.isError ?? false).toBe(false);
    // Listing tools and bad arguments make no REST call; the refusals count as REST counts them.
    await client.listTools();
    await call(client, 'get_quotes', { class: 'crypto', symbols: [] });
    expect(await settle(before + 5)).toBe(before + 5);
  }, 60_000);

  test('resources: the market list and each class symbol list', async () => {
    await using client = await connect(server.key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('mds://symbols/crypto');
    const markets = await client.readResource({ uri: 'mds://markets' });
    expect(JSON.parse((markets.contents[0] as { text: string }).text)).toEqual(await (await server.get('/markets')).json());
    await expect(client.readResource({ uri: 'mds://nothing' })).rejects.toThrow('unknown resource');
  });

  test('without a key or with a bad one, /mcp answers as REST does', async () => {
    const none = await fetch(`${server.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { message: string }).message).toBe((await (await fetch(`${server.base}/crypto/quote/BTCUSD`)).json() as { message: string }).message);
    const bad = await fetch(`${server.base}/mcp`, { method: 'POST', headers: { 'x-api-key': 'nope-nope-nope', 'content-type': 'application/json' }, body: '{}' });
    expect(bad.status).toBe(401);
    const get = await fetch(`${server.base}/mcp`, { headers: { 'x-api-key': server.key } });
    expect(get.status).toBe(405);
  });
});
