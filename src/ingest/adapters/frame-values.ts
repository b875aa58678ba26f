// Small readers shared by the venue parsers: the frame's JSON, decimal strings, typed failures.
// Each is cheap enough for the per-frame path (one JSON.parse, no regexes, no copies).
import type { VenueEvent, VenueParseError } from './venue-protocol.ts';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const parseFailure = (message: string): VenueParseError => ({ type: 'parse-error', message });

/** The frame's JSON value, or undefined when the text is not JSON. */
export function readJson(frame: string): unknown {
  try {
    return JSON.parse(frame);
  } catch {
    return undefined;
  }
}

/** A price or size the venue sends as a decimal string; NaN for anything else (`+null` would be 0). */
export function decimal(v: unknown): number {
  return typeof v === 'string' && v !== '' ? +v : NaN;
}

/** A price or size sent as a JSON number; NaN when absent or not finite. */
export function finite(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}

/**
 * A frame that is a JSON array of messages (Massive, Alpaca): each message to an event by `eventOf`
 * (null: a message mds does not use); one malformed message makes the whole frame a parse error.
 */
export function parseEventArray(frame: string, eventOf: (message: unknown) => VenueEvent | VenueParseError | null): VenueEvent[] | VenueParseError {
  const data = readJson(frame);
  if (data === undefined) return parseFailure('frame is not JSON');
  if (!Array.isArray(data)) return parseFailure('frame is not a JSON array of messages');
  const out: VenueEvent[] = [];
  for (let i = 0; i < data.length; i++) {
    const ev = eventOf(data[i]);
    if (ev === null) continue;
    if (ev.type === 'parse-error') return ev;
    out.push(ev);
  }
  return out;
}
