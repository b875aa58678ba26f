// The byte-level pieces of CSV reading that the fast path leans on: where a cell ends, and the
// full quoting rules for a record that has a quote in it (the slow path).
import { textOf } from './cell-values.ts';

export const LF = 0x0a;
export const CR = 0x0d;
export const COMMA = 0x2c;
export const QUOTE = 0x22;

export interface SplitRecord {
  cells: string[];
  next: number;
  newlines: number;
}

/**
 * Splits the record at `start` by the quoting rules (a `"` opening a cell quotes it, `""` inside is a
 * quote, a quote elsewhere is a character); null when the record does not end before `limit`.
 */
export function splitRecord(buf: Uint8Array, start: number, limit: number): SplitRecord | null {
  const cells: string[] = [];
  let p = start;
  let newlines = 0;
  for (;;) {
    let text = '';
    if (buf[p] === QUOTE) {
      let from = ++p;
      for (;;) {
        if (p >= limit) return null;
        const b = buf[p]!;
        if (b === QUOTE) {
          text += textOf(buf, from, p);
          if (buf[p + 1] === QUOTE) {
            text += '"';
            p += 2;
            from = p;
            continue;
          }
          p++;
          break;
        }
        if (b === LF) newlines++;
        p++;
      }
      from = p;
      while (p < limit && buf[p] !== COMMA && buf[p] !== LF) p++;
      if (p >= limit) return null;
      text += textOf(buf, from, buf[p] === LF && p > from && buf[p - 1] === CR ? p - 1 : p);
    } else {
      const from = p;
      while (p < limit && buf[p] !== COMMA && buf[p] !== LF) p++;
      if (p >= limit) return null;
      text = textOf(buf, from, buf[p] === LF && p > from && buf[p - 1] === CR ? p - 1 : p);
    }
    cells.push(text);
    if (buf[p] === COMMA) {
      p++;
      continue;
    }
    return { cells, next: p + 1, newlines: newlines + 1 };
  }
}

/** Index of the comma, newline or quote that ends the cell at p (every byte above the comma is part of a cell). */
export function cellEnd(buf: Uint8Array, p: number): number {
  for (;;) {
    let c: number;
    while ((c = buf[p]!) > COMMA) p++;
    if (c === COMMA || c === LF || c === QUOTE) return p;
    p++;
  }
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
