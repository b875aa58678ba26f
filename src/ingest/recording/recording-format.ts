// The recording file format (docs/feeds.md, "Record and replay"): what one block looks like on disk and
// how records are packed inside it. A file is a valid zstd stream: each block is a skippable frame
// holding a small header, then one zstd frame holding the block's content.
import type { FeedInstrument } from '../../domain/feed.ts';

export const RECORDING_VERSION = 1;
export const RECORDING_EXTENSION = '.rec.zst';
/** zstd's skippable frame magic (any of 0x184D2A50..5F): decoders skip it, so `zstdcat` still reads the file. */
export const SKIPPABLE_MAGIC = 0x184d2a5e;
const MDSR = 0x5253444d; // 'MDSR' read as a little-endian u32
/** Bytes of the block header payload, and of the whole skippable frame around it. */
export const HEADER_PAYLOAD_BYTES = 40;
export const HEADER_BYTES = 8 + HEADER_PAYLOAD_BYTES;

/** A declarations block (feeds and sources, msgpack) or a records block (packed records). */
export type BlockType = 'declare' | 'records';
const TYPE_BYTE: Record<BlockType, number> = { declare: 0x44, records: 0x52 };

export interface BlockHeader {
  version: number;
  type: BlockType;
  /** A declarations block that starts a new segment: the tables before it no longer apply. */
  isReset: boolean;
  frameBytes: number;
  contentBytes: number;
  records: number;
  /** Service-clock times of the block's first and last record (NaN in a declarations block). */
  firstAtMs: number;
  lastAtMs: number;
}

export function encodeHeader(h: BlockHeader): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES);
  const v = new DataView(out.buffer);
  v.setUint32(0, SKIPPABLE_MAGIC, true);
  v.setUint32(4, HEADER_PAYLOAD_BYTES, true);
  v.setUint32(8, MDSR, true);
  v.setUint8(12, h.version);
  v.setUint8(13, TYPE_BYTE[h.type]);
  v.setUint8(14, h.isReset ? 1 : 0);
  v.setUint32(16, h.frameBytes, true);
  v.setUint32(20, h.contentBytes, true);
  v.setUint32(24, h.records, true);
  v.setFloat64(32, h.firstAtMs, true);
  v.setFloat64(40, h.lastAtMs, true);
  return out;
}

/** The header at `at`, or a reason it is not one (bytes that are not a block header, a newer version). */
export function decodeHeader(bytes: Uint8Array, at: number): BlockHeader | string {
  if (bytes.length - at < HEADER_BYTES) return 'incomplete';
  const v = new DataView(bytes.buffer, bytes.byteOffset + at, HEADER_BYTES);
  if (v.getUint32(0, true) !== SKIPPABLE_MAGIC || v.getUint32(4, true) !== HEADER_PAYLOAD_BYTES || v.getUint32(8, true) !== MDSR) return 'not a block header';
  const version = v.getUint8(12);
  if (version > RECORDING_VERSION) return `format version ${version} (this build reads up to ${RECORDING_VERSION})`;
  const typeByte = v.getUint8(13);
  const type = typeByte === TYPE_BYTE.declare ? 'declare' : typeByte === TYPE_BYTE.records ? 'records' : null;
  if (type === null) return `unknown block type 0x${typeByte.toString(16)}`;
  return {
    version,
    type,
    isReset: (v.getUint8(14) & 1) === 1,
    frameBytes: v.getUint32(16, true),
    contentBytes: v.getUint32(20, true),
    records: v.getUint32(24, true),
    firstAtMs: v.getFloat64(32, true),
    lastAtMs: v.getFloat64(40, true),
  };
}

/** Where the next block header starts at or after `from`, or -1 (to skip bytes that are not blocks). */
export function findHeader(bytes: Uint8Array, from: number): number {
  for (let i = Math.max(0, from); i + 12 <= bytes.length; i++) {
    if (bytes[i] === 0x5e && bytes[i + 1] === 0x2a && bytes[i + 2] === 0x4d && bytes[i + 3] === 0x18 && bytes[i + 4] === HEADER_PAYLOAD_BYTES && bytes[i + 8] === 0x4d && bytes[i + 9] === 0x44 && bytes[i + 10] === 0x53 && bytes[i + 11] === 0x52) return i;
  }
  return -1;
}

/** A feed as declared in a recording: its id and its instrument table (records name instruments by index). */
export interface DeclaredFeed {
  index: number;
  id: string;
  instruments: FeedInstrument[];
}

/** A source as declared: the feed's own source (named by its id) or one named part of it (`sim-3`). */
export interface DeclaredSource {
  index: number;
  name: string;
  feed: number;
}

/** What a declarations block holds (msgpack): feeds and sources new since the last one, or all of them on a reset. */
export interface Declarations {
  feeds: DeclaredFeed[];
  sources: DeclaredSource[];
}

export const KIND_QUOTE = 1;
export const KIND_TRADE = 2;
export const KIND_STALE = 3;
/** The ingest path's timed sweep that seals bars whose end has passed; replayed at its time. */
export const KIND_SWEEP = 4;
const KIND_MASK = 7;
const HAS_SIZE_1 = 8;
const HAS_SIZE_2 = 16;
const TS_AS_FLOAT = 32;
const AT_AS_FLOAT = 64;
/** The most a record takes: tag, at (f64), source and instrument varints, ts (f64), four f64. */
export const MAX_RECORD_BYTES = 1 + 8 + 5 + 5 + 8 + 32;
const INT_DELTA_LIMIT = 2 ** 31 - 1;

/**
 * Packs records into one block's content: f64 base time, then per record a tag byte (kind, which
 * sizes are present, whether times are f64), the service-clock time `at` as a zigzag varint delta
 * from the previous record's, source and instrument varints, the event time `ts` as a zigzag varint
 * delta from `at`, and the prices and sizes as f64 (exact: a replay must see the very numbers).
 */
export class RecordPacker {
  private bytes: Uint8Array;
  private view: DataView;
  private at = 8;
  private prevAtMs = 0;
  count = 0;
  firstAtMs = NaN;
  lastAtMs = NaN;

  constructor(private readonly initialBytes = 64 * 1024) {
    this.bytes = new Uint8Array(initialBytes);
    this.view = new DataView(this.bytes.buffer);
  }

  get byteLength(): number {
    return this.at;
  }

  quote(source: number, atMs: number, instrument: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    const tag = KIND_QUOTE | (bidSize === null ? 0 : HAS_SIZE_1) | (askSize === null ? 0 : HAS_SIZE_2);
    this.head(tag, atMs, source, instrument, tsMs);
    this.f64(bid);
    this.f64(ask);
    if (bidSize !== null) this.f64(bidSize);
    if (askSize !== null) this.f64(askSize);
  }

  trade(source: number, atMs: number, instrument: number, tsMs: number, price: number, size: number | null): void {
    this.head(KIND_TRADE | (size === null ? 0 : HAS_SIZE_1), atMs, source, instrument, tsMs);
    this.f64(price);
    if (size !== null) this.f64(size);
  }

  stale(source: number, atMs: number, instrument: number): void {
    this.head(KIND_STALE, atMs, source, instrument, NaN);
  }

  sweep(atMs: number): void {
    this.head(KIND_SWEEP, atMs, -1, -1, NaN);
  }

  /** The block's content so far, copied out; the packer starts empty again. */
  take(): Uint8Array {
    this.view.setFloat64(0, this.count === 0 ? 0 : this.firstAtMs, true);
    const out = this.bytes.slice(0, this.at);
    this.at = 8;
    this.count = 0;
    this.firstAtMs = NaN;
    this.lastAtMs = NaN;
    return out;
  }

  private head(tag: number, atMs: number, source: number, instrument: number, tsMs: number): void {
    if (this.at + MAX_RECORD_BYTES > this.bytes.length) this.grow();
    if (this.count === 0) {
      this.firstAtMs = atMs;
      this.prevAtMs = atMs;
    }
    const kind = tag & KIND_MASK;
    const atDelta = atMs - this.prevAtMs;
    // A delta only where adding it back gives the very same number.
    const isAtInt = Number.isInteger(atDelta) && Math.abs(atDelta) <= INT_DELTA_LIMIT && this.prevAtMs + atDelta === atMs;
    const hasTs = kind === KIND_QUOTE || kind === KIND_TRADE;
    const tsDelta = tsMs - atMs;
    const isTsInt = !hasTs || (Number.isInteger(tsDelta) && Math.abs(tsDelta) <= INT_DELTA_LIMIT && atMs + tsDelta === tsMs);
    this.bytes[this.at++] = tag | (isAtInt ? 0 : AT_AS_FLOAT) | (isTsInt ? 0 : TS_AS_FLOAT);
    if (isAtInt) this.zigzag(atDelta);
    else this.f64(atMs);
    this.prevAtMs = atMs;
    this.count++;
    this.lastAtMs = atMs;
    if (kind === KIND_SWEEP) return;
    this.varint(source);
    this.varint(instrument);
    if (!hasTs) return;
    if (isTsInt) this.zigzag(tsDelta);
    else this.f64(tsMs);
  }

  private f64(x: number): void {
    this.view.setFloat64(this.at, x, true);
    this.at += 8;
  }

  private zigzag(n: number): void {
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }

  /** Unsigned, below 2^32. */
  private varint(n: number): void {
    let x = n >>> 0;
    while (x >= 0x80) {
      this.bytes[this.at++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    this.bytes[this.at++] = x;
  }

  private grow(): void {
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.initialBytes));
    next.set(this.bytes.subarray(0, this.at));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }
}

/** One block's records as columns (no object per record); a null size is NaN. */
export interface RecordColumns {
  count: number;
  kind: Uint8Array;
  atMs: Float64Array;
  source: Int32Array;
  instrument: Int32Array;
  tsMs: Float64Array;
  /** Quote: bid, ask, bid size, ask size; trade: price, size. */
  v0: Float64Array;
  v1: Float64Array;
  v2: Float64Array;
  v3: Float64Array;
}

/** Unpacks a records block's content; a reason string when it is malformed (never throws). */
export function unpackRecords(content: Uint8Array, expected: number): RecordColumns | string {
  const view = new DataView(content.buffer, content.byteOffset, content.byteLength);
  const cols: RecordColumns = {
    count: 0,
    kind: new Uint8Array(expected),
    atMs: new Float64Array(expected),
    source: new Int32Array(expected),
    instrument: new Int32Array(expected),
    tsMs: new Float64Array(expected),
    v0: new Float64Array(expected),
    v1: new Float64Array(expected),
    v2: new Float64Array(expected),
    v3: new Float64Array(expected),
  };
  if (content.length < 8) return 'content shorter than its base time';
  let at = 8;
  let prevAtMs = view.getFloat64(0, true);
  const end = content.length;
  const varint = (): number => {
    let x = 0;
    let shift = 0;
    for (;;) {
      if (at >= end || shift > 28) throw new RangeError('bad varint');
      const b = content[at++]!;
      x += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return x;
      shift += 7;
    }
  };
  const zigzag = (): number => {
    const z = varint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  };
  const f64 = (): number => {
    if (at + 8 > end) throw new RangeError('short value');
    const x = view.getFloat64(at, true);
    at += 8;
    return x;
  };
  try {
    for (let i = 0; i < expected; i++) {
      if (at >= end) return `${i} of ${expected} records`;
      const tag = content[at++]!;
      const kind = tag & KIND_MASK;
      if (kind < KIND_QUOTE || kind > KIND_SWEEP) return `record ${i}: unknown kind ${kind}`;
      const atMs = tag & AT_AS_FLOAT ? f64() : prevAtMs + zigzag();
      prevAtMs = atMs;
      cols.kind[i] = kind;
      cols.atMs[i] = atMs;
      cols.source[i] = -1;
      cols.instrument[i] = -1;
      cols.tsMs[i] = NaN;
      if (kind !== KIND_SWEEP) {
        cols.source[i] = varint();
        cols.instrument[i] = varint();
      }
      if (kind === KIND_QUOTE || kind === KIND_TRADE) {
        cols.tsMs[i] = tag & TS_AS_FLOAT ? f64() : atMs + zigzag();
        cols.v0[i] = f64();
        cols.v1[i] = kind === KIND_QUOTE ? f64() : tag & HAS_SIZE_1 ? f64() : NaN;
        if (kind === KIND_QUOTE) {
          cols.v2[i] = tag & HAS_SIZE_1 ? f64() : NaN;
          cols.v3[i] = tag & HAS_SIZE_2 ? f64() : NaN;
        }
      }
      cols.count = i + 1;
    }
  } catch (err) {
    return `record ${cols.count}: ${(err as Error).message}`;
  }
  if (at !== end) return `${end - at} bytes after the last record`;
  return cols;
}
