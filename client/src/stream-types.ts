// What the stream client yields and the frames it reads: the server's quote and trade messages
// as sent (spec field names), and the client's own events (gap, connected, disconnected, ...).
import type { StreamErrorCode } from './errors.ts';
import type { Channel } from './generated.ts';

/** A quote as the server sends it; `seq` counts the pair's quotes from 1. */
export interface QuoteMessage {
  type: 'quote';
  channel: Channel;
  asset: string;
  symbol: string;
  bid: number;
  ask: number;
  bid_size: number | null;
  ask_size: number | null;
  /** Event time, Unix ms (`timestamp` is the same). */
  ts: number;
  timestamp: number;
  seq: number;
  /** Perpetual futures composites: the sources behind the value. */
  source_count?: number;
  /** The pair's latest tick sent on subscribe (`snapshot: true`), before live ones. */
  snapshot?: true;
}

/** A trade as the server sends it; `seq` counts the pair's trades from 1. */
export interface TradeMessage {
  type: 'trade';
  channel: Channel;
  asset: string;
  symbol: string;
  price: number;
  size: number | null;
  ts: number;
  timestamp: number;
  seq: number;
  source_count?: number;
  snapshot?: true;
}

/**
 * The line of a subscribed quotes channel lost its last live source (`stale`: its last quote
 * stands, no quotes follow) or regained one (`live`). Sent once per change, and at once on
 * subscribe to a line that is already stale (`snapshot: true`); with none, a line is live.
 */
export interface StatusMessage {
  type: 'status';
  channel: Channel;
  asset: string;
  symbol: string;
  status: 'stale' | 'live';
  /** The live sources behind the line now: 0 when stale. */
  sources: number;
  /** When the line became stale or live, Unix ms (service clock). */
  since: number;
  snapshot?: true;
}

/**
 * The connection (opened with `slow: 'conflate'`) was backed up from `since` to `ts` and caught up:
 * `dropped` quotes were replaced by newer ones of their lines, and the `quotes` quote messages that
 * follow are the newest of each line that moved. Their seqs jump by what was dropped: the client
 * reports no gap for them. Trades are never conflated.
 */
export interface ConflatedMessage {
  type: 'conflated';
  dropped: number;
  quotes: number;
  since: number;
  ts: number;
}

/**
 * A warning: the connection reads slower than the server sends. `unsent_bytes` were queued and not
 * sent when the server warned, half of `limit_bytes`, where the connection's `slow` policy acts
 * (a 4008 close under `disconnect`; conflated quotes under `conflate`); `lag_ms` is how long it had
 * been falling behind. Queued behind what was unsent, so it arrives after that; once per episode.
 */
export interface LagMessage {
  type: 'lag';
  unsent_bytes: number;
  limit_bytes: number;
  slow: SlowPolicy;
  lag_ms: number;
  ts: number;
}

/**
 * Ticks `from`..`to` (inclusive) of the pair will never arrive on the stream: the server's replay
 * could not reach back that far (ring or replay limit), or its seq jumped. Fill the span from REST
 * bars if it matters.
 */
export interface GapEvent {
  type: 'gap';
  channel: Channel;
  symbol: string;
  from: number;
  to: number;
}

/** The connection is ready and the subscriptions were sent again (after a reconnect, with `since`). */
export interface ConnectedEvent {
  type: 'connected';
  sessionId: string;
  /** False on the first connection, true on every reconnect. */
  reconnect: boolean;
}

/**
 * The connection ended. `reconnectInMs` is the wait before the next attempt, or null when the
 * stream is finished (closed by you, or for good: a refused key). Code 4000 is the client's own:
 * no frame within the heartbeat timeout (or no ready frame within the connect timeout).
 */
export interface DisconnectedEvent {
  type: 'disconnected';
  code: number;
  reason: string;
  reconnectInMs: number | null;
}

/** An error frame the client did not ask for, or one refusing a subscription it restored. */
export interface StreamErrorEvent {
  type: 'error';
  code: StreamErrorCode;
  message: string;
}

/** The server dropped pairs the key may no longer use (a key change while connected). */
export interface DroppedEvent {
  type: 'dropped';
  reason: string;
  dropped: { channel: Channel; symbol: string; message: string }[];
}

export type StreamEvent = QuoteMessage | TradeMessage | StatusMessage | ConflatedMessage | LagMessage | GapEvent | ConnectedEvent | DisconnectedEvent | StreamErrorEvent | DroppedEvent;
export type StreamEventType = StreamEvent['type'];

/** A channel × symbol pair (`*`: every symbol of the channel). */
export interface Subscription {
  channel: Channel;
  symbol: string;
}

/** One pair's replay, as the ack of a subscribe with `since` reports it. */
export interface ReplayReport {
  channel: Channel;
  symbol: string;
  since: number;
  replayed: number;
  /** The first seq after `since` the client gets (replayed or live); null: not known (composites). */
  first_seq: number | null;
  gap: boolean;
}

/** The server's answer to a subscribe or unsubscribe. */
export interface SubscriptionAck {
  type: 'subscribed' | 'unsubscribed';
  /** The connection's whole active set after the change. */
  subscriptions: Subscription[];
  replayed?: number;
  replay?: ReplayReport[];
  snapshots?: number;
}

/**
 * What the server does when the client cannot keep up: `disconnect` closes with 4008 past
 * `slow_consumer_bytes`; `conflate` sends each line's newest quote once the client catches up
 * (after a `conflated` message) and closes with 4008 only when trades back up past the bound.
 */
export type SlowPolicy = 'disconnect' | 'conflate';

/** The limits the server states in its ready frame. */
export interface StreamLimits {
  max_subscriptions: number;
  max_connections: number;
  max_frames_per_10s: number;
  slow_consumer_bytes: number;
  heartbeat_ms: number;
  max_replay: number;
}

/** The first frame of a connection. */
export interface ReadyFrame {
  type: 'ready';
  session_id: string;
  server_time: number;
  version: string;
  format: 'json';
  /** What the server does when this client cannot keep up (`?slow=`). */
  slow: SlowPolicy;
  channels: Channel[];
  limits: StreamLimits;
}
