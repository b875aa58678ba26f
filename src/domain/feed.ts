// The feed boundary: what every source of market data (the simulator, a live venue, an upstream
// vendor, a file replay) offers the ingest path. Types only; the ingest path lives in src/ingest.
import type { AssetClass } from './asset-classes.ts';

/**
 * Where a feed is in its life; `/health` lists it per feed (docs/feeds.md says what each means for
 * a user). Only `live` means the feed's lines are current.
 */
export type FeedState = 'connecting' | 'subscribing' | 'live' | 'stale' | 'backoff' | 'failed' | 'stopped';

/** One instrument a feed supplies, mapped to the mds canonical symbol. */
export interface FeedInstrument {
  assetClass: AssetClass;
  /** Canonical mds symbol as served (`BTCUSD`, `BTCUSDT` for a perpetual, `US:AAPL`). */
  symbol: string;
  /** The source's own name for it (`BTCUSDT`, `BTC-USD`, `XBT/USD`, `BTC`). */
  venueSymbol: string;
  /** Display name, used when the built-in catalog lacks the symbol and the registry learns it from the feed. */
  name?: string;
  /** Price decimals, used with `name` when the registry learns the symbol. */
  decimals?: number;
}

/**
 * Where a feed hands its normalized ticks. Instruments are named by their index in the feed's
 * `instruments()` list, so the per-tick call carries numbers only (cheap across a worker boundary).
 * Times are the source's event time in epoch milliseconds; a size the source does not give is null.
 */
export interface FeedSink {
  quote(instrument: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void;
  trade(instrument: number, tsMs: number, price: number, size: number | null): void;
  /** The source's line for this instrument is no longer current (silent, errored, unsubscribed): consolidation drops it now. */
  stale(instrument: number): void;
  /**
   * A sink for one named part of a feed that stands for several independent sources (the
   * simulator's venues `sim-1` … `sim-6`): consolidation counts each part as a venue of its own.
   * The ingest path always offers it; a feed that is one source never calls it.
   */
  source?(name: string): FeedSink;
}

/** A feed's own report, merged into `/health` under its id. */
export interface FeedHealth {
  id: string;
  state: FeedState;
  /** Since when the current connection has been live (epoch ms), or null while it is not. */
  connectedSinceMs: number | null;
  /** Epoch ms the source was last heard from (any frame, WebSocket pings and pongs too), or null before. */
  lastMessageMs: number | null;
  /** Messages per second over the last few seconds. */
  messagesPerSecond: number;
  /** Dials after the first, whether or not they opened (a venue feed); a feed without dials counts its restarts. */
  reconnects: number;
  parseErrors: number;
  instruments: number;
  /** Why the feed is not live (auth failure, backoff reason, per-symbol venue errors), or null. */
  reason: string | null;
  /** Messages the source numbers that arrived out of turn (a line is stale from a gap to its next good update). */
  sequenceGaps?: number;
  /** Venue errors for single instruments, by mds symbol; one clears when its instrument subscribes or ticks again. */
  instrumentErrors?: Record<string, string>;
  /** Quotes and trades the feed produced since it started (a feed that does not count leaves it out). */
  ticks?: number;
  /** Quotes replaced by a newer quote of the same instrument before ingest, because the serving thread was behind. */
  conflated?: number;
  /** Ticks dropped before ingest because the hand-over queue was full. */
  dropped?: number;
  /** The feed's corporate-actions fetch (keyed stock feeds with a REST source); absent: it has none. */
  corporateActions?: CorporateActionsHealth;
}

/** Where a feed's corporate-actions fetch stands. */
export interface CorporateActionsHealth {
  /** `pending` until the first round ends, `ok` after a round that fetched everything, `retrying` while a failure is retried. */
  state: 'pending' | 'ok' | 'retrying';
  /** When the last complete round ended (service clock, epoch ms), or null before one did. */
  lastRoundMs: number | null;
  /** The failure being retried, or null. */
  failure: string | null;
  /** When the next round or retry is due (epoch ms). */
  nextDueMs: number;
  /** Actions stored new, and stored over a different earlier version, since the start. */
  added: number;
  replaced: number;
  /** Rows skipped as bad (each logged). */
  badRows: number;
}

/** What a feed's history backfill is asked to cover. */
export interface BackfillRequest {
  /** Exclusive end: history up to this minute boundary (epoch ms). */
  endMs: number;
  /** True on the first start of a data dir; false when resuming after a stop. */
  isFirstStart: boolean;
}

export interface Feed {
  /** Stable string id: `sim`, `binance`, `kraken`, ... also the venue name inside consolidation. */
  readonly id: string;
  /** The instruments this feed supplies (fixed once start is called). */
  instruments(): readonly FeedInstrument[];
  start(sink: FeedSink): void | Promise<void>;
  stop(): void | Promise<void>;
  health(): FeedHealth;
  /** Optional history: writes bars through the ingest path's history writer before `start`. */
  backfill?(request: BackfillRequest): Promise<void>;
  /**
   * Optional older history, made in the background once the feed has started and the server
   * serves (newest first); resolves when it is done or the feed stops.
   */
  backfillOlder?(): Promise<void>;
}
