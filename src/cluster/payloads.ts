// The msgpack payloads of the replicated stream, written by the ingest node and read by edges: a
// batch of one class's ticks, a sweep time, a sealed bar, a symbol's registry entry. Each carries
// `v` (the payload version): an edge refuses what it cannot read rather than guess.
import { Packr } from 'msgpackr';
import type { AssetClass } from '../domain/asset-classes.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';

export const PAYLOAD_VERSION = 2;
// Plain msgpack (no record extension): every reader decodes every message on its own.
const packr = new Packr({ useRecords: false });

/** Record kinds in a tick batch. */
export const QUOTE = 0;
export const TRADE = 1;
/** A line's freshness changed on the ingest node (it lost its last live source, or regained one). */
export const STATUS = 2;

/**
 * One class's ticks in the order the ingest node stored them, as one flat array: a quote is
 * `0, symbol, seq, tsMs, bid, ask, bidSize, askSize, sourceCount` and a trade
 * `1, symbol, seq, tsMs, price, size, sourceCount` (null sizes and counts as nil). A change of a
 * line's freshness is `2, symbol, isStale (1 or 0), liveSources, sinceMs`, in its place among the
 * ticks, so an edge's `stale` marker and status frames follow the ingest node's exactly.
 */
export interface TickBatchPayload {
  v: number;
  class: AssetClass;
  ticks: (string | number | null)[];
}

export class TickBatch {
  readonly ticks: (string | number | null)[] = [];
  count = 0;
  constructor(readonly assetClass: AssetClass) {}

  quote(symbol: string, seq: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null, sourceCount: number | null): void {
    this.ticks.push(QUOTE, symbol, seq, tsMs, bid, ask, bidSize, askSize, sourceCount);
    this.count++;
  }

  trade(symbol: string, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number | null): void {
    this.ticks.push(TRADE, symbol, seq, tsMs, price, size, sourceCount);
    this.count++;
  }

  /** Not a tick: `count` stays, so tick figures count ticks only. */
  status(symbol: string, isStale: boolean, liveSources: number, sinceMs: number): void {
    this.ticks.push(STATUS, symbol, isStale ? 1 : 0, liveSources, sinceMs);
  }

  get isEmpty(): boolean {
    return this.ticks.length === 0;
  }

  encode(): Uint8Array {
    return packr.pack({ v: PAYLOAD_VERSION, class: this.assetClass, ticks: this.ticks } satisfies TickBatchPayload);
  }
}

/** A sweep: the ingest node's service time `t` and its wall clock `w` then (the edge's clock follows t − w). */
export interface SweepPayload {
  v: number;
  t: number;
  w: number;
}

/** A sealed 1-minute bar: `bar` is t, o, h, l, c, v (v nil on classes without volume). */
export interface BarPayload {
  v: number;
  class: AssetClass;
  symbol: string;
  bar: [number, number, number, number, number, number | null];
}

export interface SymbolPayload {
  v: number;
  entry: Omit<SymbolEntry, 'id'>;
}

export function encodeSweep(nowMs: number, wallMs: number): Uint8Array {
  return packr.pack({ v: PAYLOAD_VERSION, t: nowMs, w: wallMs } satisfies SweepPayload);
}

export function encodeBar(entry: SymbolEntry, bar: Readonly<Bar>): Uint8Array {
  return packr.pack({ v: PAYLOAD_VERSION, class: entry.assetClass, symbol: entry.symbol, bar: [bar.t, bar.o, bar.h, bar.l, bar.c, bar.v] } satisfies BarPayload);
}

export function encodeSymbol(entry: SymbolEntry): Uint8Array {
  const { id: _id, ...rest } = entry;
  return packr.pack({ v: PAYLOAD_VERSION, entry: rest } satisfies SymbolPayload);
}

/** Decodes a payload of any kind; throws when it is not msgpack or of a version this build does not read. */
export function decodePayload<T extends { v: number }>(data: Uint8Array): T {
  const value = packr.unpack(data) as T;
  if (typeof value !== 'object' || value === null || value.v !== PAYLOAD_VERSION) throw new Error(`payload version ${JSON.stringify((value as { v?: unknown } | null)?.v)} is not ${PAYLOAD_VERSION} (an ingest node of another mds version?)`);
  return value;
}

/** `mds.history.bars`: one timeframe's completed bars of a symbol, as the ingest node stores them (packed t, o, h, l, c, v; NaN volume for none). */
export interface HistoryBarsPayload {
  v: number;
  entry: Omit<SymbolEntry, 'id'>;
  tf: string;
  bars: Uint8Array;
}

/** `mds.history.bonds`: bond observations as `[symbol, date, yield percent, source]`. */
export interface HistoryBondsPayload {
  v: number;
  observations: [string, string, number, string][];
}

/** `mds.history.calendar`: economic-calendar events as stored. */
export interface HistoryCalendarPayload {
  v: number;
  events: unknown[];
}

/** `mds.history.actions`: every split and dividend of the symbols named, as stored (domain shapes). */
export interface HistoryActionsPayload {
  v: number;
  splits: unknown[];
  dividends: unknown[];
}

/** `mds.history.fundamentals`: fundamentals records with their served JSON. */
export interface HistoryFundamentalsPayload {
  v: number;
  items: { record: unknown; json: string }[];
}

export function encodeHistory<T extends { v: number }>(payload: Omit<T, 'v'>): Uint8Array {
  return packr.pack({ v: PAYLOAD_VERSION, ...payload });
}
