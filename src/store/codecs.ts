// Binary layouts of what the store keeps: bars and ticks are packed little-endian float64
// records so a range read is a copy of bytes, never per-record object decoding.
import type { Bar } from '../domain/bar.ts';

/** t, o, h, l, c, v — v is NaN when the bar has no volume. */
export const BAR_FIELDS = 6;
export const BAR_BYTES = BAR_FIELDS * 8;

/** ts, bid, ask, bid_size, ask_size, seq — NaN stands for null. */
export const QUOTE_FIELDS = 6;
/** ts, price, size, seq — NaN stands for null. */
export const TRADE_FIELDS = 4;

export function writeBar(target: Float64Array, index: number, bar: Bar): void {
  const at = index * BAR_FIELDS;
  target[at] = bar.t;
  target[at + 1] = bar.o;
  target[at + 2] = bar.h;
  target[at + 3] = bar.l;
  target[at + 4] = bar.c;
  target[at + 5] = bar.v ?? NaN;
}

export function readBar(source: Float64Array, index: number): Bar {
  const at = index * BAR_FIELDS;
  const v = source[at + 5]!;
  return { t: source[at]!, o: source[at + 1]!, h: source[at + 2]!, l: source[at + 3]!, c: source[at + 4]!, v: Number.isNaN(v) ? null : v };
}

export function encodeBars(bars: readonly Bar[]): Buffer {
  const buf = Buffer.alloc(bars.length * BAR_BYTES);
  const view = f64View(buf);
  bars.forEach((bar, i) => writeBar(view, i, bar));
  return buf;
}

/** A Float64Array over a buffer's bytes; copies only when the buffer is not 8-byte aligned. */
export function f64View(buf: Uint8Array): Float64Array {
  if (buf.byteOffset % 8 === 0) return new Float64Array(buf.buffer, buf.byteOffset, buf.byteLength >> 3);
  return new Float64Array(new Uint8Array(buf).buffer);
}

export function nullable(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
