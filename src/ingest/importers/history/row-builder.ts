// Collects parsed rows into columnar batches: the readers write each row's cells straight into the
// current batch's arrays at index `n` and then commit or drop the row. A full batch is closed and a
// fresh one started, so a batch handed out is not written again until it is given back (`recycle`).
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { TICK_KIND_QUOTE, TICK_KIND_TRADE, type RowProblem } from './types.ts';

/** Numeric slots of a bar row. */
export const BAR_SLOTS = { o: 0, h: 1, l: 2, c: 3, v: 4 } as const;
/** Numeric slots of a tick row. */
export const TICK_SLOTS = { bid: 0, ask: 1, bid_size: 2, ask_size: 3, price: 4, size: 5 } as const;
const QUOTE_MASK = (1 << TICK_SLOTS.bid) | (1 << TICK_SLOTS.ask);
const TRADE_MASK = 1 << TICK_SLOTS.price;
/** A tick row whose kind no column has said yet. */
export const KIND_UNSET = 255;

export interface RawBatch {
  length: number;
  line: Float64Array;
  tMs: Float64Array;
  nums: Float64Array[];
  symbol: string[];
  classHint: (AssetClass | null)[];
  /** Ticks only. */
  kind: Uint8Array | null;
}

export interface RowShape {
  /** Numeric slots per row (5 for bars, 6 for ticks). */
  slots: number;
  /** Per slot: an empty cell is a problem (1) or NaN (0). */
  required: Uint8Array;
  ticks: boolean;
}

/** Bars: o, h, l, c must have a value; v may be empty. */
export const BAR_SHAPE: RowShape = { slots: 5, required: Uint8Array.of(1, 1, 1, 1, 0), ticks: false };
/** Ticks: any field may be empty; the row's kind decides which ones it has. */
export const TICK_SHAPE: RowShape = { slots: 6, required: new Uint8Array(6), ticks: true };

export class RowBuilder {
  n = 0;
  line!: Float64Array;
  tMs!: Float64Array;
  nums!: Float64Array[];
  symbol!: string[];
  classHint!: (AssetClass | null)[];
  kind!: Uint8Array;
  /** Bit per numeric slot that had a non-empty cell in the row being read (ticks decide their kind by it). */
  present = 0;
  private readonly closed: RawBatch[] = [];
  private problems: RowProblem[] = [];
  /** Full batches given back, whose arrays the next batches reuse. */
  private readonly free: RawBatch[] = [];
  /** The symbol and class arrays of a file with one symbol, filled once. */
  private fixedArrays: { symbol: string[]; classHint: (AssetClass | null)[] } | null = null;

  constructor(
    readonly file: string,
    readonly shape: RowShape,
    private readonly cap: number,
    /** Symbol and class for every row, when the file has no symbol column (or one is imposed). */
    private readonly fixed: { symbol: string; classHint: AssetClass | null } | null,
  ) {
    this.open();
  }

  /** Gives a batch handed out back: its arrays may be written again. Only whole batches are kept. */
  recycle(batch: RawBatch): void {
    if (batch.length === this.cap && this.free.length < 2) this.free.push(batch);
  }

  private open(): void {
    const cap = this.cap;
    this.n = 0;
    const reused = this.free.pop();
    if (reused) {
      this.line = reused.line;
      this.tMs = reused.tMs;
      this.nums = reused.nums;
      for (const nums of this.nums) nums.fill(NaN);
      this.symbol = this.fixed === null ? reused.symbol : new Array<string>(cap);
      this.classHint = this.fixed === null ? reused.classHint : new Array<AssetClass | null>(cap);
      this.kind = reused.kind ?? new Uint8Array(cap);
      if (this.shape.ticks) this.kind.fill(KIND_UNSET);
      return;
    }
    this.line = new Float64Array(cap);
    this.tMs = new Float64Array(cap);
    // NaN until written: a field the file has no column for stays absent.
    this.nums = Array.from({ length: this.shape.slots }, () => new Float64Array(cap).fill(NaN));
    this.symbol = new Array<string>(cap);
    this.classHint = new Array<AssetClass | null>(cap);
    this.kind = new Uint8Array(cap);
    if (this.shape.ticks) this.kind.fill(KIND_UNSET);
  }

  /** Starts a row: clears what the previous (perhaps dropped) row left at index n. */
  beginTickRow(): void {
    this.present = 0;
    this.kind[this.n] = KIND_UNSET;
  }

  /** Keeps the row at index n (its cells are written); for ticks returns a problem if its kind is unclear. */
  commit(line: number): string | null {
    const n = this.n;
    if (this.shape.ticks) {
      const problem = this.settleKind(n);
      if (problem !== null) return problem;
    }
    this.line[n] = line;
    this.n = n + 1;
    if (this.n === this.cap) this.close();
    return null;
  }

  private settleKind(n: number): string | null {
    const hasQuote = (this.present & QUOTE_MASK) !== 0;
    const hasTrade = (this.present & TRADE_MASK) !== 0;
    const said = this.kind[n]!;
    if (said === KIND_UNSET) {
      if (hasQuote && !hasTrade) this.kind[n] = TICK_KIND_QUOTE;
      else if (hasTrade && !hasQuote) this.kind[n] = TICK_KIND_TRADE;
      else if (hasQuote) return 'has both bid/ask and price; a kind column (quote|trade) must say which it is';
      else return 'has neither bid/ask nor price';
    }
    // The fields of the other kind are absent, whatever the file had in them.
    const nums = this.nums;
    if (this.kind[n] === TICK_KIND_QUOTE) nums[TICK_SLOTS.price]![n] = nums[TICK_SLOTS.size]![n] = NaN;
    else nums[TICK_SLOTS.bid]![n] = nums[TICK_SLOTS.ask]![n] = nums[TICK_SLOTS.bid_size]![n] = nums[TICK_SLOTS.ask_size]![n] = NaN;
    return null;
  }

  problem(line: number, message: string): void {
    this.problems.push({ file: this.file, line, message });
  }

  /** Closes the current batch if it has rows. */
  close(): void {
    const n = this.n;
    if (n === 0) return;
    const cut = n === this.cap ? <T extends Float64Array | Uint8Array>(a: T) => a : <T extends Float64Array | Uint8Array>(a: T) => a.subarray(0, n) as T;
    let symbol = this.symbol;
    let classHint = this.classHint;
    if (this.fixed !== null) {
      if (n === this.cap) {
        // Never written: one pair of arrays serves every full batch.
        this.fixedArrays ??= { symbol: new Array<string>(n).fill(this.fixed.symbol), classHint: new Array<AssetClass | null>(n).fill(this.fixed.classHint) };
        symbol = this.fixedArrays.symbol;
        classHint = this.fixedArrays.classHint;
      } else {
        symbol = new Array<string>(n).fill(this.fixed.symbol);
        classHint = new Array<AssetClass | null>(n).fill(this.fixed.classHint);
      }
    } else if (n < this.cap) {
      symbol.length = n;
      classHint.length = n;
    }
    this.closed.push({
      length: n,
      line: cut(this.line),
      tMs: cut(this.tMs),
      nums: this.nums.map(cut),
      symbol,
      classHint,
      kind: this.shape.ticks ? cut(this.kind) : null,
    });
    this.open();
  }

  /** Batches closed and problems found since the last call. */
  take(): { batches: RawBatch[]; problems: RowProblem[] } {
    const batches = this.closed.splice(0);
    const problems = this.problems;
    this.problems = [];
    return { batches, problems };
  }
}

/** What a column (CSV) or key (NDJSON, Parquet) feeds: nothing, the time, the symbol, the tick kind, or numeric slot `code - CODE_NUM`. */
export const CODE_SKIP = 0;
export const CODE_TIME = 1;
export const CODE_SYMBOL = 2;
export const CODE_KIND = 3;
export const CODE_NUM = 4;
