// Turning one cell into a number or an epoch-millisecond time, for the slow paths (quoted or odd
// cells, NDJSON values, Parquet values): exact digit handling for epoch numbers of any unit, the
// spellings of infinity and NaN, ISO-8601 text read in a zone. The CSV fast path inlines the
// plain-decimal case and lands here for everything else.
import { DateTime, IANAZone } from 'luxon';
import { DAY_MS } from '../../../domain/timeframes.ts';
import type { TimeUnit } from './types.ts';

/** A decimal as JSON or a spreadsheet writes it; other text Number() would take (hex, blanks) is refused. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL: ReadonlyMap<string, number> = new Map([
  ['nan', NaN],
  ['+nan', NaN],
  ['-nan', NaN],
  ['inf', Infinity],
  ['+inf', Infinity],
  ['infinity', Infinity],
  ['+infinity', Infinity],
  ['-inf', -Infinity],
  ['-infinity', -Infinity],
]);

/**
 * A numeric cell's value; `undefined` when the text is not a number at all. NaN and infinities
 * come through as values so that the importer's validation, not the reader, rejects them.
 */
export function numberFromText(text: string): number | undefined {
  const trimmed = text.trim();
  if (DECIMAL.test(trimmed)) return Number(trimmed);
  return SPECIAL.get(trimmed.toLowerCase());
}

/** Text of a short ASCII-or-UTF-8 byte range (cells are short; decoding them one by one is the slow path). */
export function textOf(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b >= 0x80) return new TextDecoder().decode(buf.subarray(start, end));
    s += String.fromCharCode(b);
  }
  return s;
}

/** How far to move the decimal point to get milliseconds, per unit. */
const SHIFT_TO_MS: Record<Exclude<TimeUnit, 'iso'>, number> = { s: 3, ms: 0, us: -3, ns: -6 };
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Epoch unit by magnitude, as the shift to ms: < 1e11 s, < 1e14 ms, < 1e17 µs, else ns. */
export function shiftOfIntegerDigits(significantDigits: number): number {
  return significantDigits <= 11 ? 3 : significantDigits <= 14 ? 0 : significantDigits <= 17 ? -3 : -6;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const OFFSET_CACHE_LIMIT = 4096;

/**
 * Reads times as epoch milliseconds, floored. Numbers are epoch values in the configured unit (or
 * by magnitude); text is ISO-8601, and a date or a time without an offset is read in `zone`.
 */
export class TimeReader {
  /** Shift to ms of numeric times, or null when the unit goes by magnitude. */
  readonly shift: number | null;
  readonly numbersAllowed: boolean;
  private readonly isUtc: boolean;
  /** Per local day: the zone's offset (minutes) at its start and end; equal means no change that day. */
  private readonly dayOffsets = new Map<number, [number, number]>();
  private readonly scratch = new Uint8Array(64);

  constructor(
    unit: TimeUnit | undefined,
    private readonly zone: string,
  ) {
    this.shift = unit === undefined || unit === 'iso' ? null : SHIFT_TO_MS[unit];
    this.numbersAllowed = unit !== 'iso';
    this.isUtc = zone === 'UTC';
  }

  /** Whether luxon knows the zone (IANA name or UTC). */
  static isValidZone(zone: string): boolean {
    return zone === 'UTC' || IANAZone.isValidZone(zone);
  }

  /** A cell's bytes → ms; NaN when it is no time. */
  fromBytes(buf: Uint8Array, start: number, end: number): number {
    let p = start;
    let neg = false;
    if (buf[p] === 0x2d || buf[p] === 0x2b) {
      neg = buf[p] === 0x2d;
      p++;
    }
    const intStart = p;
    while (p < end && buf[p]! >= 0x30 && buf[p]! <= 0x39) p++;
    const intEnd = p;
    let fracStart = p;
    if (p < end && buf[p] === 0x2e) {
      fracStart = ++p;
      while (p < end && buf[p]! >= 0x30 && buf[p]! <= 0x39) p++;
    }
    const fracEnd = p;
    if (p !== end || intEnd - intStart + (fracEnd - fracStart) === 0) return this.fromNonNumericText(textOf(buf, start, end));
    if (!this.numbersAllowed) return this.fromNonNumericText(textOf(buf, start, end)); // compact ISO dates
    let lead = intStart;
    while (lead < intEnd && buf[lead] === 0x30) lead++;
    const shift = this.shift ?? shiftOfIntegerDigits(intEnd - lead);
    const nFrac = fracEnd - fracStart;
    const k = shift - nFrac;
    const total = intEnd - intStart + nFrac;
    const keep = k < 0 ? total + k : total;
    let acc = 0;
    let droppedNonZero = false;
    for (let j = 0; j < total; j++) {
      const d = buf[j < intEnd - intStart ? intStart + j : fracStart + j - (intEnd - intStart)]! - 0x30;
      if (j < keep) acc = acc * 10 + d;
      else if (d !== 0) droppedNonZero = true;
    }
    if (k > 0) acc *= POW10[k]!;
    return neg ? -acc - (droppedNonZero ? 1 : 0) : acc;
  }

  /** Text (NDJSON strings, quoted cells) → ms; NaN when it is no time. */
  fromText(text: string): number {
    const trimmed = text.trim();
    if (trimmed.length === 0 || trimmed.length > this.scratch.length) return this.fromNonNumericText(trimmed);
    for (let i = 0; i < trimmed.length; i++) {
      const code = trimmed.charCodeAt(i);
      if (code > 0x7f) return this.fromNonNumericText(trimmed);
      this.scratch[i] = code;
    }
    return this.fromBytes(this.scratch, 0, trimmed.length);
  }

  /** A JSON or Parquet number → ms. */
  fromNumber(value: number): number {
    if (!Number.isFinite(value) || !this.numbersAllowed) return NaN;
    if (!Number.isInteger(value)) return this.fromText(String(value)); // exact decimal digits
    const magnitude = Math.abs(value);
    const shift = this.shift ?? shiftOfIntegerDigits(magnitude < 1 ? 0 : Math.floor(Math.log10(magnitude)) + 1);
    return shift >= 0 ? value * POW10[shift]! : Math.floor(value / POW10[-shift]!);
  }

  /** A Parquet INT64 → ms, exactly. */
  fromBigInt(value: bigint): number {
    return this.fromText(value.toString());
  }

  private fromNonNumericText(text: string): number {
    const trimmed = text.trim();
    const m = ISO.exec(trimmed);
    if (m === null) return this.fromLuxon(trimmed);
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    const hour = m[4] === undefined ? 0 : Number(m[4]);
    const minute = m[5] === undefined ? 0 : Number(m[5]);
    const second = m[6] === undefined ? 0 : Number(m[6]);
    const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
    if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]! || hour > 23 || minute > 59 || second > 59) return NaN;
    if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return NaN;
    const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
    const zone = m[8];
    if (zone === undefined) return this.localToEpoch(utc, year, month, day, hour, minute, second, ms);
    if (zone === 'Z' || zone === 'z') return utc;
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMin = Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2, 4)) : 0);
    return utc - sign * offsetMin * 60_000;
  }

  /** Wall-clock fields in the reader's zone → epoch ms; a whole day of one offset costs one look-up. */
  private localToEpoch(utcGuess: number, year: number, month: number, day: number, hour: number, minute: number, second: number, millisecond: number): number {
    if (this.isUtc) return utcGuess;
    const dayKey = Math.floor(utcGuess / DAY_MS);
    let offsets = this.dayOffsets.get(dayKey);
    if (offsets === undefined) {
      if (this.dayOffsets.size >= OFFSET_CACHE_LIMIT) this.dayOffsets.clear();
      const at = (h: number, mi: number) => DateTime.fromObject({ year, month, day, hour: h, minute: mi }, { zone: this.zone }).offset;
      offsets = [at(0, 0), at(23, 59)];
      this.dayOffsets.set(dayKey, offsets);
    }
    if (offsets[0] === offsets[1]) return utcGuess - offsets[0] * 60_000;
    // A day with a change of offset: luxon resolves the wall-clock time (gaps move forward).
    return DateTime.fromObject({ year, month, day, hour, minute, second, millisecond }, { zone: this.zone }).toMillis();
  }

  /** Other ISO-8601 forms (compact, week and ordinal dates). */
  private fromLuxon(text: string): number {
    if (text.length === 0 || text.length > 64) return NaN;
    const dt = DateTime.fromISO(text, { zone: this.zone });
    return dt.isValid ? Math.floor(dt.toMillis()) : NaN;
  }
}
