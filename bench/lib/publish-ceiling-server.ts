// The fan-out ceiling: a bare Bun.serve WebSocket server that publishes quote frames to a single
// topic every client is subscribed to, as fast as the clients take them (it skips a turn while a
// sampled client has more than 1 MiB unsent, mds's default bound, so memory stays bounded as in
// mds). No store, no pipeline, no per-symbol topics: what Bun's `server.publish` delivers by itself
// on this machine. Each turn of the event loop publishes one frame per instrument (`--per-pass N`,
// default 64 frames of 8 symbols): Bun writes a turn's frames to each socket in one send, so the
// frames per turn set the frames per send, and on loopback the sends per second are the limit.
// A server that conflates to the newest quote per instrument (mds under full venue speed) has at
// most one frame per instrument per turn, so the fan-out bench passes the venue's instrument count.
// Speaks just enough of the mds protocol for bench/lib/fanout-client.ts: a `ready` frame with
// `server_time`, a `subscribed` ack to any text frame.
// Protocol with the runner: prints `READY <port>`; stops on SIGTERM.
import type { ServerWebSocket } from 'bun';

const TOPIC = 'q';
const MAX_UNSENT = 1 << 20;
const perPassAt = process.argv.indexOf('--per-pass');
const PER_PASS = perPassAt < 0 ? 0 : Number(process.argv[perPassAt + 1]);
if (perPassAt >= 0 && !(Number.isInteger(PER_PASS) && PER_PASS > 0)) throw new Error(`--per-pass: a positive integer, got ${process.argv[perPassAt + 1]}`);
/** Frames per turn of the event loop, and the symbols they cycle through. */
const BATCH = PER_PASS || 64;
const SYMBOLS = PER_PASS ? Array.from({ length: PER_PASS }, (_, i) => `SYM${i}USD`) : ['BTCUSD', 'ETHUSD', 'SOLUSD', 'XRPUSD', 'BNBUSD', 'ADAUSD', 'DOGEUSD', 'AVAXUSD'];
const sockets: ServerWebSocket<unknown>[] = [];
let seq = 0;
let sample = 0;

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(req, srv) {
    return srv.upgrade(req, { data: undefined }) ? undefined : new Response('upgrade required', { status: 400 });
  },
  websocket: {
    idleTimeout: 120,
    open(ws) {
      sockets.push(ws);
      ws.send(`{"type":"ready","server_time":${Date.now()}}`);
    },
    message(ws) {
      ws.subscribe(TOPIC);
      ws.send('{"type":"subscribed"}');
    },
    close(ws) {
      sockets.splice(sockets.indexOf(ws), 1);
    },
  },
});

/** Whether a few sampled clients have little unsent: the clients keep up. */
function clientsKeepUp(): boolean {
  for (let i = 0; i < 8 && sockets.length > 0; i++) {
    if (sockets[sample++ % sockets.length]!.getBufferedAmount() > MAX_UNSENT) return false;
  }
  return true;
}

function publishSome(): void {
  if (server.subscriberCount(TOPIC) > 0 && clientsKeepUp()) {
    for (let i = 0; i < BATCH; i++) {
      const s = ++seq;
      const ts = Date.now();
      const bid = 95000 + (s % 1000) / 100;
      server.publish(TOPIC, `{"type":"quote","channel":"crypto.quotes","asset":"crypto","symbol":"${SYMBOLS[s % SYMBOLS.length]}","bid":${bid},"ask":${bid + 0.01},"bid_size":1.25,"ask_size":0.75,"ts":${ts},"timestamp":${ts},"seq":${s}}`);
    }
    setImmediate(publishSome);
  } else setTimeout(publishSome, 1);
}
publishSome();

process.on('SIGTERM', () => {
  server.stop(true);
  process.exit(0);
});
console.log(`READY ${server.port}`);
