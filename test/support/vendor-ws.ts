// A raw WebSocket client for the compatibility dialects: vendor frames are arrays of events
// (JSON text, or msgpack for Alpaca's binary framing), queued one event at a time so tests await
// the event they expect (no sleeps). `frames` keeps each frame whole, to check the batching.
import { pack, unpack } from 'msgpackr';

export interface VendorWs extends AsyncDisposable {
  ws: WebSocket;
  /** Every event received so far, in order (events awaited by `next` stay here too). */
  seen: any[];
  /** Frames as received (each one array of events). */
  frames: any[][];
  next(match?: (e: any) => boolean, timeoutMs?: number): Promise<any>;
  send(frame: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

export async function connectVendor(url: string, opts: { headers?: Record<string, string>; msgpack?: boolean } = {}): Promise<VendorWs> {
  const ws = new WebSocket(url, { headers: opts.headers } as unknown as string[]);
  ws.binaryType = 'arraybuffer';
  const queue: any[] = [];
  const seen: any[] = [];
  const frames: any[][] = [];
  const waiters: { match: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  ws.onmessage = (e) => {
    const frame = typeof e.data === 'string' ? JSON.parse(e.data) : unpack(new Uint8Array(e.data as ArrayBuffer));
    const events: any[] = Array.isArray(frame) ? frame : [frame];
    frames.push(events);
    for (const event of events) {
      seen.push(event);
      const at = waiters.findIndex((w) => w.match(event));
      if (at >= 0) waiters.splice(at, 1)[0]!.resolve(event);
      else queue.push(event);
    }
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
    seen,
    frames,
    closed,
    send: (frame) => ws.send(typeof frame === 'string' ? frame : opts.msgpack ? pack(frame) : JSON.stringify(frame)),
    next(match = () => true, timeoutMs = 15_000) {
      const at = queue.findIndex(match);
      if (at >= 0) return Promise.resolve(queue.splice(at, 1)[0]);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (e: any) => (clearTimeout(timer), resolve(e)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching event within ${timeoutMs} ms; last seen: ${JSON.stringify(seen.slice(-3))}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    [Symbol.asyncDispose]: async () => {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
      await Promise.race([closed, Bun.sleep(2000)]);
    },
  };
}
