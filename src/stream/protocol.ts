// The WebSocket protocol: channels, client frames and server frames. Pure: parsing a client frame
// returns a request or a typed error, never throws. Message field names follow the spec's Events
// section (quote) and ours where it says "not shown"; their schemas are in domain/stream-frames.ts.
import type { AssetClass } from '../domain/asset-classes.ts';
import { STREAM_CHANNELS, STREAM_CLASSES, STREAM_MAX_LIST, STREAM_MAX_NAME, type StreamErrorCode } from '../domain/stream-frames.ts';

/** Bar kinds exist only for compatibility dialects: the native stream has no bar channel. */
export type DialectKind = 'bars' | 'dailyBars';
export type StreamKind = 'quotes' | 'trades' | DialectKind;
export const CHANNELS: readonly string[] = STREAM_CHANNELS;

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

/** A channel a dialect's session may ask for besides the native ones: `<class>.bars`, `<class>.dailyBars`. */
export function parseDialectChannel(name: string): Channel | null {
  const [cls, kind, extra] = name.split('.');
  if (extra !== undefined || (kind !== 'bars' && kind !== 'dailyBars')) return null;
  if (!(STREAM_CLASSES as readonly string[]).includes(cls ?? '')) return null;
  return { name, assetClass: cls as AssetClass, kind };
}

export type ErrorCode = StreamErrorCode;

export interface SubscribeRequest {
  action: 'subscribe' | 'unsubscribe';
  channels: string[];
  symbols: string[];
  /** Replay from the ticks ring: ticks with a sequence number above this. */
  since: Since | null;
  /** Send each named pair's latest tick first (marked `snapshot: true`), so a client starts with a value. */
  snapshot: boolean;
  /** Echoed in the acknowledgement, so clients can match answers to requests. */
  id: string | number | null;
}

/**
 * The client's last seqs: one for every pair of the frame; per symbol (the older form: the same
 * number for the symbol's quotes and trades, whose seqs are separate counters); or per channel
 * and symbol (`{"crypto.quotes":{"BTCUSD":1064},"crypto.trades":{"BTCUSD":278}}`), which resumes
 * quotes and trades exactly in one frame.
 */
export type Since = { kind: 'all'; seq: number } | { kind: 'symbol'; seqs: Record<string, number> } | { kind: 'channel'; seqs: Record<string, Record<string, number>> };

const isSeq = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const SINCE_HELP = '"since" must be a sequence number, an object of symbol → sequence number, or an object of channel → {symbol → sequence number}';

/** Parses `since`, or says what is wrong with it. */
function parseSince(raw: unknown): Since | string {
  if (isSeq(raw)) return { kind: 'all', seq: raw };
  if (!isPlainObject(raw)) return SINCE_HELP;
  const values = Object.values(raw);
  if (values.length > MAX_LIST) return `${SINCE_HELP} (at most ${MAX_LIST} entries)`;
  if (values.every(isSeq)) return { kind: 'symbol', seqs: raw as Record<string, number> };
  for (const [channel, table] of Object.entries(raw)) {
    if (!parseChannel(channel)) return `${SINCE_HELP}: ${JSON.stringify(channel.slice(0, 40))} is not a channel`;
    if (!isPlainObject(table) || Object.keys(table).length > MAX_LIST || !Object.values(table).every(isSeq)) return `${SINCE_HELP}: the value for ${channel} must be an object of symbol → sequence number`;
  }
  return { kind: 'channel', seqs: raw as Record<string, Record<string, number>> };
}

export type ParseResult = { ok: true; request: SubscribeRequest } | { ok: false; code: ErrorCode; message: string; id: string | number | null };

const MAX_LIST = STREAM_MAX_LIST;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= MAX_LIST && value.every((v) => typeof v === 'string' && v.length <= STREAM_MAX_NAME);
}

/**
 * The longest text frame worth parsing for a connection that may hold `maxPairs` channel × symbol
 * pairs: 1 KiB for the action, channels and id, plus 128 characters a pair (a symbol up to 32
 * characters in `symbols` and again in a per-channel `since` with its sequence number). Parsing is
 * then bounded by what the frame could change, not by the 64 KiB the runtime lets through.
 */
export function frameSizeLimit(maxPairs: number): number {
  return 1024 + 128 * maxPairs;
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
  let since: Since | null = null;
  if (f.since !== undefined && f.since !== null) {
    const parsed = parseSince(f.since);
    if (typeof parsed === 'string') return { ok: false, code: 'bad_frame', message: parsed, id };
    since = parsed;
  }
  if (f.snapshot !== undefined && typeof f.snapshot !== 'boolean') return { ok: false, code: 'bad_frame', message: '"snapshot" must be true or false', id };
  // Named twice is named once: a repeated channel or symbol must not multiply the frame's work.
  return { ok: true, request: { action: f.action, channels: [...new Set(f.channels)], symbols: [...new Set(f.symbols)], since, snapshot: f.snapshot === true, id } };
}

export function errorFrame(code: ErrorCode, message: string, id: string | number | null = null): Record<string, unknown> {
  return id === null ? { type: 'error', code, message } : { type: 'error', code, message, id };
}
