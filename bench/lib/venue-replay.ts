// A local venue replaying recorded book-ticker frames to every subscribed connection, at a set rate
// or as fast as the connection takes them (backpressure decides). Run as a child on the load core.
//
// Protocol with the runner: argv[2] is `{"venue": id, "rate": frames/s (0 = full speed), "vary"?:
// bool (default true)}`; prints `READY <port>`; on stdin `rate N` changes the rate (`rate -1` stops
// sending), `count K` prints `SENT K <frames sent so far>`.
//
// To be cheap enough for one core it is a raw TCP server (Bun.listen) doing the server side of
// WebSocket itself: the replay is one prebuilt buffer of many whole server frames back to back,
// handed to the socket in large writes, so a write costs one syscall for about 1,700 frames.
// With `vary`, each instrument gets VARIANTS versions of its frame with different bid and ask,
// interleaved so consecutive frames are about different symbols and each symbol's next frame
// differs from its last.
import { createHash } from 'node:crypto';
import type { Socket } from 'bun';
import { venueProtocolById } from '../../src/ingest/adapters/registry.ts';
import { aim, framesFromFixtures } from '../../test/support/local-venue.ts';

const config = JSON.parse(process.argv[2] ?? '{}') as { venue: string; rate: number; vary?: boolean };
const protocol = venueProtocolById(config.venue);
if (protocol === undefined) throw new Error(`no venue protocol ${config.venue}`);
const frames = framesFromFixtures(config.venue);
const vary = config.vary ?? true;

/** Versions of each instrument's frame; an even count so the triangle walk below never repeats. */
const VARIANTS = 64;
/** Instrument ticks (10^-decimals) between one variant's prices and the next's. */
const TICKS_PER_STEP = 3;

// ---- Frames ----------------------------------------------------------------------------------

/** Field pairs holding a quote's best bid and ask, as venues name them. */
const QUOTE_FIELDS: readonly (readonly [string, string])[] = [
  ['b', 'a'], // binance book ticker (raw stream or the `data` of a combined stream)
  ['bid', 'ask'],
  ['bp', 'ap'],
  ['bidPrice', 'askPrice'],
  ['best_bid', 'best_ask'],
  ['bid_price', 'ask_price'],
];

type Json = Record<string, unknown>;
const isNumeric = (v: unknown) => (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) || (typeof v === 'number' && Number.isFinite(v) && v > 0);

/** The first object in `v` (depth first) with a bid/ask pair of numbers or numeric strings. */
function findQuote(v: unknown, depth = 0): { obj: Json; bid: string; ask: string } | undefined {
  if (depth > 6 || v === null || typeof v !== 'object') return undefined;
  if (!Array.isArray(v)) {
    const obj = v as Json;
    for (const [bid, ask] of QUOTE_FIELDS) if (isNumeric(obj[bid]) && isNumeric(obj[ask])) return { obj, bid, ask };
  }
  for (const child of Object.values(v as object)) {
    const found = findQuote(child, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const decimalsOf = (v: string | number) => (String(v).split('.')[1] ?? '').length;
/** `units` of 10^-d written with exactly `d` decimals (as the venue wrote the price). */
function formatUnits(units: number, d: number): string {
  if (d === 0) return String(units);
  const s = String(units).padStart(d + 1, '0');
  return `${s.slice(0, -d)}.${s.slice(-d)}`;
}

/**
 * `VARIANTS` texts of `text` (a frame about one instrument) whose bid and ask step by
 * TICKS_PER_STEP instrument ticks, up and back down (a triangle walk, so each variant differs from
 * the one before it, the last from the first included); the ask also widens by 0–2 ticks, so ask > bid
 * holds when it held in the recording. Prices keep the recording's decimals (and type: string or
 * number). A frame with no bid/ask pair found (a venue whose quote is not a JSON object with one of
 * QUOTE_FIELDS, e.g. an array-shaped quote) falls back to the unchanged frame.
 */
function variants(text: string, instDecimals: number): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [text];
  }
  const q = findQuote(parsed);
  if (q === undefined) return [text];
  const bid0 = q.obj[q.bid] as string | number;
  const ask0 = q.obj[q.ask] as string | number;
  const d = Math.max(decimalsOf(bid0), decimalsOf(ask0));
  const scale = 10 ** d;
  const bidUnits = Math.round(Number(bid0) * scale);
  const askUnits = Math.round(Number(ask0) * scale);
  // One instrument tick in units of the recording's last decimal (at least one unit).
  const tick = 10 ** Math.max(0, d - instDecimals);
  const asType = (orig: string | number, units: number) => (typeof orig === 'string' ? formatUnits(units, d) : Number(formatUnits(units, d)));
  const seq = typeof q.obj.u === 'number' ? q.obj.u : undefined;
  const out: string[] = [];
  for (let k = 0; k < VARIANTS; k++) {
    const walk = k <= VARIANTS / 2 ? k : VARIANTS - k;
    const up = walk * TICKS_PER_STEP * tick;
    q.obj[q.bid] = asType(bid0, bidUnits + up);
    q.obj[q.ask] = asType(ask0, askUnits + up + (k % 3) * tick);
    if (seq !== undefined) q.obj.u = seq + k; // binance's update id: a fresh one per book
    out.push(JSON.stringify(parsed));
  }
  return out;
}

/** One unmasked server frame (FIN set) of `opcode` carrying `payload`. */
function serverFrame(opcode: number, payload: Uint8Array): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const f = Buffer.allocUnsafe(head + n);
  f[0] = 0x80 | opcode;
  if (n < 126) f[1] = n;
  else if (n < 65536) {
    f[1] = 126;
    f.writeUInt16BE(n, 2);
  } else {
    f[1] = 127;
    f.writeBigUInt64BE(BigInt(n), 2);
  }
  f.set(payload, head);
  return f;
}
const textFrame = (s: string) => serverFrame(0x1, Buffer.from(s, 'utf8'));

// The replay cycle: variant k of every instrument, then variant k+1 of every one, ...
// An instrument without its decimals steps by cents.
const perInstrument = protocol.defaultInstruments.map((inst) => {
  const text = aim(frames.quote, inst.venueSymbol);
  return vary ? variants(text, inst.decimals ?? 2) : [text];
});
const cycleTexts: string[] = [];
const depth = Math.max(...perInstrument.map((v) => v.length));
for (let k = 0; k < depth; k++) for (const v of perInstrument) cycleTexts.push(v[k % v.length]!);
const cycleFrames = cycleTexts.map(textFrame);
/** Frames in one cycle. */
const C = cycleFrames.length;
/** The cycle twice over, so any run of up to C frames from any frame on is one contiguous slice. */
const replay = Buffer.concat([...cycleFrames, ...cycleFrames]);
const cycleBytes = replay.length / 2;
/** starts[j]: the byte where frame j of `replay` begins (j = 0..2C; starts[2C] is the end). */
const starts = new Float64Array(2 * C + 1);
for (let j = 0, at = 0; j < 2 * C; j++) {
  starts[j] = at;
  at += cycleFrames[j % C]!.length;
  starts[j + 1] = at;
}
/** Frames of `replay` wholly before byte `off` (binary search over the frame ends). */
function framesBefore(off: number): number {
  let lo = 0;
  let hi = 2 * C; // the answer j is the largest with starts[j] <= off
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= off) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
const ack = frames.ack === undefined ? undefined : textFrame(frames.ack);

// ---- Connections -----------------------------------------------------------------------------

interface Conn {
  /** Received bytes not parsed yet (the upgrade request, then client frames). */
  inbuf: Buffer | null;
  upgraded: boolean;
  /** A fragmented message being collected (its opcode and parts), or null. */
  fragOp: number;
  frags: Buffer[] | null;
  subscribed: boolean;
  /** The slice of `replay` being written: [off, end). Always starts and ends on frame boundaries. */
  off: number;
  end: number;
  /** Frame (0..C-1) the next slice starts at. */
  next: number;
  /** Frames allowed at a set rate and not yet sliced, and when the allowance was last topped up. */
  budget: number;
  lastTopUp: number;
  /** Whole frames to send between replay slices (handshake, ack, pong, close); ctrlOff into the first. */
  ctrl: Buffer[];
  ctrlOff: number;
  /** End the socket once the control frames are out (after a close). */
  closing: boolean;
  pumpQueued: boolean;
}

type Sock = Socket<Conn>;
let rate = config.rate;
/**
 * Replay frames whose bytes were all handed to the socket (`socket.write` took them), summed over
 * connections; counted as writes complete, not when queued. Handshake, ack and pongs are not counted.
 */
let sent = 0;
const open = new Set<Sock>();
// RFC 6455 section 1.3's GUID.
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** Writes per pump turn before yielding (so stdin and other connections get a turn). */
const WRITES_PER_TURN = 16;

/**
 * Cuts the slice being written at the first frame boundary at or after what is written already;
 * returns the frames cut off.
 */
function cutAtBoundary(c: Conn): number {
  if (c.off >= c.end) return 0;
  const j = framesBefore(c.off);
  const cut = starts[j] === c.off ? c.off : starts[j + 1]!;
  if (cut >= c.end) return 0;
  const dropped = framesBefore(c.end) - framesBefore(cut);
  c.end = cut;
  // The next slice resumes right after the cut (full speed restarts a cycle from here).
  c.next = framesBefore(cut) % C;
  return dropped;
}

/** Queues a control frame to go out at the next frame boundary. */
function queueCtrl(s: Sock, frame: Buffer): void {
  s.data.ctrl.push(frame);
  const dropped = cutAtBoundary(s.data);
  if (rate > 0) s.data.budget += dropped; // at a set rate, the cut frames are still due
  pump(s);
}

/** Writes what the connection may send until the socket pushes back (then `drain` calls again). */
function pump(s: Sock): void {
  const c = s.data;
  for (let writes = 0; writes < WRITES_PER_TURN; writes++) {
    if (c.off < c.end) {
      const w = s.write(replay, c.off, c.end - c.off);
      if (w <= 0) return;
      sent += framesBefore(c.off + w) - framesBefore(c.off);
      c.off += w;
      if (c.off < c.end) return; // the socket is full: wait for drain
      continue;
    }
    if (c.ctrl.length > 0) {
      const f = c.ctrl[0]!;
      const w = s.write(f, c.ctrlOff, f.length - c.ctrlOff);
      if (w > 0) c.ctrlOff += w;
      if (c.ctrlOff < f.length) return;
      c.ctrl.shift();
      c.ctrlOff = 0;
      if (c.ctrl.length === 0 && c.closing) {
        s.end();
        return;
      }
      continue;
    }
    if (!c.subscribed || c.closing) return;
    let n: number;
    if (rate === 0) n = C; // full speed: a whole cycle (~190 KB for binance's 26 pairs) per slice
    else if (rate > 0) {
      topUp(c);
      n = Math.min(Math.floor(c.budget), C);
      if (n <= 0) return; // the 10 ms timer calls again
      c.budget -= n;
    } else return; // rate -1: nothing
    c.off = starts[c.next]!;
    c.end = starts[c.next + n]!;
    c.next = (c.next + n) % C;
  }
  // Still more to write: carry on after other work (stdin commands, timers) had its turn.
  if (!c.pumpQueued) {
    c.pumpQueued = true;
    setTimeout(() => {
      c.pumpQueued = false;
      if (open.has(s)) pump(s);
    }, 0);
  }
}

/** Adds the frames due at the set rate since the last top-up (capped at 100 ms worth: no bursts after a stall). */
function topUp(c: Conn): void {
  const now = performance.now();
  const due = (rate * (now - c.lastTopUp)) / 1000;
  c.lastTopUp = now;
  // Fractional frames carry over to the next top-up.
  c.budget = Math.min(c.budget + due, Math.max(1, rate / 10));
}

const TICK_MS = 10;
setInterval(() => {
  if (rate <= 0) return;
  for (const s of open) if (s.data.subscribed) pump(s);
}, TICK_MS);

function onText(s: Sock): void {
  const c = s.data;
  // The first text frame is the subscription: answer it, then replay to this connection.
  if (ack !== undefined) queueCtrl(s, ack);
  if (c.subscribed) return;
  c.subscribed = true;
  c.budget = 0;
  c.lastTopUp = performance.now();
  pump(s);
}

function onMessage(s: Sock, opcode: number, payload: Buffer): void {
  if (opcode === 0x1) onText(s);
  else if (opcode === 0x9) queueCtrl(s, serverFrame(0xa, payload)); // ping → pong, same payload
  else if (opcode === 0x8) {
    // close → echo the close (its status code, if any) and end once it is out.
    s.data.subscribed = false;
    s.data.closing = true;
    queueCtrl(s, serverFrame(0x8, payload.subarray(0, Math.min(payload.length, 2))));
  }
  // Binary messages and pongs: nothing to do.
}

/** Parses whole client frames off `c.inbuf`; leaves a partial frame for the next read. */
function readFrames(s: Sock): void {
  const c = s.data;
  let buf = c.inbuf;
  let at = 0;
  while (buf !== null && buf.length - at >= 2) {
    const b0 = buf[at]!;
    const b1 = buf[at + 1]!;
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    const masked = (b1 & 0x80) !== 0;
    let len = b1 & 0x7f;
    let p = at + 2;
    if (len === 126) {
      if (buf.length < p + 2) break;
      len = buf.readUInt16BE(p);
      p += 2;
    } else if (len === 127) {
      if (buf.length < p + 8) break;
      len = Number(buf.readBigUInt64BE(p));
      p += 8;
    }
    const maskAt = p;
    if (masked) p += 4;
    if (buf.length < p + len) break;
    const payload = Buffer.from(buf.subarray(p, p + len)); // a copy: unmasked in place
    if (masked) for (let i = 0; i < len; i++) payload[i]! ^= buf[maskAt + (i & 3)]!;
    at = p + len;
    if (opcode >= 0x8) onMessage(s, opcode, payload); // control frames come whole, even mid-message
    else if (opcode === 0x0) {
      if (c.frags !== null) {
        c.frags.push(payload);
        if (fin) {
          const whole = Buffer.concat(c.frags);
          c.frags = null;
          onMessage(s, c.fragOp, whole);
        }
      }
    } else if (fin) onMessage(s, opcode, payload);
    else {
      c.fragOp = opcode;
      c.frags = [payload];
    }
    if (c.closing) {
      buf = null;
      break;
    }
  }
  c.inbuf = buf === null || at >= buf.length ? null : buf.subarray(at);
}

function onData(s: Sock, data: Buffer): void {
  const c = s.data;
  // Copy what stays past this callback: the read buffer is not ours to keep.
  c.inbuf = c.inbuf === null ? Buffer.from(data) : Buffer.concat([c.inbuf, data]);
  if (!c.upgraded) {
    const headEnd = c.inbuf.indexOf('\r\n\r\n');
    if (headEnd < 0) {
      if (c.inbuf.length > 16_384) s.end('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
      return;
    }
    const head = c.inbuf.subarray(0, headEnd).toString('latin1');
    const key = /^sec-websocket-key:[ \t]*(\S+)/im.exec(head)?.[1];
    if (key === undefined || !/^upgrade:.*websocket/im.test(head)) {
      s.end('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 14\r\nConnection: close\r\n\r\nwebsocket only');
      return;
    }
    const accept = createHash('sha1').update(key + WS_GUID).digest('base64');
    c.upgraded = true;
    c.inbuf = c.inbuf.length > headEnd + 4 ? c.inbuf.subarray(headEnd + 4) : null;
    queueCtrl(s, Buffer.from(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`, 'latin1'));
  }
  readFrames(s);
}

const server = Bun.listen<Conn>({
  hostname: '127.0.0.1',
  port: 0,
  socket: {
    open(s) {
      s.data = { inbuf: null, upgraded: false, fragOp: 0, frags: null, subscribed: false, off: 0, end: 0, next: 0, budget: 0, lastTopUp: 0, ctrl: [], ctrlOff: 0, closing: false, pumpQueued: false };
      open.add(s);
    },
    data: onData,
    drain: (s) => pump(s),
    close(s) {
      open.delete(s);
    },
    error(s) {
      open.delete(s);
    },
  },
});

/** One runner command: `rate N` or `count K`. */
function command(line: string): void {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (cmd === 'rate') {
    rate = Number(arg);
    for (const s of open) {
      // The slice being written was sized for the old rate: stop it at the next whole frame.
      cutAtBoundary(s.data);
      s.data.budget = 0;
      s.data.lastTopUp = performance.now();
      pump(s);
    }
  } else if (cmd === 'count') process.stdout.write(`SENT ${arg} ${sent}\n`);
}

// stdin through 'data' events, one command per line.
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
    command(pending.slice(0, nl));
    pending = pending.slice(nl + 1);
  }
});
process.stdout.write(`READY ${server.port}\n`);
