// One MCP server definition for both transports (stdio, Streamable HTTP at /mcp): the tools of
// tools.ts and the market and symbol lists as resources. Every tool call becomes the REST calls
// it mirrors, made through `rest` with the caller's key, so entitlements, quotas and error
// messages are REST's own; arguments are checked against the tool's schema first.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ASSET_CLASSES } from '../domain/asset-classes.ts';
import { VERSION } from '../version.ts';
import { argumentProblems } from './argument-errors.ts';
import { TOOLS, type ToolDef } from './tools.ts';

/** Makes one REST GET (path with query) as the MCP client's key; resolves to the response. */
export type RestCaller = (pathAndQuery: string) => Promise<Response>;

const TOOL_BY_NAME = new Map<string, ToolDef>(TOOLS.map((t) => [t.name, t]));

type JsonObjectSchema = { type: 'object'; [k: string]: unknown };
/** As MCP lists them; plain JSON (TypeBox's symbol keys dropped), built once. */
const TOOL_LIST = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: JSON.parse(JSON.stringify(t.inputSchema)) as JsonObjectSchema,
  outputSchema: JSON.parse(JSON.stringify(t.outputSchema)) as JsonObjectSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
}));

/** Where the tools' REST calls go: a running server (HTTP /mcp, `--url`) or a data dir read in-process, with no feed. */
export interface McpServerOptions {
  local?: boolean;
}

/** A REST answer that is not a 200: its status, the error body's message and its suggested symbols. */
class RestRefusal extends Error {
  readonly didYouMean: string[];
  constructor(
    readonly status: number,
    readonly path: string,
    body: unknown,
  ) {
    // REST's error body: {status, error, request_id, did_you_mean?}.
    const b = body as { error?: unknown; did_you_mean?: unknown } | null;
    super(typeof b?.error === 'string' ? b.error : `HTTP ${status}`);
    this.didYouMean = Array.isArray(b?.did_you_mean) ? b.did_you_mean.filter((s): s is string => typeof s === 'string') : [];
  }
}

async function getJson(rest: RestCaller, path: string): Promise<unknown> {
  const res = await rest(path);
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text.slice(0, 200) };
  }
  if (res.status !== 200) throw new RestRefusal(res.status, path, body);
  return body;
}

/**
 * A tool error: text only. A client validates any structuredContent against the tool's output
 * schema (the SDK's Client does, error or not), and an error is not the tool's output.
 */
function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** REST's refusal as the tool's error text: `STATUS: message`, then what to do about it. */
function refusalText(err: RestRefusal, opts: McpServerOptions): string {
  let text = `${err.status}: ${err.message}`;
  if (err.didYouMean.length > 0) text += `; did you mean ${err.didYouMean.join(' or ')}?`;
  else if (err.status === 404 && /unknown symbol|not supported/.test(err.message)) text += '; search_symbols finds a symbol by code or name';
  else if (err.status === 404 && err.message.startsWith('unknown market')) text += '; list_markets lists the market codes';
  if (err.status === 503 && err.path.startsWith('/perpetuals/') && opts.local) {
    text += '. Perpetual prices are composites of live venue quotes, which only a running mds with its feeds holds; this session (mds mcp --data-dir) reads the stored data and runs no feed. Connect the agent to the running server instead (mds mcp --url URL --key KEY, or POST /mcp), or use get_previous_bar or get_bars with class perpetuals, which answer from stored bars';
  }
  return text;
}

/** Runs one tool call: schema check, the REST calls in order (stopping at the first refusal), the result. */
export async function callTool(rest: RestCaller, name: string, args: unknown, opts: McpServerOptions = {}): Promise<CallToolResult> {
  const tool = TOOL_BY_NAME.get(name);
  if (!tool) return toolError(`unknown tool ${JSON.stringify(name).slice(0, 60)}; the tools are ${TOOLS.map((t) => t.name).join(', ')}`);
  const input = (args ?? {}) as Record<string, unknown>;
  const problems = argumentProblems(tool.inputSchema, input);
  if (problems.length > 0) return toolError(`invalid arguments for ${name}: ${problems.join('; ')}`);
  try {
    const { structured, text } = await tool.run((path) => getJson(rest, path), input);
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (err) {
    if (err instanceof RestRefusal) return toolError(refusalText(err, opts));
    throw err;
  }
}

const INSTRUCTIONS = [
  'Market data from this mds: quotes, trades, bars, market hours, fundamentals, bond yields and the economic calendar.',
  "Call get_server_time first when a question depends on today's date or on whether a market is open: it answers the server's clock, which its data follows.",
  'Timestamps are Unix milliseconds (UTC); dates are YYYY-MM-DD in UTC.',
  'Symbols: crypto BTCUSD, forex EURUSD, stocks US:AAPL (market prefix required), indices US500, ETFs US500ETF, commodities XAUUSD, perpetuals BTCUSDT, bonds US:10Y; search_symbols finds others.',
  'A refused symbol comes back with "did you mean" and the symbol meant.',
].join(' ');

/** The MCP server over `rest`; connect it to a transport. */
export function createMcpServer(rest: RestCaller, opts: McpServerOptions = {}): Server {
  const server = new Server({ name: 'mds', title: 'mds market data', version: VERSION }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(rest, req.params.name, req.params.arguments, opts));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      { uri: 'mds://markets', name: 'markets', title: 'Markets', description: 'every market with its time zone and hours (GET /markets)', mimeType: 'application/json' },
      ...ASSET_CLASSES.map((cls) => ({ uri: `mds://symbols/${cls}`, name: `symbols-${cls}`, title: `${cls} symbols`, description: `every ${cls} symbol the key may use (GET /${cls}/symbols)`, mimeType: 'application/json' })),
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    const m = /^mds:\/\/(markets|symbols\/([a-z]+))$/.exec(uri);
    const cls = m?.[2];
    if (!m || (cls !== undefined && !(ASSET_CLASSES as readonly string[]).includes(cls))) throw new Error(`unknown resource ${uri.slice(0, 80)}; the resources are mds://markets and mds://symbols/{class}`);
    const body = await getJson(rest, cls === undefined ? '/markets' : `/${cls}/symbols`).catch((err: unknown) => {
      throw err instanceof RestRefusal ? new Error(`${err.status}: ${err.message}`) : err;
    });
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
  });
  return server;
}
