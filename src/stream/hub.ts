// The live stream: subscribes once to the ingest path's ticks, encodes each tick once per format
// and fans it out with Bun's native topic publish (never a loop over clients in JavaScript).
// Topics: `<format>|<channel>|<symbol>`, and `<format>|<channel>|*` for whole channels.
// Compatibility dialects (compat/) are audiences of their own (`~name` topics), encoded only while
// a dialect connection is open and only for topics with subscribers; sealed minute bars go to them
// alone (`<class>.bars`, `<class>.dailyBars`): the native stream has no bar channel.
import type { Server } from 'bun';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Clock } from '../clock.ts';
import { Conflation } from './conflation.ts';
import { compositeQuoteJson, compositeTradeJson, packObject, quoteJson, statusJson, tradeJson } from './messages.ts';

export type Format = 'json' | 'msgpack';
/** Who a topic is encoded for: a native format, or a compatibility dialect (`~massive`, ...). */
export type Audience = Format | `~${string}`;

export function topicOf(audience: Audience, channel: string, symbol: string): string {
  return `${audience === 'json' ? 'j' : audience === 'msgpack' ? 'm' : audience}|${channel}|${symbol}`;
}

type QuoteValues = { tsMs: number; bid: number; ask: number; bidSize: number | null; askSize: number | null };

/** A dialect's encoding of one tick, or null when the dialect has no event for it (a class or market it does not serve). */
export interface DialectEncoder {
  audience: `~${string}`;
  quote(entry: SymbolEntry, seq: number, q: QuoteValues): string | Uint8Array | null;
  trade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null): string | Uint8Array | null;
  /** A sealed minute bar, with the day's bar in progress that holds it (null when there is none). */
  bar?(entry: SymbolEntry, minute: Readonly<Bar>, day: Readonly<Bar> | null): string | Uint8Array | null;
  /** The day's bar in progress, updated by a sealed minute. */
  dailyBar?(entry: SymbolEntry, day: Readonly<Bar>): string | Uint8Array | null;
  /** The line lost its last live source or regained one (sent on its quotes channel); absent: the dialect has no such event. */
  status?(entry: SymbolEntry, isStale: boolean, sources: number, sinceMs: number): string | Uint8Array | null;
}

export const HEARTBEAT_TOPIC = { json: 'j|heartbeat', msgpack: 'm|heartbeat' } as const;

/**
 * What the ingest path calls for each consolidated tick (its TickListener shape); `sourceCount` is
 * set on perpetual composites (their frames carry `source_count`) and null on spot lines.
 */
export interface TickSink {
  onQuote(entry: SymbolEntry, seq: number, q: QuoteValues, sourceCount: number | null): void;
  onTrade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number | null): void;
  onStatus(entry: SymbolEntry, isStale: boolean, liveSources: number, sinceMs: number): void;
}

/** What the ingest path calls for each sealed minute bar (its BarListener shape). */
export interface BarSink {
  onMinuteBar(entry: SymbolEntry, minute: Readonly<Bar>, day: Readonly<Bar> | null): void;
}

/** What the hub publishes through: the server, or all the port's listeners after a TLS reload. */
export type TopicPublisher = Pick<Server<unknown>, 'publish' | 'subscriberCount'>;

export class StreamHub implements TickSink, BarSink {
  private server: TopicPublisher | null = null;
  /** Frames published (one per receiving connection): ticks and heartbeats. */
  published = 0;
  /** Their payload bytes, per receiving connection. */
  publishedBytes = 0;
  private readonly dialects: DialectEncoder[] = [];
  /** Open dialect connections: while there are none, ticks cost the dialects one comparison. */
  dialectConnections = 0;
  /** The newest quotes of backed-up `conflate` connections, which are off their quotes topics meanwhile. */
  readonly conflation = new Conflation();

  constructor(private readonly clock: Clock) {}

  addDialect(encoder: DialectEncoder): void {
    this.dialects.push(encoder);
  }

  attach(server: TopicPublisher): void {
    this.server = server;
  }

  onQuote(entry: SymbolEntry, seq: number, q: QuoteValues, sourceCount: number | null): void {
    const channel = `${entry.assetClass}.quotes`;
    if (this.dialectConnections > 0) {
      for (const d of this.dialects) this.fanOutDialect(d.audience, channel, entry.symbol, () => d.quote(entry, seq, q));
    }
    const json =
      sourceCount !== null
        ? () => compositeQuoteJson(channel, entry.assetClass, entry.symbol, seq, q.bid, q.ask, q.bidSize, q.askSize, q.tsMs, sourceCount)
        : () => quoteJson(channel, entry.assetClass, entry.symbol, seq, q.bid, q.ask, q.bidSize, q.askSize, q.tsMs);
    const object =
      sourceCount !== null
        ? () => ({ type: 'quote', channel, asset: entry.assetClass, symbol: entry.symbol, bid: q.bid, ask: q.ask, bid_size: q.bidSize, ask_size: q.askSize, ts: q.tsMs, timestamp: q.tsMs, source_count: sourceCount, seq })
        : () => ({ type: 'quote', channel, asset: entry.assetClass, symbol: entry.symbol, bid: q.bid, ask: q.ask, bid_size: q.bidSize, ask_size: q.askSize, ts: q.tsMs, timestamp: q.tsMs, seq });
    if (this.conflation.size === 0) return this.fanOut(channel, entry.symbol, json, object);
    // Encoded once for the topics and the backlogs alike.
    let text: string | null = null;
    let bytes: Uint8Array | null = null;
    const frame = { json: () => (text ??= json()), msgpack: () => (bytes ??= packObject(object())) };
    this.fanOut(channel, entry.symbol, frame.json, object, frame.msgpack);
    this.conflation.offerQuote(channel, entry.symbol, frame);
  }

  onTrade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number | null): void {
    const channel = `${entry.assetClass}.trades`;
    if (this.dialectConnections > 0) {
      for (const d of this.dialects) this.fanOutDialect(d.audience, channel, entry.symbol, () => d.trade(entry, seq, tsMs, price, size));
    }
    if (sourceCount !== null) {
      this.fanOut(
        channel,
        entry.symbol,
        () => compositeTradeJson(channel, entry.assetClass, entry.symbol, seq, price, size, tsMs, sourceCount),
        () => ({ type: 'trade', channel, asset: entry.assetClass, symbol: entry.symbol, price, size, ts: tsMs, timestamp: tsMs, source_count: sourceCount, seq }),
      );
      return;
    }
    this.fanOut(
      channel,
      entry.symbol,
      () => tradeJson(channel, entry.assetClass, entry.symbol, seq, price, size, tsMs),
      () => ({ type: 'trade', channel, asset: entry.assetClass, symbol: entry.symbol, price, size, ts: tsMs, timestamp: tsMs, seq }),
    );
  }

  /** A line lost its last live source or regained one: a `status` frame on its quotes channel (rare: no per-tick cost). */
  onStatus(entry: SymbolEntry, isStale: boolean, liveSources: number, sinceMs: number): void {
    const channel = `${entry.assetClass}.quotes`;
    if (this.dialectConnections > 0) {
      for (const d of this.dialects) {
        const status = d.status;
        if (status) this.fanOutDialect(d.audience, channel, entry.symbol, () => status(entry, isStale, liveSources, sinceMs));
      }
    }
    let text: string | null = null;
    const json = () => (text ??= statusJson(channel, entry.assetClass, entry.symbol, isStale, liveSources, sinceMs));
    const object = () => JSON.parse(json()) as Record<string, unknown>;
    this.fanOut(channel, entry.symbol, json, object);
    if (this.conflation.size > 0) this.conflation.offerStatus(channel, entry.symbol, { json, msgpack: () => packObject(object()) });
  }

  /** Once per symbol and minute; only dialects have bar channels. */
  onMinuteBar(entry: SymbolEntry, minute: Readonly<Bar>, day: Readonly<Bar> | null): void {
    if (this.dialectConnections === 0) return;
    const bars = `${entry.assetClass}.bars`;
    for (const d of this.dialects) {
      const bar = d.bar;
      if (bar) this.fanOutDialect(d.audience, bars, entry.symbol, () => bar(entry, minute, day));
    }
    if (day === null) return;
    const daily = `${entry.assetClass}.dailyBars`;
    for (const d of this.dialects) {
      const dailyBar = d.dailyBar;
      if (dailyBar) this.fanOutDialect(d.audience, daily, entry.symbol, () => dailyBar(entry, day));
    }
  }

  /** Publishes one tick to the symbol's and the whole channel's topics, encoding each format only if it has subscribers. */
  private fanOut(channel: string, symbol: string, json: () => string, object: () => Record<string, unknown>, msgpack?: () => Uint8Array): void {
    const server = this.server;
    if (!server) return;
    const jTopic = topicOf('json', channel, symbol);
    const jAll = topicOf('json', channel, '*');
    const jCount = server.subscriberCount(jTopic) + server.subscriberCount(jAll);
    if (jCount > 0) {
      const text = json();
      server.publish(jTopic, text);
      server.publish(jAll, text);
      this.published += jCount;
      this.publishedBytes += jCount * text.length;
    }
    const mTopic = topicOf('msgpack', channel, symbol);
    const mAll = topicOf('msgpack', channel, '*');
    const mCount = server.subscriberCount(mTopic) + server.subscriberCount(mAll);
    if (mCount > 0) {
      const bytes = msgpack !== undefined ? msgpack() : packObject(object());
      server.publish(mTopic, bytes);
      server.publish(mAll, bytes);
      this.published += mCount;
      this.publishedBytes += mCount * bytes.length;
    }
  }

  /** A dialect's topics for one tick, encoded only if subscribed (dialects have no composite fields). */
  private fanOutDialect(audience: Audience, channel: string, symbol: string, encode: () => string | Uint8Array | null): void {
    const server = this.server;
    if (!server) return;
    const topic = topicOf(audience, channel, symbol);
    const all = topicOf(audience, channel, '*');
    const count = server.subscriberCount(topic) + server.subscriberCount(all);
    if (count === 0) return;
    const payload = encode();
    if (payload === null) return;
    server.publish(topic, payload);
    server.publish(all, payload);
    this.published += count;
  }

  /** One heartbeat per interval to every connection (each is subscribed to its format's topic). */
  heartbeat(): void {
    const server = this.server;
    if (!server) return;
    const ts = this.clock.nowMs();
    const text = `{"type":"heartbeat","ts":${ts}}`;
    const jCount = server.subscriberCount(HEARTBEAT_TOPIC.json);
    server.publish(HEARTBEAT_TOPIC.json, text);
    this.published += jCount;
    this.publishedBytes += jCount * text.length;
    const mCount = server.subscriberCount(HEARTBEAT_TOPIC.msgpack);
    if (mCount > 0) {
      const bytes = packObject({ type: 'heartbeat', ts });
      server.publish(HEARTBEAT_TOPIC.msgpack, bytes);
      this.published += mCount;
      this.publishedBytes += mCount * bytes.length;
    }
  }
}
