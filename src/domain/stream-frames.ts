// TypeBox schemas of every WebSocket frame: what clients send and what the server sends
// (docs/stream.md). The stream's hot path builds its frames by hand (stream/messages.ts); these
// describe them, make the AsyncAPI document, and the stream tests hold every received frame to them.
import { Type as T, type Static, type TSchema } from '@sinclair/typebox';
import { ASSET_CLASSES } from './asset-classes.ts';

/** Classes with live channels (the spec's five, plus commodities, perpetual futures and the US overnight session). */
export const STREAM_CLASSES = ASSET_CLASSES;
export const STREAM_KINDS = ['quotes', 'trades'] as const;
/** Every channel name, `{class}.{kind}`. */
export const STREAM_CHANNELS: readonly string[] = STREAM_CLASSES.flatMap((cls) => STREAM_KINDS.map((kind) => `${cls}.${kind}`));
/** At most this many names in a client frame's list (and entries in a `since` table). */
export const STREAM_MAX_LIST = 1000;
/** At most this many characters in a channel or symbol name of a client frame. */
export const STREAM_MAX_NAME = 64;

export const STREAM_ERROR_CODES = ['bad_json', 'bad_frame', 'unknown_action', 'unknown_channel', 'unknown_symbol', 'invalid_symbol', 'forbidden', 'too_many_subscriptions', 'rate_limited', 'unauthorized'] as const;
export type StreamErrorCode = (typeof STREAM_ERROR_CODES)[number];

const literals = <V extends string>(values: readonly V[], options: { $id?: string; description?: string } = {}) => T.Union(values.map((v) => T.Literal(v)), options);
const channelsOf = (kind: (typeof STREAM_KINDS)[number]) => STREAM_CLASSES.map((cls) => `${cls}.${kind}`);

export const StreamChannelSchema = literals(STREAM_CHANNELS, { $id: 'StreamChannel', description: 'a channel: `{class}.quotes` or `{class}.trades`' });
const QuoteChannel = literals(channelsOf('quotes'));
const TradeChannel = literals(channelsOf('trades'));
const Asset = literals(STREAM_CLASSES, { description: 'the asset class, the channel name before the dot' });
const Seq = T.Integer({ minimum: 0, description: 'a sequence number: ticks after it are replayed' });
const UnixMs = T.Integer({ description: 'Unix ms' });
const Id = T.Union([T.String(), T.Number()], { description: 'any string or number: echoed in the answer to this frame' });
const NumOrNull = T.Union([T.Number(), T.Null()]);
const CHANNEL_PATTERN = `^(${STREAM_CLASSES.join('|')})\\.(${STREAM_KINDS.join('|')})$`;

// ---- client frames (JSON text, in either format) ----

export const StreamSinceSchema = T.Union(
  [
    T.Integer({ minimum: 0, description: "one seq for every pair of the frame" }),
    T.Record(T.String(), Seq, { description: "per symbol: applied to each channel of the frame (quotes and trades seqs are separate counters: use one kind per frame)", maxProperties: STREAM_MAX_LIST }),
    T.Record(T.String({ pattern: CHANNEL_PATTERN }), T.Record(T.String(), Seq, { maxProperties: STREAM_MAX_LIST }), {
      description: 'per channel and symbol: resumes quotes and trades exactly in one frame',
      additionalProperties: false,
      maxProperties: STREAM_MAX_LIST,
    }),
  ],
  { $id: 'StreamSince', description: 'the last seq the client saw: the server replays the ticks after it from the tick ring, then continues live (named symbols only, not `*`)' },
);

const ChannelList = T.Array(T.String({ maxLength: STREAM_MAX_NAME }), { minItems: 1, maxItems: STREAM_MAX_LIST, description: 'channel names, e.g. `crypto.quotes` (an unknown one is refused with `unknown_channel`)' });
const SymbolList = T.Array(T.String({ maxLength: STREAM_MAX_NAME }), {
  minItems: 1,
  maxItems: STREAM_MAX_LIST,
  description: 'symbols of the channels\' class (REST rules: trimmed, uppercased, aliases resolved), or `["*"]` for every symbol',
});

export const StreamSubscribeSchema = T.Object(
  {
    action: T.Literal('subscribe'),
    channels: ChannelList,
    symbols: SymbolList,
    since: T.Optional(T.Union([StreamSinceSchema, T.Null()])),
    snapshot: T.Optional(T.Boolean({ description: "true: each named pair first gets its latest tick, marked `snapshot: true`, before the ack" })),
    id: T.Optional(Id),
  },
  { $id: 'StreamSubscribe', description: 'subscribes every channel × symbol pair (one frame per asset class); answered by `subscribed` or `error`' },
);

export const StreamUnsubscribeSchema = T.Object(
  { action: T.Literal('unsubscribe'), channels: ChannelList, symbols: SymbolList, id: T.Optional(Id) },
  { $id: 'StreamUnsubscribe', description: 'ends every named channel × symbol pair (pairs not subscribed are ignored); answered by `unsubscribed` or `error`' },
);

export const StreamClientFrameSchema = T.Union([StreamSubscribeSchema, StreamUnsubscribeSchema], { $id: 'StreamClientFrame' });
export type StreamClientFrame = Static<typeof StreamClientFrameSchema>;

// ---- server frames (JSON text; msgpack binary with `?format=msgpack`: the same objects) ----

const strict = { additionalProperties: false } as const;

export const StreamLimitsSchema = T.Object(
  {
    max_subscriptions: T.Integer({ description: 'channel × symbol pairs per connection (and per frame)' }),
    max_connections: T.Integer({ description: 'connections per key' }),
    max_frames_per_10s: T.Integer({ description: 'client frames per 10 s before close 4029' }),
    slow_consumer_bytes: T.Integer({ description: 'unsent bytes before close 4008' }),
    heartbeat_ms: T.Integer({ description: 'heartbeat interval' }),
    max_replay: T.Integer({ description: 'ticks replayed per pair at most' }),
  },
  { $id: 'StreamLimits', ...strict },
);

export const StreamReadySchema = T.Object(
  {
    type: T.Literal('ready'),
    session_id: T.String(),
    server_time: UnixMs,
    version: T.String({ description: 'the interface version' }),
    format: literals(['json', 'msgpack']),
    slow: literals(['disconnect', 'conflate'], {
      description: "what happens when the client cannot keep up (`?slow=` on the stream URL): `disconnect` (default) closes with 4008 past `slow_consumer_bytes`; `conflate` sends only each line's newest quote while the connection is backed up, then a `conflated` frame (trades are never conflated: past the bound it is closed with 4008 too)",
    }),
    channels: T.Array(StreamChannelSchema, { description: "the channels the key's plan includes" }),
    limits: StreamLimitsSchema,
  },
  { $id: 'StreamReady', description: 'once, first, on every accepted connection', ...strict },
);

export const StreamSubscriptionSchema = T.Object({ channel: StreamChannelSchema, symbol: T.String({ description: 'canonical symbol, or `*` for the whole channel' }) }, { $id: 'StreamSubscription', ...strict });
const Subscriptions = T.Array(StreamSubscriptionSchema, { description: 'the whole active set after the change' });

export const StreamReplayReportSchema = T.Object(
  {
    channel: StreamChannelSchema,
    symbol: T.String(),
    since: T.Integer({ minimum: 0 }),
    replayed: T.Integer({ minimum: 0 }),
    first_seq: T.Union([T.Integer(), T.Null()], { description: 'the first seq the client gets after `since` (replayed or live); null: not known (perpetual futures are never replayed)' }),
    gap: T.Boolean({ description: 'true: seqs since+1 .. first_seq-1 (all, when first_seq is null) will never arrive on the stream: fill them from REST' }),
  },
  { $id: 'StreamReplayReport', description: "one pair's replay: where it starts and whether ticks are missing for good", ...strict },
);

export const StreamSubscribedSchema = T.Object(
  {
    type: T.Literal('subscribed'),
    id: T.Optional(Id),
    replayed: T.Integer({ minimum: 0, description: 'ticks replayed (sent before this ack)' }),
    replay: T.Optional(T.Array(StreamReplayReportSchema, { description: 'with `since`: per pair given one' })),
    snapshots: T.Optional(T.Integer({ minimum: 0, description: 'with `snapshot`: snapshot ticks sent before this ack' })),
    subscriptions: Subscriptions,
  },
  { $id: 'StreamSubscribed', description: 'the answer to a subscribe frame', ...strict },
);

export const StreamUnsubscribedSchema = T.Object(
  { type: T.Literal('unsubscribed'), id: T.Optional(Id), subscriptions: Subscriptions },
  { $id: 'StreamUnsubscribed', description: 'the answer to an unsubscribe frame', ...strict },
);

export const StreamEntitlementsChangedSchema = T.Object(
  {
    type: T.Literal('unsubscribed'),
    reason: T.Literal('entitlements changed'),
    dropped: T.Array(T.Object({ channel: StreamChannelSchema, symbol: T.String(), message: T.String({ description: 'what the key now lacks, as a `forbidden` error says it' }) }, strict)),
    subscriptions: Subscriptions,
  },
  { $id: 'StreamEntitlementsChanged', description: "unasked: a key change (plan or markets) dropped pairs the key may no longer use", ...strict },
);

const tickFields = {
  asset: Asset,
  symbol: T.String({ description: 'canonical symbol' }),
  ts: UnixMs,
  timestamp: T.Integer({ description: 'Unix ms, the same value as `ts`' }),
  source_count: T.Optional(T.Integer({ minimum: 1, description: 'perpetual futures composites only: the sources that count' })),
  seq: T.Integer({ minimum: 1, description: "per symbol and kind, from 1, across restarts: the number to resume from with `since`" }),
  snapshot: T.Optional(T.Literal(true, { description: 'the latest tick sent on subscribe with `snapshot: true`, before the ack' })),
};

export const StreamQuoteSchema = T.Object(
  { type: T.Literal('quote'), channel: QuoteChannel, ...tickFields, bid: T.Number(), ask: T.Number(), bid_size: NumOrNull, ask_size: NumOrNull },
  { $id: 'StreamQuote', description: 'a consolidated quote (also replayed with `since`)', ...strict },
);

export const StreamTradeSchema = T.Object(
  { type: T.Literal('trade'), channel: TradeChannel, ...tickFields, price: T.Number(), size: NumOrNull },
  { $id: 'StreamTrade', description: 'a trade (forex, indices and ETF lines have no tape: their trades channels stay quiet)', ...strict },
);

export const StreamStatusSchema = T.Object(
  {
    type: T.Literal('status'),
    channel: QuoteChannel,
    asset: Asset,
    symbol: T.String({ description: 'canonical symbol' }),
    status: literals(['stale', 'live'], { description: '`stale`: the line lost its last live source (every venue feeding it went stale or was dropped, or none quoted within the stale window); its last quote stands and no quotes follow until `live`. `live`: a source quotes it again' }),
    sources: T.Integer({ minimum: 0, description: 'the live sources behind the line now: 0 when stale' }),
    since: UnixMs,
    snapshot: T.Optional(T.Literal(true, { description: 'sent on subscribe because the line is already stale, before the ack' })),
  },
  {
    $id: 'StreamStatus',
    description:
      "mds addition: a subscribed line's freshness changed, on its quotes channel (`since`: when, service clock). A subscriber to a line that is already stale gets one at once, marked `snapshot: true`; without one, a line is live. REST quote and snapshot answers carry the same state as `stale`",
    ...strict,
  },
);

export const StreamConflatedSchema = T.Object(
  {
    type: T.Literal('conflated'),
    dropped: T.Integer({ minimum: 0, description: 'quotes not sent while the connection was backed up: each was replaced by a newer quote of its line' }),
    quotes: T.Integer({ minimum: 0, description: 'the quotes that follow this frame at once: the newest of each line that moved meanwhile (their seqs jump by what was dropped; not a gap to fill)' }),
    since: T.Integer({ description: 'when the connection backed up, Unix ms (service clock)' }),
    ts: T.Integer({ description: 'when it caught up, Unix ms (service clock)' }),
  },
  {
    $id: 'StreamConflated',
    description: "`?slow=conflate` only: the connection was backed up from `since` to `ts` and caught up. Followed by each moved line's newest quote (and newest `status`, if one changed), then live quotes again",
    ...strict,
  },
);

export const StreamLagSchema = T.Object(
  {
    type: T.Literal('lag'),
    unsent_bytes: T.Integer({ minimum: 0, description: 'bytes the server had queued for this connection and not yet sent when it warned' }),
    limit_bytes: T.Integer({ minimum: 1, description: 'where the policy acts: `slow_consumer_bytes` (closed with 4008) under `disconnect`, a quarter of it (quotes held back and conflated) under `conflate`, or the bound itself for a `conflate` connection with no quotes to conflate' }),
    slow: T.Union([T.Literal('disconnect'), T.Literal('conflate')], { description: "the connection's slow-consumer policy (`?slow=`)" }),
    lag_ms: T.Integer({ minimum: 0, description: 'how long the connection has been falling behind: since the server first saw more than an eighth of `limit_bytes` unsent (checked every 50 ms)' }),
    ts: T.Integer({ description: 'when the server warned, Unix ms (service clock)' }),
  },
  {
    $id: 'StreamLag',
    description:
      'mds addition: a warning that the connection reads slower than the server sends, once half of `limit_bytes` is unsent, before its policy acts (a 4008 close, or conflated quotes). Queued behind what is unsent, so it arrives after that. Once per episode: sent again only after the connection has caught up (an eighth of `limit_bytes` or less unsent). Not sent to the compatibility dialects',
    ...strict,
  },
);

export const StreamHeartbeatSchema = T.Object({ type: T.Literal('heartbeat'), ts: UnixMs }, { $id: 'StreamHeartbeat', description: 'every `heartbeat_ms` to every connection, with a WebSocket ping', ...strict });

export const StreamErrorCodeSchema = literals(STREAM_ERROR_CODES, { $id: 'StreamErrorCode' });

export const StreamErrorSchema = T.Object(
  { type: T.Literal('error'), code: StreamErrorCodeSchema, message: T.String(), id: T.Optional(Id) },
  { $id: 'StreamError', description: 'a refused frame (it changed nothing; the connection stays open), or the reason for the close that follows (`rate_limited`, `unauthorized`)', ...strict },
);

/** Every server frame, by its `type` (two shapes share `unsubscribed`: the ack and the unasked drop). */
export const SERVER_FRAMES = {
  ready: [StreamReadySchema],
  subscribed: [StreamSubscribedSchema],
  unsubscribed: [StreamUnsubscribedSchema, StreamEntitlementsChangedSchema],
  quote: [StreamQuoteSchema],
  trade: [StreamTradeSchema],
  status: [StreamStatusSchema],
  conflated: [StreamConflatedSchema],
  lag: [StreamLagSchema],
  heartbeat: [StreamHeartbeatSchema],
  error: [StreamErrorSchema],
} as const satisfies Record<string, readonly TSchema[]>;

export const StreamServerFrameSchema = T.Union(
  [StreamReadySchema, StreamSubscribedSchema, StreamUnsubscribedSchema, StreamEntitlementsChangedSchema, StreamQuoteSchema, StreamTradeSchema, StreamStatusSchema, StreamConflatedSchema, StreamLagSchema, StreamHeartbeatSchema, StreamErrorSchema],
  { $id: 'StreamServerFrame' },
);
export type StreamServerFrame = Static<typeof StreamServerFrameSchema>;
