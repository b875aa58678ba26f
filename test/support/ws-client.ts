// A WebSocket test client that queues every message, so tests await what they expect (no sleeps).
// Every server frame is held to the frame schemas: one that does not fit fails the test.
import { unpack } from 'msgpackr';
import { FrameViolations } from './frame-contract.ts';

export interface WsClient extends AsyncDisposable {
  ws: WebSocket;
  messages: any[];
  /** Resolves with the first queued-or-future message matching `match`, removing it from the queue. */
  next(match?: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  send(frame: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

/** `init`: Bun's WebSocket options, e.g. `{ tls: { ca } }` for a wss:// server with a test certificate. */
export async function connect(url: string, init?: Bun.WebSocketOptions): Promise<WsClient> {
  const ws = init === undefined ? new WebSocket(url) : new WebSocket(url, init);
  ws.binaryType = 'arraybuffer';
  const messages: any[] = [];
  const waiters: { match: (m: any) => boolean; resolve: (m: any) => void; reject: (err: Error) => void }[] = [];
  const violations = new FrameViolations();
  ws.onmessage = (e) => {
    const isText = typeof e.data === 'string';
    const decoded = isText ? JSON.parse(e.data as string) : unpack(new Uint8Array(e.data as ArrayBuffer));
    violations.check(decoded, isText ? 'json' : 'msgpack');
    if (violations.found.length > 0) {
      for (const w of waiters.splice(0)) w.reject(new Error(violations.found.join('\n')));
      return;
    }
    const m = isText ? decoded : { ...decoded, __binary: true };
    const at = waiters.findIndex((w) => w.match(m));
    if (at >= 0) waiters.splice(at, 1)[0]!.resolve(m);
    else messages.push(m);
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.onclose = (e) => resolve({ code: e.code, reason: e.reason });
  });
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`could not connect to ${url}`));
  });
  return {
    ws,
    messages,
    closed,
    send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next(match = () => true, timeoutMs = 15_000) {
      if (violations.found.length > 0) return Promise.reject(new Error(violations.found.join('\n')));
      const at = messages.findIndex(match);
      if (at >= 0) return Promise.resolve(messages.splice(at, 1)[0]);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (m: any) => (clearTimeout(timer), resolve(m)), reject: (err: Error) => (clearTimeout(timer), reject(err)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching message within ${timeoutMs} ms; queued: ${JSON.stringify(messages.slice(-3))}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    [Symbol.asyncDispose]: async () => {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
      await Promise.race([closed, Bun.sleep(2000)]);
      violations.assertNone();
    },
  };
}
