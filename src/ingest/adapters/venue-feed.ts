// The shared venue client as a Feed: by default its socket and parsing run in a worker (one per
// feed) that hands ticks to this thread in batches; `inThread` runs the same client here (tests,
// protocols that are not in the registry).
import type { Feed, FeedHealth, FeedInstrument, FeedSink } from '../../domain/feed.ts';
import { conflateRest, deliverBatch } from './tick-batch.ts';
import { VenueClient, type VenueClientOptions } from './venue-client.ts';
import type { VenueFeedSettings, VenueProtocol } from './venue-protocol.ts';
import type { FromWorker, ToWorker } from './venue-worker.ts';

export interface VenueFeedOptions extends VenueClientOptions {
  /** Run the client on the calling thread instead of in a worker. */
  inThread?: boolean;
  /**
   * Tests: ingested batches are acknowledged to the worker only once this settles, so the worker
   * finds this thread behind (as a busy one would be) and conflates, whatever the machine's speed.
   */
  holdAcks?: Promise<void>;
}

export function createVenueFeed(protocol: VenueProtocol, settings: VenueFeedSettings = {}, options: VenueFeedOptions = {}): Feed {
  return options.inThread ? inThreadFeed(protocol, settings, options) : workerFeed(protocol, settings, options);
}

function inThreadFeed(protocol: VenueProtocol, settings: VenueFeedSettings, options: VenueClientOptions): Feed {
  const client = new VenueClient(protocol, settings, options);
  // Ticks go straight into the sink here: counted, never conflated or dropped.
  let ticks = 0;
  return {
    id: protocol.id,
    instruments: () => client.instruments,
    start: (sink) =>
      client.start({
        quote: (i, ts, bid, ask, bs, as) => {
          ticks++;
          sink.quote(i, ts, bid, ask, bs, as);
        },
        trade: (i, ts, price, size) => {
          ticks++;
          sink.trade(i, ts, price, size);
        },
        stale: (i) => sink.stale(i),
      }),
    stop: () => client.stop(),
    health: () => ({ ...client.health(), ticks, conflated: 0, dropped: 0 }),
  };
}

/**
 * The worker's entry. From source it sits beside this file; in a compiled executable this file is
 * bundled into the entry chunk at the root of the embedded src/ tree, and the worker (an extra
 * entry point of scripts/build.ts) keeps its path under that root.
 */
function workerUrl(): string {
  const compiled = import.meta.url.includes('/$bunfs/') || import.meta.url.includes('/~BUN/');
  return (compiled ? new URL('./ingest/adapters/venue-worker.ts', import.meta.url) : new URL('./venue-worker.ts', import.meta.url)).href;
}

/**
 * The serving thread ingests a batch in slices of this much time at most, answering requests in
 * between: a batch whose ticks are expensive (each published to many subscribers) never holds the
 * event loop for longer.
 */
const SLICE_MS = 2;

/** How long stop() waits for the worker to close its socket before terminating it. */
const STOP_GRACE_MS = 1000;

function workerFeed(protocol: VenueProtocol, settings: VenueFeedSettings, options: VenueFeedOptions): Feed {
  const instruments: readonly FeedInstrument[] = settings.instruments ?? protocol.defaultInstruments;
  const log = options.log ?? (() => {});
  let worker: Worker | null = null;
  let health: FeedHealth = { id: protocol.id, state: 'stopped', connectedSinceMs: null, lastMessageMs: null, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: instruments.length, reason: null };
  return {
    id: protocol.id,
    instruments: () => instruments,
    start(sink: FeedSink) {
      if (worker !== null) return;
      health = { ...health, state: 'connecting' };
      const w = new Worker(workerUrl());
      worker = w;
      const ingested = new Int32Array(new SharedArrayBuffer(4));
      // Batches wait here in order while one is ingested slice by slice; a health report behind
      // them waits too, so the serving thread never sees a state ahead of its data.
      const waiting: (Float64Array | FeedHealth)[] = [];
      let at = 0;
      let slicing = false;
      /** Whether the batch being ingested was conflated already, and how many quotes this thread conflated. */
      let conflatedBatch = false;
      let conflatedHere = 0;
      const scratch = { later: new Uint8Array(64) };
      // Counted once ingested: the worker reads the count (and is woken when idle) to send more.
      let withheld = options.holdAcks === undefined ? null : 0;
      const acknowledge = (batches: number) => {
        Atomics.add(ingested, 0, batches);
        if (worker === w) w.postMessage({ type: 'ingested' } satisfies ToWorker);
      };
      void options.holdAcks?.then(() => {
        const n = withheld ?? 0;
        withheld = null;
        if (n > 0) acknowledge(n);
      });
      const ingest = () => {
        slicing = false;
        // Stopped: what is still waiting is not ingested (the ingest path may be closing).
        if (worker !== w) waiting.length = 0;
        while (waiting.length > 0) {
          const batch = waiting[0]!;
          if (!(batch instanceof Float64Array)) {
            health = { ...batch, instruments: instruments.length, conflated: (batch.conflated ?? 0) + conflatedHere };
            waiting.shift();
            continue;
          }
          try {
            at = deliverBatch(batch, sink, at, SLICE_MS);
          } catch (err) {
            log(`error: feed ${protocol.id}: ingesting a batch failed: ${err instanceof Error ? err.message : String(err)}`);
            at = batch.length;
          }
          if (at < batch.length) {
            // The slice is spent: this thread is behind (ticks are expensive now, e.g. published
            // to many subscribers). The rest of the batch is conflated, so the latest book goes
            // out next instead of a backlog; requests and sockets go first, then that rest.
            if (!conflatedBatch) {
              conflatedBatch = true;
              conflatedHere += conflateRest(batch, at, scratch);
            }
            slicing = true;
            setImmediate(ingest);
            return;
          }
          waiting.shift();
          at = 0;
          conflatedBatch = false;
          if (withheld === null) acknowledge(1);
          else withheld++;
        }
      };
      w.onmessage = (event: MessageEvent<FromWorker>) => {
        const msg = event.data;
        if (msg.type === 'ticks') {
          if (worker !== w) return;
          waiting.push(msg.batch);
          if (!slicing) ingest();
        } else if (msg.type === 'health') {
          if (waiting.length > 0) waiting.push(msg.health);
          else health = { ...msg.health, instruments: instruments.length, conflated: (msg.health.conflated ?? 0) + conflatedHere };
        } else if (msg.type === 'log') log(msg.line);
      };
      w.onerror = (event) => {
        // A worker that dies takes only its own feed down; the server goes on with what it has.
        log(`error: feed ${protocol.id}: worker failed: ${event.message}`);
        health = { ...health, state: 'failed', reason: `worker failed: ${event.message}`, connectedSinceMs: null };
        for (let i = 0; i < instruments.length; i++) sink.stale(i);
      };
      w.postMessage({ type: 'start', protocolId: protocol.id, settings, ingested } satisfies ToWorker);
    },
    async stop() {
      const w = worker;
      worker = null;
      if (w === null) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_GRACE_MS);
        w.addEventListener('message', (event: MessageEvent<FromWorker>) => {
          if (event.data.type !== 'stopped') return;
          clearTimeout(timer);
          resolve();
        });
        w.postMessage({ type: 'stop' } satisfies ToWorker);
      });
      w.terminate();
      health = { ...health, state: 'stopped', connectedSinceMs: null };
    },
    health: () => health,
  };
}
