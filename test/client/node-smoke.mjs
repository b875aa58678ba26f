// Run by node-smoke.test.ts under Node: the built client (client/dist) against a running mds, as a
// Node user would use it. Node 18-21 have no global WebSocket: the ws package's is passed.
// Usage: node test/client/node-smoke.mjs BASE_URL API_KEY; prints one JSON line.
import { MdsClient, MdsError } from '../../client/dist/index.js';

const [base, key] = process.argv.slice(2);
const WebSocketClass = globalThis.WebSocket ?? (await import('ws')).WebSocket;
const client = new MdsClient({ baseUrl: base, apiKey: key });
const quote = await client.getCryptoQuote({ symbol: 'BTCUSD' });
const error = await client.getCryptoQuote({ symbol: 'NOPEUSD' }).catch((e) => e);
const stream = client.stream({ WebSocket: WebSocketClass });
await stream.subscribe({ channels: 'crypto.quotes', symbols: 'BTCUSD' });
const seqs = [];
let snapshot = null;
for await (const m of stream) {
  if (m.type !== 'quote') continue;
  if (snapshot === null) snapshot = m.snapshot === true;
  seqs.push(m.seq);
  if (seqs.length === 3) break;
}
stream.close();
console.log(
  JSON.stringify({
    node: process.version,
    webSocket: globalThis.WebSocket ? 'global' : 'ws',
    quoteSymbol: quote.symbol,
    error: { isMdsError: error instanceof MdsError, status: error.status, message: error.message, hasRequestId: typeof error.requestId === 'string' },
    snapshot,
    seqs,
  }),
);
