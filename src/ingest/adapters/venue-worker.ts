// The venue worker: one per venue feed, off the serving thread. It runs the venue client (socket
// I/O and parsing) and hands normalized ticks to the serving thread in transferred batches, with
// health reports and log lines beside them.
import type { FeedHealth } from '../../domain/feed.ts';
import { venueProtocolById } from './registry.ts';
import { TickBatcher } from './tick-batch.ts';
import { VenueClient } from './venue-client.ts';
import type { VenueFeedSettings } from './venue-protocol.ts';

declare const self: Worker;

export type ToWorker = { type: 'start'; protocolId: string; settings: VenueFeedSettings } | { type: 'stop' };
export type FromWorker = { type: 'ticks'; batch: Float64Array } | { type: 'health'; health: FeedHealth } | { type: 'log'; line: string } | { type: 'stopped' };

/** Ticks per batch at most; a batch also goes at the end of each event-loop turn. */
const BATCH_TICKS = 1024;
const HEALTH_EVERY_MS = 500;

const post = (message: FromWorker, transfer?: ArrayBuffer[]) => (transfer ? self.postMessage(message, transfer) : self.postMessage(message));

let client: VenueClient | null = null;
let healthTimer: ReturnType<typeof setInterval> | null = null;

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'start' && client === null) {
    const protocol = venueProtocolById(msg.protocolId);
    if (protocol === undefined) {
      // Only registered protocols can run in a worker (functions do not cross); others run in-thread.
      const reason = `no venue protocol ${msg.protocolId} in the registry (run it with inThread)`;
      post({ type: 'log', line: `feed ${msg.protocolId}: ${reason}` });
      post({ type: 'health', health: { id: msg.protocolId, state: 'failed', connectedSinceMs: null, lastMessageMs: null, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: 0, reason } });
      return;
    }
    let scheduled = false;
    const batcher = new TickBatcher(BATCH_TICKS, (batch) => post({ type: 'ticks', batch }, [batch.buffer as ArrayBuffer]));
    const flush = () => {
      scheduled = false;
      batcher.flush();
    };
    const sink = {
      quote: (i: number, ts: number, bid: number, ask: number, bs: number | null, as: number | null) => {
        batcher.quote(i, ts, bid, ask, bs, as);
        if (!scheduled) (scheduled = true), setImmediate(flush);
      },
      trade: (i: number, ts: number, price: number, size: number | null) => {
        batcher.trade(i, ts, price, size);
        if (!scheduled) (scheduled = true), setImmediate(flush);
      },
      stale: (i: number) => {
        batcher.stale(i);
        if (!scheduled) (scheduled = true), setImmediate(flush);
      },
    };
    const c = new VenueClient(protocol, msg.settings, { log: (line) => post({ type: 'log', line }) });
    client = c;
    // Health goes with the ticks before it, so the serving thread never sees a state ahead of its data.
    c.onStateChange = () => {
      batcher.flush();
      post({ type: 'health', health: c.health() });
    };
    healthTimer = setInterval(() => post({ type: 'health', health: c.health() }), HEALTH_EVERY_MS);
    c.start(sink);
  } else if (msg.type === 'stop') {
    client?.stop();
    if (healthTimer !== null) clearInterval(healthTimer);
    post({ type: 'stopped' });
    self.onmessage = null;
  }
};
