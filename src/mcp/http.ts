// MCP over Streamable HTTP at `/mcp`, on the serving port: the key is checked as REST checks it
// (`x-api-key`, or `Authorization: Bearer KEY`), then each POST is answered by a fresh server and
// a stateless transport with JSON responses; tool calls go to REST as that key.
// The MCP SDK (with its schema libraries, about 230 modules) is loaded on the first POST, not at
// start: a server no agent talks to never loads it, starts sooner, and keeps less code in its heap,
// which every garbage collection walks (docs/performance.md, "What a collection costs").

export interface McpHttpDeps {
  /** The refusal of a missing or bad key (the REST gate's own), or null when the key is good. */
  refuse(request: Request, key: string | null): Response | null;
  /** One REST GET made as `key`. */
  rest(key: string, pathAndQuery: string): Promise<Response>;
}

/** The key of an MCP request: `x-api-key`, else a bearer token. */
export function mcpKeyOf(request: Request): string | null {
  const header = request.headers.get('x-api-key');
  if (header !== null) return header;
  const auth = request.headers.get('authorization');
  const m = auth === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return m ? m[1]! : null;
}

const jsonRpcError = (status: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), { status, headers: { 'content-type': 'application/json', allow: 'POST' } });

/** The SDK's transport and our tools, loaded once on first use. */
let sdk: Promise<{ Transport: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport; createMcpServer: typeof import('./server.ts').createMcpServer }> | null = null;
function loadSdk() {
  return (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('./server.ts')]).then(([transport, server]) => ({
    Transport: transport.WebStandardStreamableHTTPServerTransport,
    createMcpServer: server.createMcpServer,
  })));
}

export function createMcpHandler(deps: McpHttpDeps): (request: Request) => Promise<Response> {
  return async (request) => {
    const key = mcpKeyOf(request);
    const refused = deps.refuse(request, key);
    if (refused) return refused;
    // Stateless: no session to resume or stream to open, so only POST has a meaning.
    if (request.method !== 'POST') return jsonRpcError(405, `method ${request.method} not allowed: send MCP requests as POST (stateless Streamable HTTP with JSON responses)`);
    const { Transport, createMcpServer } = await loadSdk();
    const server = createMcpServer((path) => deps.rest(key!, path));
    const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      void server.close();
    }
  };
}
