// The wire between a venue worker and the serving thread: ticks packed as fixed-width records in a
// Float64Array (transferred, never copied or serialized per tick), null sizes as NaN.
import type { FeedSink } from '../../domain/feed.ts';

/** Slots per record: kind, instrument, tsMs, then four values (bid, ask, bidSize, askSize or price, size). */
export const RECORD = 7;
const QUOTE = 0;
const TRADE = 1;
const STALE = 2;

/** Packs sink calls; `flush` hands over what was packed since the last flush. */
export class TickBatcher implements FeedSink {
  private buf: Float64Array;
  private n = 0;

  constructor(
    private readonly capacity: number,
    private readonly handOver: (batch: Float64Array) => void,
  ) {
    this.buf = new Float64Array(capacity * RECORD);
  }

  quote(instrument: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    this.put(QUOTE, instrument, tsMs, bid, ask, bidSize ?? NaN, askSize ?? NaN);
  }

  trade(instrument: number, tsMs: number, price: number, size: number | null): void {
    this.put(TRADE, instrument, tsMs, price, size ?? NaN, NaN, NaN);
  }

  stale(instrument: number): void {
    this.put(STALE, instrument, 0, NaN, NaN, NaN, NaN);
  }

  get pending(): number {
    return this.n;
  }

  flush(): void {
    if (this.n === 0) return;
    const out = this.buf.slice(0, this.n * RECORD);
    this.n = 0;
    this.handOver(out);
  }

  private put(kind: number, i: number, ts: number, a: number, b: number, c: number, d: number): void {
    if (this.n === this.capacity) this.flush();
    const o = this.n * RECORD;
    const buf = this.buf;
    buf[o] = kind;
    buf[o + 1] = i;
    buf[o + 2] = ts;
    buf[o + 3] = a;
    buf[o + 4] = b;
    buf[o + 5] = c;
    buf[o + 6] = d;
    this.n++;
  }
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/** Replays a packed batch into a sink, in order. */
export function deliverBatch(batch: Float64Array, sink: FeedSink): void {
  for (let o = 0; o + RECORD <= batch.length; o += RECORD) {
    const kind = batch[o]!;
    const i = batch[o + 1]!;
    if (kind === QUOTE) sink.quote(i, batch[o + 2]!, batch[o + 3]!, batch[o + 4]!, orNull(batch[o + 5]!), orNull(batch[o + 6]!));
    else if (kind === TRADE) sink.trade(i, batch[o + 2]!, batch[o + 3]!, orNull(batch[o + 4]!));
    else sink.stale(i);
  }
}
