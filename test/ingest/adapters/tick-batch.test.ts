// The worker-to-thread wire: whatever a feed tells its sink arrives in the same order with the same
// numbers (null sizes included), however the calls are cut into batches.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { FeedSink } from '../../../src/domain/feed.ts';
import { deliverBatch, TickBatcher } from '../../../src/ingest/adapters/tick-batch.ts';

type Call = ['quote', number, number, number, number, number | null, number | null] | ['trade', number, number, number, number | null] | ['stale', number];

function recorder(calls: Call[]): FeedSink {
  return {
    quote: (...args) => calls.push(['quote', ...args]),
    trade: (...args) => calls.push(['trade', ...args]),
    stale: (i) => calls.push(['stale', i]),
  };
}

const num = fc.double({ noNaN: true, noDefaultInfinity: true });
const size = fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null });
const index = fc.nat({ max: 10_000 });
const call: fc.Arbitrary<Call> = fc.oneof(
  fc.tuple(fc.constant('quote' as const), index, fc.nat(), num, num, size, size),
  fc.tuple(fc.constant('trade' as const), index, fc.nat(), num, size),
  fc.tuple(fc.constant('stale' as const), index),
);

describe('tick batches', () => {
  test('replay every call in order, with null sizes kept, across any batch capacity', () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 200 }), fc.integer({ min: 1, max: 50 }), (calls, capacity) => {
        const got: Call[] = [];
        const sink = recorder(got);
        const batcher = new TickBatcher(capacity, (batch) => deliverBatch(batch, sink));
        for (const c of calls) {
          if (c[0] === 'quote') batcher.quote(c[1], c[2], c[3], c[4], c[5], c[6]);
          else if (c[0] === 'trade') batcher.trade(c[1], c[2], c[3], c[4]);
          else batcher.stale(c[1]);
        }
        batcher.flush();
        expect(batcher.pending).toBe(0);
        expect(got).toEqual(calls);
      }),
    );
  });
});
