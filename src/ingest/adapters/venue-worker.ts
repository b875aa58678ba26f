// The venue worker: one per venue feed, off the serving thread. It runs the venue client (socket
// I/O and parsing) and hands normalized ticks to the serving thread in transferred batches, with
// health reports and log lines beside them. Batches go at most every LINGER_MS (sooner when a full
// one waits), and at most MAX_OUT of them wait unacknowledged; past that the serving thread is
// behind and the queue conflates quotes (tick-batch.ts).
import type { FeedHealth } from '../../domain/feed.ts';
import { venueProtocolById } from './registry.ts';
import { lowerThreadPriority } from './thread-priority.ts';
import { TickQueue } from './tick-batch.ts';
import { VenueClient } from './venue-client.ts';
import type { VenueFeedSettings } from './venue-protocol.ts';

declare const self: Worker;

export type ToWorker = { type: 'start'; protocolId: string; settings: VenueFeedSettings } | { type: 'ack' } | { type: 'stop' };
export type FromWorker = { type: 'ticks'; batch: Float64Array } | { type: 'health'; health: FeedHealth } | { type: 'log'; line: string } | { type: 'stopped' };

/** Records per batch at most. */
const BATCH_RECORDS = 1024;
/** A batch that is not full waits this long after the previous one (fewer, larger hand-overs). */
const LINGER_MS = 1;
/** Batches handed over and not yet ingested; at this many the queue conflates quotes. */
const MAX_OUT = 4;
const HEALTH_EVERY_MS = 500;

const post = (message: FromWorker, transfer?: ArrayBuffer[]) => (transfer ? self.postMessage(message, transfer) : self.postMessage(message));

let client: VenueClient | null = null;
/** Batches out and not yet acknowledged by the serving thread. */
let out = 0;
let pump = () => {};

/** The client's health with the hand-over counters. */
function report(c: VenueClient, queue: TickQueue): FeedHealth {
  return { ...c.health(), ticks: queue.counters.ticks, conflated: queue.counters.conflated, dropped: queue.counters.dropped };
}
let healthTimer: ReturnType<typeof setInterval> | null = null;

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'start' && client === null) {
    lowerThreadPriority();
    const protocol = venueProtocolById(msg.protocolId);
    if (protocol === undefined) {
      // Only registered protocols can run in a worker (functions do not cross); others run in-thread.
      const reason = `no venue protocol ${msg.protocolId} in the registry (run it with inThread)`;
      post({ type: 'log', line: `feed ${msg.protocolId}: ${reason}` });
      post({ type: 'health', health: { id: msg.protocolId, state: 'failed', connectedSinceMs: null, lastMessageMs: null, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: 0, reason } });
      return;
    }
    const queue = new TickQueue(BATCH_RECORDS);
    let scheduled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastHandOverMs = -Infinity;
    pump = () => {
      scheduled = false;
      timer = null;
      while (out < MAX_OUT && queue.pending > 0) {
        const now = performance.now();
        const wait = lastHandOverMs + LINGER_MS - now;
        if (wait > 0 && queue.pending < BATCH_RECORDS) {
          timer = setTimeout(pump, wait);
          break;
        }
        const batch = queue.take()!;
        out++;
        lastHandOverMs = now;
        post({ type: 'ticks', batch }, [batch.buffer as ArrayBuffer]);
      }
      queue.held = out >= MAX_OUT;
    };
    const kick = () => {
      if (!scheduled && timer === null && out < MAX_OUT) (scheduled = true), setImmediate(pump);
    };
    const sink = {
      quote: (i: number, ts: number, bid: number, ask: number, bs: number | null, as: number | null) => {
        queue.quote(i, ts, bid, ask, bs, as);
        kick();
      },
      trade: (i: number, ts: number, price: number, size: number | null) => {
        queue.trade(i, ts, price, size);
        kick();
      },
      stale: (i: number) => {
        queue.stale(i);
        kick();
      },
    };
    const c = new VenueClient(protocol, msg.settings, { log: (line) => post({ type: 'log', line }) });
    client = c;
    // Health goes with the ticks before it, so the serving thread never sees a state ahead of its data.
    // A state change waits for nothing: what is queued goes first (past the linger, within MAX_OUT).
    c.onStateChange = () => {
      for (let batch = queue.take(); batch !== null; batch = queue.take()) out++, post({ type: 'ticks', batch }, [batch.buffer as ArrayBuffer]);
      queue.held = out >= MAX_OUT;
      post({ type: 'health', health: report(c, queue) });
    };
    healthTimer = setInterval(() => post({ type: 'health', health: report(c, queue) }), HEALTH_EVERY_MS);
    c.start(sink);
  } else if (msg.type === 'ack') {
    out--;
    pump();
  } else if (msg.type === 'stop') {
    client?.stop();
    if (healthTimer !== null) clearInterval(healthTimer);
    post({ type: 'stopped' });
    self.onmessage = null;
  }
};
