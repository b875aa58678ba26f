// A local venue replaying recorded book-ticker frames to every subscribed connection, at a set rate
// or as fast as the connection takes them (backpressure decides). Run as a child on the load core.
//
// Protocol with the runner: argv[2] is `{"venue": id, "rate": frames/s (0 = full speed)}`; prints
// `READY <port>`; on stdin `rate N` changes the rate (`rate -1` stops sending), `count K` prints
// `SENT K <frames sent so far>`.
import type { ServerWebSocket } from 'bun';
import { venueProtocolById } from '../../src/ingest/adapters/registry.ts';
import { aim, framesFromFixtures } from '../../test/support/local-venue.ts';

const config = JSON.parse(process.argv[2] ?? '{}') as { venue: string; rate: number };
const protocol = venueProtocolById(config.venue);
if (protocol === undefined) throw new Error(`no venue protocol ${config.venue}`);
const frames = framesFromFixtures(config.venue);
const pool = protocol.defaultInstruments.map((inst) => aim(frames.quote, inst.venueSymbol));

let rate = config.rate;
let sent = 0;
let next = 0;
const subscribed = new Set<ServerWebSocket<unknown>>();

/** Sends up to `n` frames to each subscribed connection; false once a connection pushes back. */
function push(ws: ServerWebSocket<unknown>, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const r = ws.send(pool[next++ % pool.length]!);
    if (r === 0) return false; // dropped: the connection is closing
    sent++;
    if (r === -1) return false; // queued behind backpressure: wait for drain
  }
  return true;
}

function fullSpeed(ws: ServerWebSocket<unknown>): void {
  if (rate !== 0 || !subscribed.has(ws)) return;
  // Fill until the socket pushes back; `drain` resumes. Yield now and then so stdin is read.
  if (push(ws, 4096)) setImmediate(() => fullSpeed(ws));
}

const TICK_MS = 10;
setInterval(() => {
  if (rate <= 0) return;
  const perTick = Math.max(1, Math.round((rate * TICK_MS) / 1000));
  for (const ws of subscribed) push(ws, perTick);
}, TICK_MS);

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (req, s) => (s.upgrade(req) ? undefined : new Response('websocket only', { status: 400 })),
  websocket: {
    backpressureLimit: 4 * 1024 * 1024,
    message(ws) {
      // The first frame is the subscription: start replaying to this connection.
      if (frames.ack !== undefined) ws.send(frames.ack);
      if (subscribed.has(ws)) return;
      subscribed.add(ws);
      fullSpeed(ws);
    },
    drain: (ws) => fullSpeed(ws),
    close: (ws) => {
      subscribed.delete(ws);
    },
  },
});

process.stdout.write(`READY ${server.port}\n`);
for await (const line of console) {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (cmd === 'rate') {
    rate = Number(arg);
    for (const ws of subscribed) fullSpeed(ws);
  } else if (cmd === 'count') process.stdout.write(`SENT ${arg} ${sent}\n`);
}
