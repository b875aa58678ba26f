// The worker-to-thread wire: whatever a feed tells its sink arrives in the same order with the same
// numbers (null sizes included), however the calls are cut into batches; while the serving thread
// is behind (the queue is held) a quote replaces the waiting quote of its instrument, and nothing
// else is merged, reordered or lost until the queue's bound.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { FeedSink } from '../../../src/domain/feed.ts';
import { conflateRest, deliverBatch, RECORD, TickQueue } from '../../../src/ingest/adapters/tick-batch.ts';

type Call = ['quote', number, number, number, number, number | null, number | null] | ['trade', number, number, number, number | null] | ['stale', number];

function recorder(calls: Call[]): FeedSink {
  return {
    quote: (...args) => calls.push(['quote', ...args]),
    trade: (...args) => calls.push(['trade', ...args]),
    stale: (i) => calls.push(['stale', i]),
  };
}

function feed(queue: TickQueue, c: Call): void {
  if (c[0] === 'quote') queue.quote(c[1], c[2], c[3], c[4], c[5], c[6]);
  else if (c[0] === 'trade') queue.trade(c[1], c[2], c[3], c[4]);
  else queue.stale(c[1]);
}

function drain(queue: TickQueue, sink: FeedSink): number {
  let batches = 0;
  for (let batch = queue.take(); batch !== null; batch = queue.take()) deliverBatch(batch, sink), batches++;
  return batches;
}

/** What a held queue must hand over: each quote replaces its instrument's waiting quote unless a trade or stale mark of that instrument came between. */
function conflatedModel(calls: Call[]): Call[] {
  const out: Call[] = [];
  const waiting = new Map<number, number>();
  for (const c of calls) {
    if (c[0] === 'quote') {
      const at = waiting.get(c[1]);
      if (at !== undefined) out[at] = c;
      else waiting.set(c[1], out.push(c) - 1);
    } else {
      waiting.delete(c[1]);
      out.push(c);
    }
  }
  return out;
}

const num = fc.double({ noNaN: true, noDefaultInfinity: true });
const size = fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null });
const call = (maxIndex: number): fc.Arbitrary<Call> =>
  fc.oneof(
    fc.tuple(fc.constant('quote' as const), fc.nat({ max: maxIndex }), fc.nat(), num, num, size, size),
    fc.tuple(fc.constant('trade' as const), fc.nat({ max: maxIndex }), fc.nat(), num, size),
    fc.tuple(fc.constant('stale' as const), fc.nat({ max: maxIndex })),
  );

describe('tick batches', () => {
  test('replay every call in order, with null sizes kept, across any batch size and any interleaving of hand-overs', () => {
    fc.assert(
      fc.property(fc.array(call(10_000), { maxLength: 200 }), fc.integer({ min: 1, max: 50 }), fc.array(fc.nat({ max: 200 }), { maxLength: 10 }), (calls, batchRecords, takeAt) => {
        const got: Call[] = [];
        const sink = recorder(got);
        const queue = new TickQueue(batchRecords, 64);
        const takes = new Set(takeAt);
        calls.forEach((c, i) => {
          feed(queue, c);
          if (takes.has(i)) drain(queue, sink);
          // The bound is never reached here: hand over whatever a full queue holds.
          if (queue.pending === 64) drain(queue, sink);
        });
        drain(queue, sink);
        expect(queue.pending).toBe(0);
        expect(got).toEqual(calls);
        expect(queue.counters).toEqual({ ticks: calls.filter((c) => c[0] !== 'stale').length, conflated: 0, dropped: 0 });
      }),
    );
  });

  test('held: quotes conflate per instrument, trades and stale marks keep their place', () => {
    fc.assert(
      fc.property(fc.array(call(6), { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (calls, batchRecords) => {
        const queue = new TickQueue(batchRecords);
        queue.held = true;
        for (const c of calls) feed(queue, c);
        const got: Call[] = [];
        const batches = drain(queue, recorder(got));
        const want = conflatedModel(calls);
        expect(got).toEqual(want);
        expect(batches).toBe(Math.ceil(want.length / batchRecords));
        expect(queue.counters.conflated).toBe(calls.length - want.length);
      }),
    );
  });

  test('held, with batches taken in between: a quote conflates only into one still waiting', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(call(4), fc.constant('take' as const)), { maxLength: 300 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 8, max: 32 }), (steps, batchRecords, bound) => {
        const queue = new TickQueue(batchRecords, bound);
        queue.held = true;
        const got: Call[] = [];
        const sink = recorder(got);
        // The model: records in order, how many were handed over, each instrument's waiting quote.
        const want: Call[] = [];
        let handed = 0;
        let dropped = 0;
        const waiting = new Map<number, number>();
        for (const step of steps) {
          if (step === 'take') {
            const batch = queue.take();
            if (batch !== null) deliverBatch(batch, sink);
            handed = Math.min(want.length, handed + batchRecords);
            continue;
          }
          feed(queue, step);
          const at = waiting.get(step[1]);
          if (step[0] === 'quote' && at !== undefined && at >= handed) {
            want[at] = step;
            continue;
          }
          if (step[0] !== 'quote') waiting.delete(step[1]);
          if (want.length - handed === bound) {
            if (step[0] !== 'stale') dropped++;
            continue;
          }
          if (step[0] === 'quote') waiting.set(step[1], want.length);
          want.push(step);
        }
        drain(queue, sink);
        expect(got).toEqual(want);
        expect(queue.counters.dropped).toBe(dropped);
      }),
    );
  });

  test('a quote never conflates into one already handed over', () => {
    const queue = new TickQueue(2);
    queue.quote(1, 10, 1, 2, null, null);
    queue.quote(2, 10, 5, 6, null, null);
    const first = queue.take();
    expect(first).not.toBeNull();
    queue.held = true;
    queue.quote(1, 11, 1.5, 2.5, 3, 4);
    queue.quote(1, 12, 1.25, 2.25, 3, 4);
    const got: Call[] = [];
    deliverBatch(first!, recorder(got));
    drain(queue, recorder(got));
    expect(got).toEqual([
      ['quote', 1, 10, 1, 2, null, null],
      ['quote', 2, 10, 5, 6, null, null],
      ['quote', 1, 12, 1.25, 2.25, 3, 4],
    ]);
    expect(queue.counters).toEqual({ ticks: 4, conflated: 1, dropped: 0 });
  });

  test('past its bound the queue drops new ticks and counts them, and takes more once drained', () => {
    const queue = new TickQueue(4, 8);
    for (let i = 0; i < 12; i++) queue.trade(0, i, 100 + i, 1);
    expect(queue.pending).toBe(8);
    expect(queue.counters).toEqual({ ticks: 12, conflated: 0, dropped: 4 });
    const got: Call[] = [];
    drain(queue, recorder(got));
    expect(got.map((c) => c[2])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    queue.trade(0, 99, 1, null);
    drain(queue, recorder(got));
    expect(got.at(-1)).toEqual(['trade', 0, 99, 1, null]);
  });

  test('a batch delivered in slices arrives whole and in order, each slice stopping when its time is spent', () => {
    const queue = new TickQueue(100);
    const calls: Call[] = [];
    for (let k = 0; k < 100; k++) calls.push(k % 3 === 0 ? ['trade', k % 5, k, 100 + k, null] : ['quote', k % 5, k, k, k + 1, 1, null]);
    for (const c of calls) feed(queue, c);
    const batch = queue.take()!;
    const got: Call[] = [];
    const sink = recorder(got);
    const stops: number[] = [];
    // A spent budget: each slice delivers the minimum (16 records) and says where to go on.
    for (let at = 0; at < batch.length; ) stops.push((at = deliverBatch(batch, sink, at, 0)));
    expect(stops).toEqual([16, 32, 48, 64, 80, 96, 100].map((r) => r * RECORD));
    expect(got).toEqual(calls);
  });

  test('conflating the rest of a batch keeps each instrument\'s last quote before its next trade or stale mark, and moves nothing', () => {
    fc.assert(
      fc.property(fc.array(call(6), { maxLength: 300 }), fc.nat({ max: 300 }), (calls, cut) => {
        const from = Math.min(cut, calls.length);
        const queue = new TickQueue(1000);
        for (const c of calls) feed(queue, c);
        const batch = queue.take() ?? new Float64Array(0);
        const scratch = { later: new Uint8Array(2) };
        const superseded = conflateRest(batch, from * RECORD, scratch);
        const got: Call[] = [];
        deliverBatch(batch, recorder(got));
        // The model: from `from` on, a quote goes when a later quote of its instrument follows
        // before any trade or stale mark of it.
        const want = calls.filter((c, k) => {
          if (k < from || c[0] !== 'quote') return true;
          for (const next of calls.slice(k + 1)) if (next[1] === c[1]) return next[0] !== 'quote';
          return true;
        });
        expect(got).toEqual(want);
        expect(superseded).toBe(calls.length - want.length);
      }),
    );
  });
});
