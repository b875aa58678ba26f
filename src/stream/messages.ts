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

/** The same message as msgpack: the JSON object's fields and order. */
export function toMsgpack(json: string): Uint8Array {
  return packr.pack(JSON.parse(json));
}

export function packObject(value: unknown): Uint8Array {
  return packr.pack(value);
}
