// `mds mcp` over stdio, driven by the SDK's own Client that starts it as an agent would: in-process
// on a data dir with no server running, and in front of a running server with a key (its plan
// applies); usage errors for the command itself.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createKeyOn, runMds } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { TOOLS } from '../../src/mcp/tools.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');

async function stdioClient(...args: string[]): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'mds-test', version: '1.0.0' });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MDS_') && v !== undefined) env[k] = v;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, 'mcp', ...args], env, stderr: 'pipe' }));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('mds mcp over stdio', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    // Made by a server, which then stops: the data dir alone is what the stdio session reads.
    server = await startServer({ keepDataDir: true });
    dataDir = server.dataDir;
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('on a data dir with no server running: every tool listed, answers equal to what the server served', async () => {
    // Tuesday's bars: settled, so the ticks between this read and the stop cannot change them (today's last bar is still forming).
    const served = (await (await server.get('/crypto/agg/BTCUSD/1/hour/2026-03-03/2026-03-03?limit=5')).json()) as Record<string, unknown>;
    const sessions = (await (await server.get('/markets/US/sessions?from=2026-03-02&to=2026-03-06')).json()) as Record<string, unknown>;
    await server.stop();
    await using client = await stdioClient('--data-dir', dataDir);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    const bars = await call(client, 'get_bars', { class: 'crypto', symbol: 'BTCUSD', multiplier: 1, timespan: 'hour', from: '2026-03-03', to: '2026-03-03', limit: 5 });
    expect((served as { results_count: number }).results_count).toBe(5);
    expect(bars.structuredContent).toEqual(served);
    const s = await call(client, 'get_market_sessions', { market: 'US', from: '2026-03-02', to: '2026-03-06' });
    expect(s.structuredContent).toEqual(sessions);
    // Every class is open to the local session, and a bad symbol is REST's 404.
    expect((await call(client, 'get_last_trade', { class: 'indices', symbol: 'US500' })).isError ?? false).toBe(false);
    const missing = await call(client, 'get_last_trade', { class: 'crypto', symbol: 'NOPEUSD' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^404: /);
    // No feed runs here: the stored quote is served marked stale, in the text as in the structured answer.
    const quotes = await call(client, 'get_quotes', { class: 'crypto', symbols: ['BTCUSD'] });
    expect((quotes.structuredContent as { quotes: { stale: boolean }[] }).quotes[0]!.stale).toBe(true);
    expect(textOf(quotes)).toMatch(/^BTCUSD: bid .* \[STALE: no live source; last known values\]$/);
    expect(textOf(await call(client, 'get_snapshot', { class: 'crypto', symbol: 'BTCUSD' }))).toContain('[STALE');
    expect(tools.find((t) => t.name === 'get_quotes')!.description).toContain('`stale: true` means no live source feeds the symbol now');
    // A near-miss symbol names the symbol meant; every answer above passed the Client's output-schema check.
    expect(textOf(await call(client, 'get_last_trade', { class: 'crypto', symbol: 'BTC-USD' }))).toBe('404: unknown symbol; did you mean BTCUSD?');
    expect(tools.every((t) => t.outputSchema?.type === 'object')).toBe(true);
    // No feed runs here, so no perpetual mark: the error says why and what to use instead.
    const mark = await call(client, 'get_perpetual_mark', { symbol: 'BTCUSDT' });
    expect(mark.isError).toBe(true);
    expect(textOf(mark)).toContain('this session (mds mcp --data-dir) reads the stored data and runs no feed');
    const prev = await call(client, 'get_previous_bar', { class: 'perpetuals', symbol: 'BTCUSDT' });
    expect(prev.isError ?? false).toBe(false);
    // The local session's clock is the machine's: the time tool answers it, in the shape its schema states.
    const time = (await call(client, 'get_server_time', {})).structuredContent as { now: string; now_ms: number; utc_date: string };
    expect(time.utc_date).toBe(time.now.slice(0, 10));
    expect(new Date(time.now_ms).toISOString().replace('.000', '')).toBe(time.now);
    const markets = await client.readResource({ uri: 'mds://symbols/forex' });
    expect(JSON.parse((markets.contents[0] as { text: string }).text).symbols.length).toBeGreaterThan(10);
  }, 60_000);
});

describe('mds mcp --url in front of a running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  test('tool calls are the key REST calls: the free plan is refused indices', async () => {
    const { key } = await createKeyOn(server, '--plan', 'free');
    await using client = await stdioClient('--url', server.base, '--key', key);
    const refused = await call(client, 'get_last_trade', { class: 'indices', symbol: 'US500' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^403: /);
    const quotes = await call(client, 'get_quotes', { class: 'crypto', symbols: ['BTCUSD'] });
    expect((quotes.structuredContent as { quotes: { symbol: string }[] }).quotes[0]!.symbol).toBe('BTCUSD');
  }, 60_000);

  test('usage errors of the command say what is needed', async () => {
    const cases: [string[], string][] = [
      [[], 'mds mcp needs --data-dir DIR (in-process) or --url URL --key KEY'],
      [['--url', server.base], '--url needs an API key'],
      [['--url', 'not a url', '--key', 'k'], 'is not a URL'],
      [['--data-dir', '/nonexistent/mds'], 'no mds data dir at /nonexistent/mds'],
      [['--bogus'], "Unknown option '--bogus'"],
    ];
    for (const [args, message] of cases) {
      const r = await runMds('mcp', ...args);
      expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 2, err: expect.stringContaining(message) });
    }
    const help = await runMds('mcp', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: mds mcp --data-dir DIR');
  });
});
