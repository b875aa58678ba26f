// The CSV reader of history files: bytes in, chunk by chunk, rows out into a RowBuilder. The fast
// path reads plain decimals straight from the bytes, one pass per cell, with no string or object
// per row; a cell that is anything else takes the slow path, and a record with a quote in it is
// split by the full quoting rules. Records cut by a chunk boundary wait for the next chunk.
import { InputFileError } from '../fundamentals-file.ts';
import { numberFromText, textOf, type TimeReader } from './cell-values.ts';
import { cellEnd, COMMA, concat, CR, LF, QUOTE, splitRecord } from './csv-split.ts';
import { CODE_KIND, CODE_NUM, CODE_SKIP, CODE_SYMBOL, CODE_TIME, type RowBuilder } from './row-builder.ts';
import { kindOfText, writeValue, type MappedSymbol, type SymbolMapper, type ValueContext } from './row-values.ts';

const DOT = 0x2e;
const MINUS = 0x2d;
/** Integers below this are exact in a double: a mantissa this small divided by a power of ten rounds correctly. */
const EXACT_LIMIT = 2 ** 53;
const POW10 = Float64Array.from({ length: 23 }, (_, i) => 10 ** i);
/** A record longer than this is taken as a sign of a file that is not CSV, not buffered further. */
const MAX_RECORD_BYTES = 16 << 20;
const SYMBOL_CACHE_BYTES = 256;
/** Marks a time column whose numbers are refused (`iso`): no inline epoch reading. */
const NOT_NUMERIC = 99;

/** How the columns of a file map to a row: a code per column, names for messages, the column counts a row may have. */
export interface CsvLayout {
  codes: Uint8Array;
  names: string[];
  counts: readonly number[];
}

export interface CsvSetup {
  /** Given the first non-blank record's cells: the layout, and whether that record is already data. Throws InputFileError. */
  layoutFor(cells: string[], line: number): { layout: CsvLayout; firstIsData: boolean };
  /** Called when the file has no record at all (a preset that needs a header throws). */
  onEmpty(): void;
}

export class CsvRowParser {
  private carry: Uint8Array | null = null;
  /** Line the next record starts on. */
  private line = 1;
  private layout: CsvLayout | null = null;
  private allowedCounts = new Uint8Array(0);
  private atStart = true;
  private readonly ctx: ValueContext;
  private readonly lastSymbolBytes = new Uint8Array(SYMBOL_CACHE_BYTES);
  private lastSymbolLength = -1;
  private lastSymbol: MappedSymbol = { symbol: '', classHint: null };

  constructor(
    private readonly builder: RowBuilder,
    private readonly setup: CsvSetup,
    private readonly time: TimeReader,
    mapSymbol: SymbolMapper,
  ) {
    this.ctx = { builder, time, mapSymbol };
  }

  /** Feeds the next chunk of the decompressed file. */
  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.carry !== null) {
      // The record cut at the last chunk's end: joined with the head of this chunk up to its first
      // newline only, so the rest of the chunk is read where it lies (no copy per chunk).
      const firstLf = chunk.indexOf(LF);
      if (firstLf >= 0 && !this.atStart && this.layout !== null) {
        const head = concat(this.carry, chunk.subarray(0, firstLf + 1));
        this.carry = null;
        const stop = this.parse(head, 0, head.length, false);
        if (stop === head.length) {
          buf = chunk.subarray(firstLf + 1);
        } else {
          // A quoted cell spans the newline: fall back to joining everything.
          buf = concat(head.subarray(stop), chunk.subarray(firstLf + 1));
        }
      } else {
        buf = concat(this.carry, chunk);
        this.carry = null;
      }
    }
    if (this.atStart) {
      if (buf.length < 3) {
        this.carry = buf;
        return;
      }
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      this.atStart = false;
    }
    const lastLf = buf.lastIndexOf(LF);
    const stop = lastLf < 0 ? 0 : this.parse(buf, 0, lastLf + 1, false);
    if (stop < buf.length) {
      if (buf.length - stop > MAX_RECORD_BYTES) throw new InputFileError(`line ${this.line}: a record longer than ${MAX_RECORD_BYTES >> 20} MB; is this a CSV file?`);
      // A copy: the chunk's buffer may be reused for the next read.
      this.carry = buf.slice(stop);
    }
  }

  /** Ends the file: a last line without a newline is read too. */
  finish(): void {
    const rest = this.carry;
    this.carry = null;
    if (rest !== null && rest.length > 0) {
      this.atStart = false;
      const buf = concat(rest, Uint8Array.of(LF));
      this.parse(buf, 0, buf.length, true);
    }
    if (this.layout === null) this.setup.onEmpty();
  }

  private startLayout(buf: Uint8Array, pos: number, end: number, final: boolean): number {
    const split = splitRecord(buf, pos, end);
    if (split === null) {
      if (final) throw new InputFileError(`line ${this.line}: a quoted cell is never closed`);
      return -1;
    }
    const { layout, firstIsData } = this.setup.layoutFor(split.cells, this.line);
    this.layout = layout;
    const maxCount = Math.max(...layout.counts);
    this.allowedCounts = new Uint8Array(maxCount + 1);
    for (const count of layout.counts) this.allowedCounts[count] = 1;
    if (firstIsData) return pos;
    this.line += split.newlines;
    return split.next;
  }

  /** Reads the records in buf[pos, end), end just after a newline; returns where it stopped (a record cut at end waits). */
  private parse(buf: Uint8Array, pos: number, end: number, final: boolean): number {
    const b = this.builder;
    const ticks = b.shape.ticks;
    const required = b.shape.required;
    while (pos < end && this.layout === null) {
      if (buf[pos] === LF || (buf[pos] === CR && buf[pos + 1] === LF)) {
        pos += buf[pos] === LF ? 1 : 2;
        this.line++;
        continue;
      }
      const next = this.startLayout(buf, pos, end, final);
      if (next < 0) return pos;
      pos = next;
    }
    const layout = this.layout;
    if (layout === null) return pos;
    const codes = layout.codes;
    const nCodes = codes.length;
    const allowed = this.allowedCounts;
    const timeShift = this.time.numbersAllowed ? this.time.shift : NOT_NUMERIC;
    let line = this.line;
    while (pos < end) {
      let c = buf[pos]!;
      if (c === LF) {
        pos++;
        line++;
        continue;
      }
      if (c === CR && buf[pos + 1] === LF) {
        pos += 2;
        line++;
        continue;
      }
      const n = b.n;
      const nums = b.nums;
      if (ticks) b.beginTickRow();
      let error: string | null = null;
      let quoted = false;
      let present = 0;
      let col = 0;
      let p = pos;
      for (;;) {
        const code = col < nCodes ? codes[col]! : CODE_SKIP;
        const start = p;
        if (code >= CODE_NUM) {
          // Plain decimal, read in the same pass that finds the cell's end.
          c = buf[p]!;
          const neg = c === MINUS;
          if (neg) c = buf[++p]!;
          let m = 0;
          let digits = 0;
          while (c >= 0x30 && c <= 0x39) {
            m = m * 10 + (c - 0x30);
            digits++;
            c = buf[++p]!;
          }
          let frac = 0;
          if (c === DOT) {
            c = buf[++p]!;
            while (c >= 0x30 && c <= 0x39) {
              m = m * 10 + (c - 0x30);
              frac++;
              c = buf[++p]!;
            }
          }
          const slot = code - CODE_NUM;
          if ((c === COMMA || c === LF || c === CR) && digits + frac > 0 && m < EXACT_LIMIT && frac < 23) {
            const v = frac === 0 ? m : m / POW10[frac]!;
            nums[slot]![n] = neg ? -v : v;
            present |= 1 << slot;
          } else if ((c === COMMA || c === LF || (c === CR && buf[p + 1] === LF)) && p === start) {
            if (required[slot] === 1) error ??= `column ${layout.names[col]} is empty`;
            nums[slot]![n] = NaN;
          } else {
            p = cellEnd(buf, start);
            c = buf[p]!;
            if (c === QUOTE) {
              quoted = true;
              break;
            }
            const text = textOf(buf, start, c === LF && p > start && buf[p - 1] === CR ? p - 1 : p);
            const v = numberFromText(text);
            if (v === undefined) {
              if (text.trim() === '') {
                if (required[slot] === 1) error ??= `column ${layout.names[col]} is empty`;
                nums[slot]![n] = NaN;
              } else error ??= `column ${layout.names[col]}: ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is not a number`;
            } else {
              nums[slot]![n] = v;
              b.present |= 1 << slot;
            }
          }
        } else if (code === CODE_TIME && timeShift !== NOT_NUMERIC) {
          // Epoch integers of up to 15 digits (s, ms, µs) inline; anything else through the TimeReader.
          c = buf[p]!;
          let m = 0;
          while (c >= 0x30 && c <= 0x39) {
            m = m * 10 + (c - 0x30);
            c = buf[++p]!;
          }
          if ((c === COMMA || c === LF) && p > start && p - start <= 15) {
            const shift = timeShift ?? (m < 1e11 ? 3 : m < 1e14 ? 0 : m < 1e17 ? -3 : -6);
            b.tMs[n] = shift === 0 ? m : shift === 3 ? m * 1000 : Math.floor(m / POW10[-shift]!);
          } else {
            p = cellEnd(buf, start);
            c = buf[p]!;
            if (c === QUOTE) {
              quoted = true;
              break;
            }
            const problem = this.special(code, buf, start, c === LF && p > start && buf[p - 1] === CR ? p - 1 : p, n, layout.names[col]!);
            if (problem !== null) error ??= problem;
          }
        } else {
          p = cellEnd(buf, p);
          c = buf[p]!;
          if (c === QUOTE) {
            quoted = true;
            break;
          }
          if (code !== CODE_SKIP) {
            const stop = c === LF && p > start && buf[p - 1] === CR ? p - 1 : p;
            const problem = this.special(code, buf, start, stop, n, layout.names[col]!);
            if (problem !== null) error ??= problem;
          }
        }
        c = buf[p]!;
        col++;
        if (c === COMMA) {
          p++;
          continue;
        }
        if (c === LF) {
          p++;
          break;
        }
        if (c === CR && buf[p + 1] === LF) {
          p += 2;
          break;
        }
        // A stray byte after a number (a carriage return inside the line): read the cell again, slowly.
        col--;
        p = cellEnd(buf, start);
        c = buf[p]!;
        if (c === QUOTE) {
          quoted = true;
          break;
        }
        error ??= `column ${layout.names[col] ?? col + 1}: ${JSON.stringify(textOf(buf, start, p))} is not a number`;
        col++;
        p++;
        if (c === LF) break;
      }
      if (quoted) {
        const split = splitRecord(buf, pos, end);
        if (split === null) {
          if (!final) break;
          this.line = line;
          b.problem(line, 'a quoted cell is never closed');
          return end;
        }
        this.quotedRow(split.cells, line);
        line += split.newlines;
        pos = split.next;
        continue;
      }
      b.present |= present;
      if (col >= allowed.length || allowed[col] !== 1) error = `has ${col} columns, expected ${layout.counts.join(' or ')}`;
      if (error === null) error = b.commit(line);
      if (error !== null) b.problem(line, error);
      line++;
      pos = p;
    }
    this.line = line;
    return pos;
  }

  /** Time, symbol or kind cell; returns a problem or null. */
  private special(code: number, buf: Uint8Array, start: number, end: number, n: number, name: string): string | null {
    const b = this.builder;
    if (code === CODE_TIME) {
      if (start === end) return `column ${name} is empty`;
      const ms = this.time.fromBytes(buf, start, end);
      if (Number.isNaN(ms)) return `column ${name}: ${JSON.stringify(textOf(buf, start, Math.min(end, start + 40)))} is not a time`;
      b.tMs[n] = ms;
      return null;
    }
    if (code === CODE_SYMBOL) {
      const length = end - start;
      if (length === this.lastSymbolLength) {
        const last = this.lastSymbolBytes;
        let i = 0;
        while (i < length && buf[start + i] === last[i]) i++;
        if (i === length) {
          b.symbol[n] = this.lastSymbol.symbol;
          b.classHint[n] = this.lastSymbol.classHint;
          return null;
        }
      }
      const raw = textOf(buf, start, end).trim();
      if (raw === '') return `column ${name} is empty`;
      const mapped = this.ctx.mapSymbol(raw);
      b.symbol[n] = mapped.symbol;
      b.classHint[n] = mapped.classHint;
      if (length <= SYMBOL_CACHE_BYTES) {
        this.lastSymbolBytes.set(buf.subarray(start, end));
        this.lastSymbolLength = length;
        this.lastSymbol = mapped;
      }
      return null;
    }
    if (code === CODE_KIND) {
      const text = textOf(buf, start, end);
      const kind = kindOfText(text);
      if (kind < 0) return `column ${name}: ${JSON.stringify(text)} is neither quote nor trade`;
      b.kind[n] = kind;
    }
    return null;
  }

  /** A record split by the quoting rules: its cells go through the value writers. */
  private quotedRow(cells: string[], line: number): void {
    const layout = this.layout!;
    const b = this.builder;
    if (b.shape.ticks) b.beginTickRow();
    let error: string | null = null;
    if (cells.length >= this.allowedCounts.length || this.allowedCounts[cells.length] !== 1) error = `has ${cells.length} columns, expected ${layout.counts.join(' or ')}`;
    for (let col = 0; error === null && col < cells.length && col < layout.codes.length; col++) {
      const code = layout.codes[col]!;
      if (code !== CODE_SKIP) error = writeValue(this.ctx, code, layout.names[col]!, cells[col]);
    }
    if (error === null) error = b.commit(line);
    if (error !== null) b.problem(line, error);
  }
}
