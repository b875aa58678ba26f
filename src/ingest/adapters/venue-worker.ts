// The venue worker: one per venue feed, off the serving thread. It runs the venue client (socket
// I/O and parsing) and hands normalized ticks to the serving thread in transferred batches, with
// health reports and log lines beside them.
//
// Flow control: the serving thread counts the batches it has ingested in a shared counter, which
// the worker reads on every tick, even in the middle of a long parse; a message wakes the worker
// when it is idle. A full batch goes at once; one that is not full waits LINGER_MS after the last
// (fewer, larger hand-overs at moderate rates). With MAX_OUT batches handed over and not ingested
// the serving thread is behind and the queue conflates quotes (tick-batch.ts).
import type { FeedHealth } from '../../domain/feed.ts';
import { venueProtocolById } from './registry.ts';
import { lowerThreadPriority } from './thread-priority.ts';
import { TickQueue } from './tick-batch.ts';
import { VenueClient } from './venue-client.ts';
import type { VenueFeedSettings } from './venue-protocol.ts';

declare const self: Worker;

export type ToWorker =
  /** `ingested`: one Int32 the serving thread increments per batch ingested (a SharedArrayBuffer). */
  | { type: 'start'; protocolId: string; settings: VenueFeedSettings; ingested: Int32Array }
  | { type: 'ingested' }
  | { type: 'stop' };
export type FromWorker = { type: 'ticks'; batch: Float64Array } | { type: 'health'; health: FeedHealth } | { type: 'log'; line: string } | { type: 'stopped' };

/** Records per batch at most. */
const BATCH_RECORDS = 512;
/** A batch that is not full waits this long after the previous one. */
const LINGER_MS = 1;
/**
 * Batches handed over and not yet ingested; at this many the queue conflates quotes. One: while the
 * serving thread is behind, the next batch waits here and is conflated up to the moment it goes,
 * rather than queue ticks on the serving thread (with two, ticks reached stream clients 68–74 ms
 * after the worker read them at p50 and 112–122 ms at p99 in the venue fan-out bench, 37–42 and
 * 77–82 ms with one, at the same delivered rate; 2026-11-27).
 */
const MAX_OUT = 1;
const HEALTH_EVERY_MS = 500;

const post = (message: FromWorker, transfer?: ArrayBuffer[]) => (transfer ? self.postMessage(message, transfer) : self.postMessage(message));

let client: VenueClient | null = null;
let wake = () => {};
let healthTimer: ReturnType<typeof setInterval> | null = null;

/** The client's health with the hand-over counters. */
function report(c: VenueClient, queue: TickQueue): FeedHealth {
  return { ...c.health(), ticks: queue.counters.ticks, conflated: queue.counters.conflated, dropped: queue.counters.dropped };
}

function run(protocolId: string, settings: VenueFeedSettings, ingested: Int32Array): void {
  const protocol = venueProtocolById(protocolId);
  if (protocol === undefined) {
    // Only registered protocols can run in a worker (functions do not cross); others run in-thread.
    const reason = `no venue protocol ${protocolId} in the registry (run it with inThread)`;
    post({ type: 'log', line: `feed ${protocolId}: ${reason}` });
    post({ type: 'health', health: { id: protocolId, state: 'failed', connectedSinceMs: null, lastMessageMs: null, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: 0, reason } });
    return;
  }
  const queue = new TickQueue(BATCH_RECORDS);
  let sent = 0;
  let lastHandOverMs = -Infinity;
  let scheduled = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const out = () => sent - Atomics.load(ingested, 0);
  const handOver = (batch: Float64Array) => {
    sent++;
    lastHandOverMs = performance.now();
    post({ type: 'ticks', batch }, [batch.buffer as ArrayBuffer]);
  };
  /** Hands over what the serving thread has room for; `all` ignores the linger (end of a turn, state changes). */
  const pump = (all: boolean) => {
    while (queue.pending > 0 && out() < MAX_OUT) {
      if (queue.pending < BATCH_RECORDS && !all) break;
      const lingerLeft = lastHandOverMs + LINGER_MS - performance.now();
      if (queue.pending < BATCH_RECORDS && lingerLeft > 0) {
        if (timer === null) timer = setTimeout(onTimer, lingerLeft);
        break;
      }
      handOver(queue.take()!);
    }
    queue.held = out() >= MAX_OUT;
  };
  const onTimer = () => {
    timer = null;
    pump(true);
  };
  const onTurnEnd = () => {
    scheduled = false;
    pump(true);
  };
  wake = () => pump(true);
  /** After each tick: a full batch goes at once; credit that came back mid-turn lifts the conflation. */
  const afterTick = () => {
    if (queue.pending >= BATCH_RECORDS || (queue.held && out() < MAX_OUT)) pump(false);
    if (!scheduled) (scheduled = true), setImmediate(onTurnEnd);
  };
  const sink = {
    quote: (i: number, ts: number, bid: number, ask: number, bs: number | null, as: number | null) => {
      queue.quote(i, ts, bid, ask, bs, as);
      afterTick();
    },
    trade: (i: number, ts: number, price: number, size: number | null) => {
      queue.trade(i, ts, price, size);
      afterTick();
    },
    stale: (i: number) => {
      queue.stale(i);
      afterTick();
    },
  };
  const c = new VenueClient(protocol, settings, { log: (line) => post({ type: 'log', line }) });
  client = c;
  // Health goes with the ticks before it, so the serving thread never sees a state ahead of its data:
  // on a state change everything queued goes first, whatever the serving thread has waiting.
  c.onStateChange = () => {
    for (let batch = queue.take(); batch !== null; batch = queue.take()) handOver(batch);
    queue.held = out() >= MAX_OUT;
    post({ type: 'health', health: report(c, queue) });
  };
  healthTimer = setInterval(() => post({ type: 'health', health: report(c, queue) }), HEALTH_EVERY_MS);
  c.start(sink);
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'start' && client === null) {
    lowerThreadPriority();
    run(msg.protocolId, msg.settings, msg.ingested);
  } else if (msg.type === 'ingested') {
    wake();
  } else if (msg.type === 'stop') {
    client?.stop();
    if (healthTimer !== null) clearInterval(healthTimer);
    post({ type: 'stopped' });
    self.onmessage = null;
  }
};
