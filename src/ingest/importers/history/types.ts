// The public shapes of the history file readers: columnar batches of parsed rows, the problems of
// rows that could not be parsed, what is known of a file before it is read, and the read options.
import type { AssetClass } from '../../../domain/asset-classes.ts';
import type { Timeframe } from '../../../domain/timeframes.ts';

export type InputFormat = 'csv' | 'ndjson' | 'parquet';
/** How numeric times are read: a fixed unit, `iso` (text only), or by magnitude when not given. */
export type TimeUnit = 's' | 'ms' | 'us' | 'ns' | 'iso';

export const BAR_PRESETS = ['binance-klines', 'polygon', 'massive', 'generic'] as const;
export const TICK_PRESETS = ['binance-trades', 'binance-aggtrades', 'polygon', 'massive', 'generic'] as const;
export type BarPreset = (typeof BAR_PRESETS)[number];
export type TickPreset = (typeof TICK_PRESETS)[number];

/** Targets a bar file's columns map to (`--columns t=timestamp,o=open,...`). */
export const BAR_FIELDS = ['t', 'o', 'h', 'l', 'c', 'v', 'symbol'] as const;
/** Targets a tick file's columns map to. */
export const TICK_FIELDS = ['t', 'symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'price', 'size', 'kind'] as const;
export type BarField = (typeof BAR_FIELDS)[number];
export type TickField = (typeof TICK_FIELDS)[number];

interface ReadOptions<Field extends string> {
  /** Preset name; when absent it is guessed from the file name, else `generic`. */
  preset?: string;
  /** Overrides the format the file name implies. */
  format?: InputFormat;
  /** Target → column name in the file (header name, NDJSON key or Parquet column), case-insensitive. */
  columns?: Partial<Record<Field, string>>;
  /** Every row gets this symbol (a symbol column, if any, is then ignored). */
  symbol?: string;
  /** Every row gets this class hint, over what the preset would say. */
  assetClass?: AssetClass;
  /** Unit of numeric times; by magnitude when absent (< 1e11 s, < 1e14 ms, < 1e17 µs, else ns). */
  timeUnit?: TimeUnit;
  /** IANA zone that dates and zone-less times are read in (default UTC). */
  tz?: string;
  /** Rows per batch (default 8192). */
  batchRows?: number;
  /**
   * Reuse a batch's arrays once the next batch is asked for: a consumer that copies what it needs
   * before asking again (the import does) saves the garbage of a fresh batch per 8192 rows.
   */
  reuseBatches?: boolean;
}

export interface BarReadOptions extends ReadOptions<BarField> {
  /** Overrides the timeframe the preset reads from the file name or path. */
  timeframe?: Timeframe;
}

export type TickReadOptions = ReadOptions<TickField>;

export interface BarBatch {
  file: string;
  /** Rows in this batch; every array below has this length. */
  length: number;
  /** 1-based line of each row in its file (Parquet: 1-based row number). */
  line: Float64Array;
  /** As the preset maps it (`X:BTCUSD` → `BTCUSD`), per row. */
  symbol: string[];
  /** From the preset or `assetClass`; null when unknown. */
  classHint: (AssetClass | null)[];
  /** Epoch milliseconds, sub-millisecond parts floored away. */
  tMs: Float64Array;
  o: Float64Array;
  h: Float64Array;
  l: Float64Array;
  c: Float64Array;
  /** NaN when absent or empty. */
  v: Float64Array;
  /** Bytes of the file as stored (compressed) consumed so far, for progress. */
  bytesRead: number;
}

export const TICK_KIND_QUOTE = 0;
export const TICK_KIND_TRADE = 1;

export interface TickBatch {
  file: string;
  length: number;
  line: Float64Array;
  symbol: string[];
  classHint: (AssetClass | null)[];
  /** Per row: 0 quote (TICK_KIND_QUOTE), 1 trade (TICK_KIND_TRADE). */
  kind: Uint8Array;
  tMs: Float64Array;
  /** The fields a row does not have are NaN (a trade has no bid, a quote no price). */
  bid: Float64Array;
  ask: Float64Array;
  bidSize: Float64Array;
  askSize: Float64Array;
  price: Float64Array;
  size: Float64Array;
  bytesRead: number;
}

/** A row that could not be parsed at all (wrong column count, a cell that is not a number or time). */
export interface RowProblem {
  file: string;
  line: number;
  message: string;
}

export interface BarFileInfo {
  path: string;
  format: InputFormat;
  preset: string;
  timeframe: Timeframe | null;
  sizeBytes: number;
}

export interface TickFileInfo {
  path: string;
  format: InputFormat;
  preset: string;
  sizeBytes: number;
}

export interface BarFile {
  info: BarFileInfo;
  batches: AsyncIterable<{ batch: BarBatch; problems: RowProblem[] }>;
}

export interface TickFile {
  info: TickFileInfo;
  batches: AsyncIterable<{ batch: TickBatch; problems: RowProblem[] }>;
}
