// `mds mcp`: the MCP server over stdio, for desktop agents. Either beside a data dir, in-process
// (no server needed: the REST routes run here over the store, as a local operator's read-only
// session without key or quota), or in front of a running mds (`--url`, `--key`: every tool call
// is then that key's REST calls, with its plan, markets and quota).
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApp } from '../api/app.ts';
import { Authenticator } from '../auth/authenticator.ts';
import { systemClock } from '../clock.ts';
import { UsageError } from '../config.ts';
import { Pipeline } from '../ingest/pipeline.ts';
import { createMcpServer, type RestCaller } from '../mcp/server.ts';
import { Store, hasStore } from '../store/index.ts';
import { VERSION } from '../version.ts';
import { loadPlans } from './plans-file.ts';

export const MCP_HELP = `Usage: mds mcp --data-dir DIR
       mds mcp --url URL --key KEY

Serves the MCP tools (quotes, bars, market hours, fundamentals, bond yields, the economic
calendar, ...) over stdio, for an agent that starts mds as its MCP server.

  --data-dir DIR   answer from this data dir in-process: no server needs to run (one may); a local,
                   read-only session with every class and no quota (env MDS_DATA_DIR)
  --url URL        answer through the mds serving at URL (env MDS_URL), as the key --key
  --key KEY        the API key for --url (env MDS_API_KEY): its plan, markets and quota apply
  -h, --help       this text

Over HTTP, the same tools are served by 'mds serve' at POST /mcp (see docs/mcp.md).
`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runMcp(argv: string[], env: Record<string, string | undefined>, io: { out: (text: string) => void }): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}\nRun 'mds mcp --help' for the options.`);
  }
  if (values.help) {
    io.out(MCP_HELP);
    return 0;
  }
  const url = values.url ?? env.MDS_URL;
  const dataDir = values['data-dir'] ?? (url === undefined ? env.MDS_DATA_DIR : undefined);
  if (url !== undefined && values['data-dir'] !== undefined) throw new UsageError('give --data-dir or --url, not both');
  let rest: RestCaller;
  let close: () => Promise<unknown> = async () => {};
  let local = false;
  if (url !== undefined) {
    const key = values.key ?? env.MDS_API_KEY;
    if (!key) throw new UsageError('--url needs an API key: --key KEY or env MDS_API_KEY');
    let base: URL;
    try {
      base = new URL(url);
    } catch {
      throw new UsageError(`--url ${JSON.stringify(url)} is not a URL such as http://127.0.0.1:8080`);
    }
    const root = base.href.replace(/\/$/, '');
    rest = (path) => fetch(`${root}${path}`, { headers: { 'x-api-key': key } });
  } else if (dataDir !== undefined) {
    const dir = resolve(dataDir);
    if (!hasStore(dir)) throw new UsageError(`no mds data dir at ${dir}: start 'mds serve --data-dir ${dataDir}' once, or give --url`);
    const store = Store.open({ dataDir: dir });
    // A key of this process only: the session is the operator's own, on their own files.
    const localKey = `mds_local_${randomBytes(18).toString('base64url')}`;
    const auth = new Authenticator({ store, clock: systemClock, plans: loadPlans(null), devKey: localKey, devPerMinute: Number.MAX_SAFE_INTEGER });
    // Not started: it only resumes the bars in progress and composites as stored, for reading.
    const pipeline = new Pipeline(store, systemClock);
    const app = createApp({ store, bars: pipeline.bars, composites: pipeline, clock: systemClock, auth, feed: 'none', version: VERSION }, () => {});
    rest = (path) => Promise.resolve(app.handle(new Request(`http://mds.local${path}`, { headers: { 'x-api-key': localKey } })));
    close = () => store.close();
    local = true;
  } else {
    throw new UsageError("mds mcp needs --data-dir DIR (in-process) or --url URL --key KEY (a running mds)\nRun 'mds mcp --help' for the options.");
  }
  const server = createMcpServer(rest, { local });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  await close();
  return 0;
}
