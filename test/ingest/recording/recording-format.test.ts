// The packed record layout and the block header: every record comes back with the very numbers it
// was given (a replay must see them exactly), and malformed content is a reason, never a throw.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { decodeHeader, encodeHeader, findHeader, HEADER_BYTES, KIND_QUOTE, KIND_STALE, KIND_SWEEP, KIND_TRADE, RecordPacker, unpackRecords, type BlockHeader } from '../../../src/ingest/recording/recording-format.ts';

type Rec =
  | { kind: 'quote'; source: number; atMs: number; instrument: number; tsMs: number; bid: number; ask: number; bidSize: number | null; askSize: number | null }
  | { kind: 'trade'; source: number; atMs: number; instrument: number; tsMs: number; price: number; size: number | null }
  | { kind: 'stale'; source: number; atMs: number; instrument: number }
  | { kind: 'sweep'; atMs: number };

const NOW = Date.parse('2026-03-04T15:00:00Z');
const index = fc.integer({ min: 0, max: 5000 });
// Mostly whole milliseconds near now, sometimes fractions or far-off times (stored as f64 then).
const time = fc.oneof(fc.integer({ min: NOW - 86_400_000, max: NOW + 86_400_000 }), fc.double({ min: 0, max: 4e12, noNaN: true }));
const price = fc.double({ noNaN: true, noDefaultInfinity: true });
const size = fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null });
const rec: fc.Arbitrary<Rec> = fc.oneof(
  fc.record({ kind: fc.constant('quote' as const), source: index, atMs: time, instrument: index, tsMs: time, bid: price, ask: price, bidSize: size, askSize: size }),
  fc.record({ kind: fc.constant('trade' as const), source: index, atMs: time, instrument: index, tsMs: time, price, size }),
  fc.record({ kind: fc.constant('stale' as const), source: index, atMs: time, instrument: index }),
  fc.record({ kind: fc.constant('sweep' as const), atMs: time }),
);

function packAll(recs: readonly Rec[], packer = new RecordPacker(64)): Uint8Array {
  for (const r of recs) {
    if (r.kind === 'quote') packer.quote(r.source, r.atMs, r.instrument, r.tsMs, r.bid, r.ask, r.bidSize, r.askSize);
    else if (r.kind === 'trade') packer.trade(r.source, r.atMs, r.instrument, r.tsMs, r.price, r.size);
    else if (r.kind === 'stale') packer.stale(r.source, r.atMs, r.instrument);
    else packer.sweep(r.atMs);
  }
  return packer.take();
}

function unpackAll(content: Uint8Array, count: number): Rec[] {
  const cols = unpackRecords(content, count);
  if (typeof cols === 'string') throw new Error(cols);
  const out: Rec[] = [];
  const orNull = (x: number) => (Number.isNaN(x) ? null : x);
  for (let i = 0; i < cols.count; i++) {
    const [source, atMs, instrument, tsMs] = [cols.source[i]!, cols.atMs[i]!, cols.instrument[i]!, cols.tsMs[i]!];
    const kind = cols.kind[i]!;
    if (kind === KIND_QUOTE) out.push({ kind: 'quote', source, atMs, instrument, tsMs, bid: cols.v0[i]!, ask: cols.v1[i]!, bidSize: orNull(cols.v2[i]!), askSize: orNull(cols.v3[i]!) });
    else if (kind === KIND_TRADE) out.push({ kind: 'trade', source, atMs, instrument, tsMs, price: cols.v0[i]!, size: orNull(cols.v1[i]!) });
    else if (kind === KIND_STALE) out.push({ kind: 'stale', source, atMs, instrument });
    else if (kind === KIND_SWEEP) out.push({ kind: 'sweep', atMs });
  }
  return out;
}

describe('record packing', () => {
  test('every record unpacks to the same kinds, indexes, times, prices and sizes (fractions and far-off times too)', () => {
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 200 }), (recs) => {
        expect(unpackAll(packAll(recs), recs.length)).toEqual(recs);
      }),
      { numRuns: 300 },
    );
  });

  test('a packer starts empty again after take, and grows past its first buffer', () => {
    const packer = new RecordPacker(64);
    const first: Rec[] = Array.from({ length: 500 }, (_, i) => ({ kind: 'trade', source: 1, atMs: NOW + i, instrument: i % 7, tsMs: NOW + i - 3, price: 100 + i / 8, size: i % 2 ? null : i }));
    const a = packAll(first, packer);
    expect(packer.count).toBe(0);
    const second: Rec[] = [{ kind: 'sweep', atMs: NOW + 9000 }];
    expect(unpackAll(a, 500)).toEqual(first);
    expect(unpackAll(packAll(second, packer), 1)).toEqual(second);
  });

  test('malformed content gives a reason and never throws', () => {
    fc.assert(
      fc.property(fc.array(rec, { minLength: 1, maxLength: 20 }), fc.nat(), fc.integer({ min: 0, max: 255 }), (recs, at, byte) => {
        const content = packAll(recs);
        const cut = content.subarray(0, at % content.length);
        expect(typeof unpackRecords(cut, recs.length)).toBe('string');
        const flipped = Uint8Array.from(content);
        flipped[8 + (at % (content.length - 8))] = byte;
        expect(() => unpackRecords(flipped, recs.length)).not.toThrow();
        expect(typeof unpackRecords(content, recs.length + 1)).toBe('string');
      }),
    );
  });
});

describe('block header', () => {
  const header: BlockHeader = { version: 1, type: 'records', isReset: false, frameBytes: 1234, contentBytes: 99_999, records: 4321, firstAtMs: NOW + 0.5, lastAtMs: NOW + 60_000 };

  test('round trips, and is a zstd skippable frame', () => {
    const bytes = encodeHeader(header);
    expect(bytes.length).toBe(HEADER_BYTES);
    expect(new DataView(bytes.buffer).getUint32(0, true) & 0xfffffff0).toBe(0x184d2a50);
    expect(decodeHeader(bytes, 0)).toEqual(header);
    expect(decodeHeader(encodeHeader({ ...header, type: 'declare', isReset: true }), 0)).toEqual({ ...header, type: 'declare', isReset: true });
  });

  test('short bytes are incomplete; other bytes and newer versions are named', () => {
    const bytes = encodeHeader(header);
    expect(decodeHeader(bytes.subarray(0, 20), 0)).toBe('incomplete');
    expect(decodeHeader(new Uint8Array(HEADER_BYTES), 0)).toBe('not a block header');
    const newer = Uint8Array.from(bytes);
    newer[12] = 2;
    expect(decodeHeader(newer, 0)).toBe('format version 2 (this build reads up to 1)');
  });

  test('findHeader finds the next header behind other bytes', () => {
    const bytes = new Uint8Array(100 + HEADER_BYTES);
    bytes.fill(0x5e, 0, 100);
    bytes.set(encodeHeader(header), 100);
    expect(findHeader(bytes, 0)).toBe(100);
    expect(findHeader(bytes, 101)).toBe(-1);
  });
});
