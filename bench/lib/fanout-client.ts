// The fan-out load: N WebSocket connections in one process, each subscribed to the same channels.
// A minimal RFC 6455 client over Bun.connect (no per-message events or string decoding): it walks
// frame headers to count deliveries, and decodes `ts` from every SAMPLE_EVERY-th tick for latency,
// so the client stays cheaper than the server it measures.
//
// Protocol with the runner (bench/fanout.ts): argv[2] is a JSON config; the client prints
// `SUBSCRIBED <n>` when every connection has its ack, waits for `go` on stdin, warms up, measures,
// prints `RESULT <json>` and exits.
import type { Socket } from 'bun';

interface Config {
  port: number;
  key: string;
  connections: number;
  subscribe: string;
  warmupS: number;
  durationS: number;
  sampleEvery: number;
  /** Appended to the upgrade URL's query, e.g. `&slow=conflate` (default none). */
  query?: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;

/** Latency histogram in 0.1 ms buckets up to 60 s (the last bucket takes anything later). */
const BUCKET_MS = 0.1;
const histogram = new Uint32Array(600_001);

// Wall-clock milliseconds with sub-millisecond resolution: performance.now() anchored on the
// instant Date.now() ticks over, so it agrees with the server's Date.now()-based clock.
const anchor = (() => {
  const first = Date.now();
  let now = Date.now();
  while (now === first) now = Date.now();
  return now - performance.now();
})();
const wallMs = () => anchor + performance.now();

const enum Phase {
  Handshake,
  Open,
}

interface Conn {
  phase: Phase;
  handshake: string;
  carry: Buffer | null;
  subscribed: boolean;
  ticks: number;
  closed: boolean;
}

let measuring = false;
let subscribedCount = 0;
let closedAfterSubscribe = 0;
let ticksMeasured = 0;
let samples = 0;
let serverErrors: string[] = [];
/** Max over ready frames of server_time − receive time: bounds the server clock's offset from ours. */
let maxOffsetMs = -Infinity;
let offsetMs = 0;
const conns: Socket<Conn>[] = [];
let onAllSubscribed: () => void = () => {};

const TS_KEY = Buffer.from('"ts":');
const SERVER_TIME_KEY = Buffer.from('"server_time":');

function readInt(buf: Buffer, at: number): number {
  let v = 0;
  for (let c = buf[at]!; c >= 48 && c <= 57; c = buf[++at]!) v = v * 10 + (c - 48);
  return v;
}

/** A masked client frame (RFC 6455 §5.3): clients must mask; the key can be fixed for a bench. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = [0x12, 0x34, 0x56, 0x78];
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len]) : Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff]);
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i]! ^ mask[i & 3]!;
  return Buffer.concat([head, Buffer.from(mask), body]);
}
const SUBSCRIBE_FRAME = clientFrame(0x1, Buffer.from(config.subscribe));

function onText(socket: Socket<Conn>, buf: Buffer, p: number, len: number): void {
  const conn = socket.data;
  const kind = buf[p + 9]; // the first letter of the type in `{"type":"...`
  if (kind === 113 /* q */ || kind === 116 /* t */) {
    conn.ticks++;
    if (!measuring) return;
    ticksMeasured++;
    if (ticksMeasured % config.sampleEvery !== 0) return;
    const at = buf.indexOf(TS_KEY, p);
    if (at < 0 || at >= p + len) return;
    const latency = wallMs() - (readInt(buf, at + 5) - offsetMs);
    const bucket = Math.max(0, Math.min(histogram.length - 1, Math.floor(latency / BUCKET_MS)));
    histogram[bucket]!++;
    samples++;
    return;
  }
  if (kind === 114 /* r: ready */) {
    const at = buf.indexOf(SERVER_TIME_KEY, p);
    if (at >= 0 && at < p + len) maxOffsetMs = Math.max(maxOffsetMs, readInt(buf, at + SERVER_TIME_KEY.length) - wallMs());
    socket.write(SUBSCRIBE_FRAME);
    return;
  }
  if (kind === 115 /* s: subscribed */ && !conn.subscribed) {
    conn.subscribed = true;
    if (++subscribedCount === config.connections) onAllSubscribed();
    return;
  }
  if (kind === 101 /* e: error */ && serverErrors.length < 5) serverErrors.push(buf.toString('utf8', p, p + len));
}

function onFrames(socket: Socket<Conn>, data: Buffer): void {
  const conn = socket.data;
  const buf = conn.carry ? Buffer.concat([conn.carry, data]) : data;
  conn.carry = null;
  const n = buf.length;
  let i = 0;
  while (n - i >= 2) {
    const b0 = buf[i]!;
    let len = buf[i + 1]! & 0x7f;
    let head = 2;
    if (len === 126) {
      if (n - i < 4) break;
      len = buf.readUInt16BE(i + 2);
      head = 4;
    } else if (len === 127) {
      if (n - i < 10) break;
      len = buf.readUInt32BE(i + 6);
      head = 10;
    }
    if (n - i < head + len) break;
    const opcode = b0 & 0x0f;
    const p = i + head;
    if (opcode === 0x1) onText(socket, buf, p, len);
    else if (opcode === 0x9) socket.write(clientFrame(0xa, buf.subarray(p, p + len))); // ping → pong
    else if (opcode === 0x8) markClosed(conn);
    i = p + len;
  }
  if (i < n) conn.carry = Buffer.from(buf.subarray(i));
}

function markClosed(conn: Conn): void {
  if (conn.closed) return;
  conn.closed = true;
  if (conn.subscribed) closedAfterSubscribe++;
}

let finished = false;

function connect(): Promise<Socket<Conn>> {
  return new Promise((resolve, reject) => {
    const wsKey = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
    Bun.connect<Conn>({
      hostname: '127.0.0.1',
      port: config.port,
      data: { phase: Phase.Handshake, handshake: '', carry: null, subscribed: false, ticks: 0, closed: false },
      socket: {
        open(socket) {
          socket.write(`GET /?apiKey=${encodeURIComponent(config.key)}${config.query ?? ''} HTTP/1.1\r\nHost: 127.0.0.1:${config.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${wsKey}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
          resolve(socket);
        },
        data(socket, data) {
          const conn = socket.data;
          if (conn.phase === Phase.Open) return onFrames(socket, data);
          conn.handshake += data.toString('latin1');
          const end = conn.handshake.indexOf('\r\n\r\n');
          if (end < 0) return;
          if (!conn.handshake.startsWith('HTTP/1.1 101')) {
            if (serverErrors.length < 5) serverErrors.push(conn.handshake.slice(0, 300));
            socket.end();
            return;
          }
          conn.phase = Phase.Open;
          const rest = Buffer.from(conn.handshake.slice(end + 4), 'latin1');
          conn.handshake = '';
          if (rest.length > 0) onFrames(socket, rest);
        },
        close(socket) {
          if (!finished) markClosed(socket.data);
        },
        error(socket) {
          if (!finished) markClosed(socket.data);
        },
        connectError(_socket, err) {
          reject(err);
        },
      },
    }).catch(reject);
  });
}

async function main(): Promise<void> {
  const allSubscribed = new Promise<void>((resolve) => (onAllSubscribed = resolve));
  // Connect in small waves so the server's accept queue never overflows.
  for (let i = 0; i < config.connections; i += 50) {
    const wave = Array.from({ length: Math.min(50, config.connections - i) }, () => connect());
    conns.push(...(await Promise.all(wave)));
  }
  await allSubscribed;
  offsetMs = Math.ceil(maxOffsetMs - 0.01);
  console.log(`SUBSCRIBED ${subscribedCount}`);

  // Wait for the runner's go (all client processes subscribed).
  const reader = Bun.stdin.stream().getReader();
  for (let text = ''; !text.includes('go'); ) {
    const { value, done } = await reader.read();
    if (done) process.exit(1);
    text += new TextDecoder().decode(value);
  }

  await Bun.sleep(config.warmupS * 1000);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  measuring = true;
  await Bun.sleep(config.durationS * 1000);
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  finished = true;

  const perConn = conns.map((s) => s.data.ticks);
  const result = {
    connections: config.connections,
    subscribed: subscribedCount,
    closed: closedAfterSubscribe,
    seconds,
    messages: ticksMeasured,
    samples,
    offsetMs,
    cpuShare: (cpu.user + cpu.system) / 1e6 / seconds,
    minPerConn: Math.min(...perConn),
    maxPerConn: Math.max(...perConn),
    histogram: Array.from(histogram.entries()).filter(([, n]) => n > 0),
    errors: serverErrors,
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
  for (const s of conns) s.end();
  process.exit(0);
}

// Never outlive the bench runner.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000).unref();

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
