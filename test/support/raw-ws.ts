// A WebSocket client by hand over a TCP socket, for what a browser-style client hides: server pings,
// the exact close frame, and a peer that stops reading (pause the socket and the server's sends
// pile up). Frames are parsed as they arrive while reading; each data frame is held to the frame schemas.
import { connect as netConnect, type Socket } from 'node:net';
import { unpack } from 'msgpackr';
import { FrameViolations } from './frame-contract.ts';

export interface RawFrame {
  opcode: number;
  payload: Buffer;
}

export interface RawWs extends AsyncDisposable {
  socket: Socket;
  frames: RawFrame[];
  /** Sends a masked text frame (clients must mask). */
  sendText(text: string): void;
  /** Resolves with the first queued-or-future frame matching `match`, removing it from the queue. */
  next(match: (f: RawFrame) => boolean, timeoutMs?: number): Promise<RawFrame>;
  /** Resolves when the server has closed the TCP connection (or it failed). */
  ended: Promise<void>;
}

export const OPCODE = { text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** The close frame's code and reason. */
export function closeOf(frame: RawFrame): { code: number; reason: string } {
  return { code: frame.payload.readUInt16BE(0), reason: frame.payload.subarray(2).toString('utf8') };
}

/** `keep` says which frames to queue (a reader that drains megabytes keeps only what it awaits). */
export async function rawConnect(port: number, path: string, keep: (f: RawFrame) => boolean = () => true): Promise<RawWs> {
  const socket = netConnect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('error', reject));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  const frames: RawFrame[] = [];
  const waiters: { match: (f: RawFrame) => boolean; resolve: (f: RawFrame) => void }[] = [];
  let buf: Buffer = Buffer.alloc(0);
  let handshakeDone = false;
  let onHandshake: (status: string) => void = () => {};
  const handshake = new Promise<string>((resolve) => (onHandshake = resolve));
  const violations = new FrameViolations();
  const push = (frame: RawFrame) => {
    // Every data frame, kept or not: a reader that drains megabytes still checks each one.
    if (frame.opcode === OPCODE.text) violations.check(JSON.parse(frame.payload.toString('utf8')), 'json');
    else if (frame.opcode === OPCODE.binary) violations.check(unpack(frame.payload), 'msgpack');
    if (!keep(frame)) return;
    const at = waiters.findIndex((w) => w.match(frame));
    if (at >= 0) waiters.splice(at, 1)[0]!.resolve(frame);
    else frames.push(frame);
  };
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    if (!handshakeDone) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      onHandshake(buf.subarray(0, end).toString('latin1').split('\r\n')[0]!);
      handshakeDone = true;
      buf = buf.subarray(end + 4);
    }
    for (;;) {
      if (buf.length < 2) return;
      let len = buf[1]! & 0x7f;
      let at = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        at = 10;
      }
      if (buf.length < at + len) return;
      push({ opcode: buf[0]! & 0x0f, payload: Buffer.from(buf.subarray(at, at + len)) });
      buf = buf.subarray(at + len);
    }
  });
  const ended = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.on('error', () => {});
  });
  const status = await handshake;
  if (!status.includes(' 101 ')) throw new Error(`upgrade refused: ${status}`);
  return {
    socket,
    frames,
    ended,
    sendText(text) {
      const payload = Buffer.from(text);
      const mask = Buffer.from([1, 2, 3, 4]);
      const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
      socket.write(Buffer.concat([header, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]));
    },
    next(match, timeoutMs = 15_000) {
      if (violations.found.length > 0) return Promise.reject(new Error(violations.found.join('\n')));
      const at = frames.findIndex(match);
      if (at >= 0) return Promise.resolve(frames.splice(at, 1)[0]!);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (f: RawFrame) => (clearTimeout(timer), resolve(f)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching frame within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    [Symbol.asyncDispose]: async () => {
      socket.destroy();
      await ended;
      violations.assertNone();
    },
  };
}
