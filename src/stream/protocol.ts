// The WebSocket protocol: channels, client frames and server frames. Pure: parsing a client frame
// returns a request or a typed error, never throws. Message field names follow the spec's Events
// section (quote) and ours where it says "not shown" (trade, ready, acks, errors, heartbeat).
import type { AssetClass } from '../domain/asset-classes.ts';

/** Classes with live channels (the spec's five, plus commodities, perpetual futures and the US overnight session). */
export const STREAM_CLASSES = ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities', 'perpetuals', 'overnight'] as const satisfies readonly AssetClass[];
export type StreamKind = 'quotes' | 'trades';
export const CHANNELS: readonly string[] = STREAM_CLASSES.flatMap((cls) => [`${cls}.quotes`, `${cls}.trades`]);

export interface Channel {
  name: string;
  assetClass: AssetClass;
  kind: StreamKind;
}

export function parseChannel(name: string): Channel | null {
  const [cls, kind, extra] = name.split('.');
  if (extra !== undefined || (kind !== 'quotes' && kind !== 'trades')) return null;
  if (!(STREAM_CLASSES as readonly string[]).includes(cls ?? '')) return null;
  return { name, assetClass: cls as AssetClass, kind };
}

export type ErrorCode = 'bad_json' | 'bad_frame' | 'unknown_action' | 'unknown_channel' | 'unknown_symbol' | 'invalid_symbol' | 'forbidden' | 'too_many_subscriptions' | 'rate_limited';

export interface SubscribeRequest {
  action: 'subscribe' | 'unsubscribe';
  channels: string[];
  symbols: string[];
  /** Replay from the ticks ring: ticks with a sequence number above this (per symbol, or one for all). */
  since: number | Record<string, number> | null;
  /** Echoed in the acknowledgement, so clients can match answers to requests. */
  id: string | number | null;
}

export type ParseResult = { ok: true; request: SubscribeRequest } | { ok: false; code: ErrorCode; message: string; id: string | number | null };

const MAX_LIST = 1000;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= MAX_LIST && value.every((v) => typeof v === 'string' && v.length <= 64);
}

/** Parses one client text frame. */
export function parseClientFrame(text: string): ParseResult {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { ok: false, code: 'bad_json', message: 'frame is not valid JSON', id: null };
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    return { ok: false, code: 'bad_frame', message: 'frame must be a JSON object with an "action"', id: null };
  }
  const f = frame as Record<string, unknown>;
  const id = typeof f.id === 'string' || typeof f.id === 'number' ? f.id : null;
  if (f.action !== 'subscribe' && f.action !== 'unsubscribe') {
    return { ok: false, code: 'unknown_action', message: `unknown action ${JSON.stringify(String(f.action ?? '')).slice(0, 40)}: allowed actions are subscribe, unsubscribe`, id };
  }
  if (!isStringList(f.channels) || f.channels.length === 0) {
    return { ok: false, code: 'bad_frame', message: `"channels" must be a non-empty array of channel names such as "crypto.quotes" (at most ${MAX_LIST})`, id };
  }
  if (!isStringList(f.symbols) || f.symbols.length === 0) {
    return { ok: false, code: 'bad_frame', message: `"symbols" must be a non-empty array of symbols, or ["*"] for every symbol (at most ${MAX_LIST})`, id };
  }
  let since: SubscribeRequest['since'] = null;
  if (f.since !== undefined && f.since !== null) {
    const ok =
      (typeof f.since === 'number' && Number.isInteger(f.since) && f.since >= 0) ||
      (typeof f.since === 'object' && !Array.isArray(f.since) && Object.values(f.since as object).every((v) => Number.isInteger(v) && (v as number) >= 0));
    if (!ok) return { ok: false, code: 'bad_frame', message: '"since" must be a sequence number, or an object of symbol → sequence number', id };
    since = f.since as SubscribeRequest['since'];
  }
  return { ok: true, request: { action: f.action, channels: f.channels, symbols: f.symbols, since, id } };
}

export function errorFrame(code: ErrorCode, message: string, id: string | number | null = null): Record<string, unknown> {
  return id === null ? { type: 'error', code, message } : { type: 'error', code, message, id };
}
