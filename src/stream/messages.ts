// Server messages for ticks, encoded once per tick: the JSON text for JSON clients and the
// msgpack bytes for binary clients, each built only when that audience has subscribers.
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false });

export function quoteJson(channel: string, asset: string, symbol: string, seq: number, bid: number, ask: number, bidSize: number | null, askSize: number | null, tsMs: number): string {
  return `{"type":"quote","channel":"${channel}","asset":"${asset}","symbol":"${symbol}","bid":${bid},"ask":${ask},"bid_size":${bidSize},"ask_size":${askSize},"ts":${tsMs},"timestamp":${tsMs},"seq":${seq}}`;
}

export function tradeJson(channel: string, asset: string, symbol: string, seq: number, price: number, size: number | null, tsMs: number): string {
  return `{"type":"trade","channel":"${channel}","asset":"${asset}","symbol":"${symbol}","price":${price},"size":${size},"ts":${tsMs},"timestamp":${tsMs},"seq":${seq}}`;
}

/** A composite's quote (perpetual futures): the quote fields plus how many sources stand behind it. */
export function compositeQuoteJson(channel: string, asset: string, symbol: string, seq: number, bid: number, ask: number, bidSize: number | null, askSize: number | null, tsMs: number, sourceCount: number): string {
  return `{"type":"quote","channel":"${channel}","asset":"${asset}","symbol":"${symbol}","bid":${bid},"ask":${ask},"bid_size":${bidSize},"ask_size":${askSize},"ts":${tsMs},"timestamp":${tsMs},"source_count":${sourceCount},"seq":${seq}}`;
}

/** A trade from a source that counted in its composite, and how many sources counted then. */
export function compositeTradeJson(channel: string, asset: string, symbol: string, seq: number, price: number, size: number | null, tsMs: number, sourceCount: number): string {
  return `{"type":"trade","channel":"${channel}","asset":"${asset}","symbol":"${symbol}","price":${price},"size":${size},"ts":${tsMs},"timestamp":${tsMs},"source_count":${sourceCount},"seq":${seq}}`;
}

/**
 * A line lost its last live source (`stale`) or regained one (`live`), sent on the symbol's quotes
 * channel; `snapshot` marks the one sent on subscribe to a line that is already stale.
 */
export function statusJson(channel: string, asset: string, symbol: string, isStale: boolean, sources: number, sinceMs: number, isSnapshot = false): string {
  return `{"type":"status","channel":"${channel}","asset":"${asset}","symbol":"${symbol}","status":"${isStale ? 'stale' : 'live'}","sources":${sources},"since":${sinceMs}${isSnapshot ? ',"snapshot":true' : ''}}`;
}

/** The same message as msgpack: the JSON object's fields and order. */
export function toMsgpack(json: string): Uint8Array {
  return packr.pack(JSON.parse(json));
}

export function packObject(value: unknown): Uint8Array {
  return packr.pack(value);
}
