// The contract of one WebSocket venue: everything that differs between venues, as data and pure
// functions. The shared venue client (connection, batching, pings, reconnects, staleness) runs any
// protocol; a venue's folder under adapters/ holds its protocol, its parsers and nothing else.
import type { AssetClass } from '../../domain/asset-classes.ts';
import type { FeedInstrument } from '../../domain/feed.ts';
import type { ActionsSource } from './actions-source.ts';

/** One thing a frame said. A frame may say several (a batch of trades). */
export type VenueEvent =
  | { type: 'quote'; venueSymbol: string; tsMs: number; bid: number; ask: number; bidSize: number | null; askSize: number | null; seq?: number }
  | { type: 'trade'; venueSymbol: string; tsMs: number; price: number; size: number | null; seq?: number }
  /** The venue's best bid or ask is empty (no price, or a size of 0): no quote, and its line is stale (top-of-book.ts). */
  | { type: 'book-empty'; venueSymbol: string }
  /** The venue confirmed subscriptions (names as the venue echoes them, possibly empty). */
  | { type: 'subscribed'; venueSymbols: string[] }
  /** The venue refused or dropped one symbol; the others go on (see `refusesWholeBatch`). */
  | { type: 'symbol-error'; venueSymbol: string; message: string }
  /**
   * The venue refused one whole subscribe request without naming the symbol at fault: the client
   * splits that batch in two and subscribes each half, down to the single symbol it then reports.
   */
  | { type: 'batch-refused'; requestId: number; message: string }
  /** A connection-level error from the venue (connection limit, slow consumer, bad request). */
  | { type: 'error'; message: string; fatal: boolean }
  /** Authentication result for keyed upstreams. `ok: false` fails the feed (no reconnect loop). */
  | { type: 'auth'; ok: boolean; message: string }
  /** The venue pinged at the application level: send `reply` back. */
  | { type: 'ping'; reply: string }
  /** A frame that carries nothing for us (pong, heartbeat, status, info): a sign of life all the same. */
  | { type: 'heartbeat' };

/** A frame that could not be understood: counted, logged at most once a minute, never thrown. */
export interface VenueParseError {
  type: 'parse-error';
  message: string;
}

/** One connection's parse function (see `VenueProtocol.createParser`). */
export type VenueParser = (frame: string, recvMs: number) => VenueEvent[] | VenueParseError;

export interface VenueProtocol {
  /** Feed id and venue name: `binance`, `binance-usdm`, `coinbase`, ... */
  id: string;
  /** Human description for `mds feeds`. */
  description: string;
  /** What the venue supplies: spot classes or perpetuals. */
  assetClass: AssetClass;
  defaultUrl: string;
  /** False for a source that publishes quotes only (forex vendors); default true. */
  suppliesTrades?: boolean;
  /** Environment variables holding credentials, for keyed upstreams (never stored, never logged). */
  credentials?: readonly string[];
  /** The instruments subscribed when the feeds file names none. */
  defaultInstruments: readonly FeedInstrument[];
  /** Maps an mds symbol to the venue's, for instruments named in the feeds file; null if not mappable. */
  venueSymbolOf(symbol: string): string | null;
  /** At most this many symbols per subscribe frame, and frames per second (venue limits). */
  maxSymbolsPerFrame: number;
  maxFramesPerSecond: number;
  /** URL for a connection carrying these symbols (venues that subscribe in the URL); default: the url as given. */
  connectUrl?(baseUrl: string, venueSymbols: readonly string[]): string;
  /** Frames sent right after open, before subscribing (auth for keyed upstreams). */
  authFrames?(credentials: Readonly<Record<string, string>>): string[];
  /** True if subscribing waits for a successful `auth` event. */
  awaitsAuth?: boolean;
  /**
   * True if the venue refuses a whole subscribe request for one unknown symbol in it (Coinbase,
   * Bybit, OKX): on a `symbol-error` the client subscribes the rest of that batch again without it.
   */
  refusesWholeBatch?: boolean;
  /** The frames that subscribe one batch of venue symbols (quotes and trades). */
  subscribeFrames(venueSymbols: readonly string[], requestId: number): string[];
  /**
   * An application-level keepalive to send every `pingIntervalMs`, if the venue wants one. The
   * client also sends it when the connection has been quiet for half the silence limit (a venue
   * without one gets a WebSocket ping then), so a healthy quiet connection always answers in time.
   */
  pingFrame?(): string;
  pingIntervalMs?: number;
  /** Pure: one text frame and the receive time to events. Never throws. */
  parse(frame: string, recvMs: number): VenueEvent[] | VenueParseError;
  /**
   * For venues whose frames only make sense after earlier ones (Bybit's book deltas carry only the
   * side that changed): a fresh parser holding that per-connection state. A client calls it once
   * per connection, before the first frame, and uses it instead of `parse`; `parse` then stays the
   * stateless fallback (a frame that needs earlier state yields what it alone says).
   */
  createParser?(): VenueParser;
  /** A keyed stock upstream's corporate-actions REST API: fetched for its symbols (src/ingest/actions-sync.ts). */
  corporateActions?: ActionsSource;
}

/** Per-feed settings from `--feeds FILE` (all optional; defaults come from the protocol). */
export interface VenueFeedSettings {
  /** Replaces the protocol's default URL (a proxy, a local test venue). */
  url?: string;
  /** Replaces the origin of the vendor's REST API, where corporate actions are fetched (a proxy, a local test server). */
  restUrl?: string;
  /** The instruments to subscribe; default: the protocol's defaultInstruments. */
  instruments?: readonly FeedInstrument[];
  /** Credential values by variable name, read from the environment by the caller (never stored). */
  credentials?: Readonly<Record<string, string>>;
  /**
   * A connection that has said nothing for this long (no data, heartbeat, ping or pong, although it
   * was asked for a sign of life at half the limit) is dead: the feed is stale and it reconnects.
   * A dial that has not opened by then is abandoned and retried.
   */
  silentMs?: number;
  /** Reconnect backoff bounds. */
  backoffMinMs?: number;
  backoffMaxMs?: number;
}
