// One MCP server definition for both transports (stdio, Streamable HTTP at /mcp): the tools of
// tools.ts and the market and symbol lists as resources. Every tool call becomes the REST calls
// it mirrors, made through `rest` with the caller's key, so entitlements, quotas and error
// messages are REST's own; arguments are checked against the tool's schema first.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Value } from '@sinclair/typebox/value';
import { ASSET_CLASSES } from '../domain/asset-classes.ts';
import { VERSION } from '../version.ts';
import { TOOLS, type ToolDef } from './tools.ts';

/** Makes one REST GET (path with query) as the MCP client's key; resolves to the response. */
export type RestCaller = (pathAndQuery: string) => Promise<Response>;

const TOOL_BY_NAME = new Map<string, ToolDef>(TOOLS.map((t) => [t.name, t]));

/** A REST answer that is not a 200: its status and the error body's message. */
class RestRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    // REST's error body: {status, error, request_id}.
    const message = (body as { error?: unknown } | null)?.error;
    super(typeof message === 'string' ? message : `HTTP ${status}`);
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
  if (res.status !== 200) throw new RestRefusal(res.status, body);
  return body;
}

function toolError(message: string, structured?: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }], ...(structured && { structuredContent: structured }) };
}

/** Runs one tool call: schema check, the REST calls in order (stopping at the first refusal), the result. */
export async function callTool(rest: RestCaller, name: string, args: unknown): Promise<CallToolResult> {
  const tool = TOOL_BY_NAME.get(name);
  if (!tool) return toolError(`unknown tool ${JSON.stringify(name).slice(0, 60)}; the tools are ${TOOLS.map((t) => t.name).join(', ')}`);
  const input = (args ?? {}) as Record<string, unknown>;
  if (!Value.Check(tool.inputSchema, input)) {
    const problems = [...Value.Errors(tool.inputSchema, input)].slice(0, 5).map((e) => `${e.path || '(arguments)'}: ${e.message}`);
    return toolError(`invalid arguments for ${name}: ${problems.join('; ')}`);
  }
  try {
    const { structured, text } = await tool.run((path) => getJson(rest, path), input);
    return { content: [{ type: 'text', text }], structuredContent: structured };
  } catch (err) {
    if (err instanceof RestRefusal) return toolError(`${err.status}: ${err.message}`, { status: err.status, error: err.body });
    throw err;
  }
}

/** The MCP server over `rest`; connect it to a transport. */
export function createMcpServer(rest: RestCaller): Server {
  const server = new Server({ name: 'mds', title: 'mds market data', version: VERSION }, { capabilities: { tools: {}, resources: {} }, instructions: 'Market data from this mds: quotes, trades, bars, market hours, fundamentals, bond yields and the economic calendar. Timestamps are Unix milliseconds (UTC).' });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as { type: 'object'; [k: string]: unknown }, annotations: { readOnlyHint: true, openWorldHint: false } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(rest, req.params.name, req.params.arguments));
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
