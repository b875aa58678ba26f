// Writes one cell given as a value (a quoted CSV cell's text, an NDJSON value, a Parquet value)
// into the row being built: the slow, general counterpart of the CSV fast path, with the same
// rules and the same messages.
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { numberFromText, type TimeReader } from './cell-values.ts';
import { CODE_KIND, CODE_NUM, CODE_SYMBOL, CODE_TIME, KIND_UNSET, type RowBuilder } from './row-builder.ts';
import { TICK_KIND_QUOTE, TICK_KIND_TRADE } from './types.ts';

export interface MappedSymbol {
  symbol: string;
  classHint: AssetClass | null;
}

/** Maps a file's symbol text (e.g. `X:BTCUSD`) to the symbol and class hint the rows carry; cached by the readers. */
export type SymbolMapper = (raw: string) => MappedSymbol;

/** Context the value writers need. */
export interface ValueContext {
  builder: RowBuilder;
  time: TimeReader;
  mapSymbol: SymbolMapper;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** Kind text → 0/1, KIND_UNSET for empty, -1 when it is neither. */
export function kindOfText(text: string): number {
  const t = text.trim().toLowerCase();
  if (t === '') return KIND_UNSET;
  if (t === 'quote' || t === 'q') return TICK_KIND_QUOTE;
  if (t === 'trade' || t === 't') return TICK_KIND_TRADE;
  return -1;
}

function timeOf(ctx: ValueContext, value: unknown): number {
  if (typeof value === 'number') return ctx.time.fromNumber(value);
  if (typeof value === 'string') return ctx.time.fromText(value);
  if (typeof value === 'bigint') return ctx.time.fromBigInt(value);
  if (value instanceof Date) return Math.floor(value.getTime());
  return NaN;
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return numberFromText(value);
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

/** Writes a value for `code` into row n; returns a problem message or null. */
export function writeValue(ctx: ValueContext, code: number, name: string, value: unknown): string | null {
  const b = ctx.builder;
  const n = b.n;
  if (code >= CODE_NUM) {
    const slot = code - CODE_NUM;
    if (isEmpty(value)) {
      if (b.shape.required[slot] === 1) return `column ${name} is empty`;
      b.nums[slot]![n] = NaN;
      return null;
    }
    const v = numberOf(value);
    if (v === undefined) return `column ${name}: ${quote(String(value))} is not a number`;
    b.nums[slot]![n] = v;
    b.present |= 1 << slot;
    return null;
  }
  if (code === CODE_TIME) {
    if (isEmpty(value)) return `column ${name} is empty`;
    const ms = timeOf(ctx, value);
    if (Number.isNaN(ms)) return `column ${name}: ${quote(value instanceof Date ? 'invalid date' : String(value))} is not a time`;
    b.tMs[n] = ms;
    return null;
  }
  if (code === CODE_SYMBOL) {
    const raw = typeof value === 'string' ? value.trim() : isEmpty(value) ? '' : String(value);
    if (raw === '') return `column ${name} is empty`;
    const mapped = ctx.mapSymbol(raw);
    b.symbol[n] = mapped.symbol;
    b.classHint[n] = mapped.classHint;
    return null;
  }
  if (code === CODE_KIND) {
    const kind = isEmpty(value) ? KIND_UNSET : kindOfText(String(value));
    if (kind < 0) return `column ${name}: ${quote(String(value))} is neither quote nor trade`;
    b.kind[n] = kind;
    return null;
  }
  return null;
}
