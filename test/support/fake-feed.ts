// A feed for tests: declares the instruments it is given and, once started, lets the test push
// quotes, trades and stale marks through the sink the ingest path gave it. It can also fail.
import type { Feed, FeedHealth, FeedInstrument, FeedSink, FeedState } from '../../src/domain/feed.ts';

export interface FakeFeedOptions {
  /** How start fails: throwing, or returning a rejected promise. */
  failStart?: 'throw' | 'reject';
}

export class FakeFeed implements Feed {
  sink: FeedSink | null = null;
  state: FeedState = 'connecting';
  messages = 0;
  lastMessageMs: number | null = null;

  constructor(
    readonly id: string,
    private readonly list: readonly FeedInstrument[],
    private readonly opts: FakeFeedOptions = {},
  ) {}

  instruments(): readonly FeedInstrument[] {
    return this.list;
  }

  start(sink: FeedSink): void | Promise<void> {
    if (this.opts.failStart === 'throw') throw new Error(`${this.id} cannot connect`);
    if (this.opts.failStart === 'reject') return Promise.reject(new Error(`${this.id} refused the login`));
    this.sink = sink;
    this.state = 'live';
  }

  stop(): void {
    this.state = 'stopped';
  }

  /** The index of an instrument by mds symbol. */
  private at(symbol: string): number {
    const i = this.list.findIndex((x) => x.symbol === symbol);
    if (i < 0) throw new Error(`${this.id} does not declare ${symbol}`);
    return i;
  }

  quote(symbol: string, tsMs: number, bid: number, ask: number, size: number | null = 1): void {
    this.messages++;
    this.lastMessageMs = tsMs;
    this.sink!.quote(this.at(symbol), tsMs, bid, ask, size, size);
  }

  trade(symbol: string, tsMs: number, price: number, size: number | null = 1): void {
    this.messages++;
    this.lastMessageMs = tsMs;
    this.sink!.trade(this.at(symbol), tsMs, price, size);
  }

  stale(symbol: string): void {
    this.sink!.stale(this.at(symbol));
  }

  health(): FeedHealth {
    return { id: this.id, state: this.state, connectedSinceMs: this.state === 'live' ? 0 : null, lastMessageMs: this.lastMessageMs, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: this.list.length, reason: null };
  }
}
