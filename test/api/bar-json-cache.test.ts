// The encoded-bar cache on its own: slices in both orders equal the plain encoding, a grown chunk
// is extended (only the new bars are read), and the byte bound evicts the least recently used.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { BarJsonCache, type BarRecordSource, type EncodedChunk } from '../../src/api/queries/bar-json-cache.ts';
import { barJson } from '../../src/api/serialize.ts';

const BAR_FIELDS = 6;

/** A chunk source over plain arrays of packed records, recording what was read. */
function source(chunks: Map<number, number[]>, revision = { value: 0 }) {
  const reads: [number, number, number][] = [];
  const src: BarRecordSource = {
    barsRevision: () => revision.value,
    barChunkRecords(_symId, _tf, start, fromIndex, toIndex) {
      reads.push([start, fromIndex, toIndex]);
      return new Float64Array(chunks.get(start)!.slice(fromIndex * BAR_FIELDS, toIndex * BAR_FIELDS));
    },
  };
  return { src, reads };
}

function records(n: number, firstT = 0): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(firstT + i * 60_000, 100 + i / 8, 101 + i, 99.5 - i / 1024, 100.25, i % 4 === 0 ? NaN : i * 1e-9);
  return out;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function plain(recs: number[], a: number, b: number, desc: boolean): string {
  const data = new Float64Array(recs);
  const parts: string[] = [];
  for (let i = a; i < b; i++) parts.push(`${barJson(data, i)},`);
  return (desc ? parts.reverse() : parts).join('');
}

function ascRun(chunk: EncodedChunk, a: number, b: number): string {
  return text(chunk.asc.subarray(chunk.offsets[a]!, chunk.offsets[b]!));
}

function descRun(cache: BarJsonCache, chunk: EncodedChunk, a: number, b: number): string {
  const desc = cache.desc(chunk);
  return text(desc.subarray(desc.length - chunk.offsets[b]!, desc.length - chunk.offsets[a]!));
}

describe('bar JSON cache', () => {
  test('any run of bars is one slice equal to the plain encoding, in both orders', () => {
    const recs = records(300);
    const { src } = source(new Map([[0, recs]]));
    const cache = new BarJsonCache();
    const chunk = cache.chunk(src, 1, '1m', 0, 300);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), (x, y) => {
        const [a, b] = x <= y ? [x, y] : [y, x];
        expect(ascRun(chunk, a, b)).toBe(plain(recs, a, b, false));
        expect(descRun(cache, chunk, a, b)).toBe(plain(recs, a, b, true));
      }),
    );
  });

  test('a chunk that grew is extended in place: only its new bars are read, both orders stay right', () => {
    const recs = records(1024);
    const { src, reads } = source(new Map([[0, recs]]));
    const cache = new BarJsonCache();
    let chunk = cache.chunk(src, 1, '1m', 0, 10);
    expect(descRun(cache, chunk, 0, 10)).toBe(plain(recs, 0, 10, true));
    for (const count of [11, 12, 40, 41, 500, 1024]) {
      const again = cache.chunk(src, 1, '1m', 0, count);
      expect(again).toBe(chunk);
      chunk = again;
      expect(ascRun(chunk, 0, count)).toBe(plain(recs, 0, count, false));
      expect(descRun(cache, chunk, 0, count)).toBe(plain(recs, 0, count, true));
      expect(descRun(cache, chunk, 3, count - 1)).toBe(plain(recs, 3, count - 1, true));
    }
    expect(reads).toEqual([
      [0, 0, 10],
      [0, 10, 11],
      [0, 11, 12],
      [0, 12, 40],
      [0, 40, 41],
      [0, 41, 500],
      [0, 500, 1024],
    ]);
    // Asking for fewer bars than encoded reads nothing.
    expect(cache.chunk(src, 1, '1m', 0, 100)).toBe(chunk);
    expect(reads.length).toBe(7);
  });

  test('chunks are told apart by symbol, timeframe and start', () => {
    const { src } = source(new Map([[0, records(5)], [60_000, records(5, 1e12)]]));
    const cache = new BarJsonCache();
    const a = cache.chunk(src, 1, '1m', 0, 5);
    expect(cache.chunk(src, 2, '1m', 0, 5)).not.toBe(a);
    expect(cache.chunk(src, 1, '5m', 0, 5)).not.toBe(a);
    expect(ascRun(cache.chunk(src, 1, '1m', 60_000, 5), 0, 5)).toBe(plain(records(5, 1e12), 0, 5, false));
    expect(cache.size).toBe(4);
  });

  test('the byte bound evicts the least recently used chunks; evicted chunks stay usable', () => {
    const recs = records(200);
    const chunks = new Map<number, number[]>();
    for (let i = 0; i < 10; i++) chunks.set(i, recs);
    const { src, reads } = source(chunks);
    const one = new BarJsonCache().chunk(src, 1, '1m', 0, 200).bytes;
    const cache = new BarJsonCache(one * 3);
    const first = cache.chunk(src, 1, '1m', 0, 200);
    cache.chunk(src, 1, '1m', 1, 200);
    cache.chunk(src, 1, '1m', 2, 200);
    cache.chunk(src, 1, '1m', 0, 200); // used again: now the most recent
    cache.chunk(src, 1, '1m', 3, 200); // evicts chunk 1
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    const readsBefore = reads.length;
    expect(cache.chunk(src, 1, '1m', 0, 200)).toBe(first);
    expect(reads.length).toBe(readsBefore);
    cache.chunk(src, 1, '1m', 1, 200);
    expect(reads.length).toBe(readsBefore + 1);
    // The descending copies count too: the bound still holds once they are built.
    for (let i = 0; i < 10; i++) cache.desc(cache.chunk(src, 1, '1m', i, 200));
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    expect(ascRun(first, 0, 200)).toBe(plain(recs, 0, 200, false));
    expect(descRun(cache, first, 0, 200)).toBe(plain(recs, 0, 200, true));
  });

  test('a new series revision (an import rewrote bars) re-encodes the chunk from its current bars', () => {
    const chunks = new Map<number, number[]>([[0, records(8)]]);
    const revision = { value: 0 };
    const { src } = source(chunks, revision);
    const cache = new BarJsonCache();
    const before = cache.chunk(src, 1, '1m', 0, 8);
    expect(ascRun(before, 0, 8)).toBe(plain(records(8), 0, 8, false));
    const rewritten = records(8, 0).map((x, i) => (i % 6 === 4 ? x + 1 : x));
    chunks.set(0, rewritten);
    expect(cache.chunk(src, 1, '1m', 0, 8)).toBe(before);
    revision.value = 1;
    const after = cache.chunk(src, 1, '1m', 0, 8);
    expect(after).not.toBe(before);
    expect(ascRun(after, 0, 8)).toBe(plain(rewritten, 0, 8, false));
    expect(descRun(cache, after, 0, 8)).toBe(plain(rewritten, 0, 8, true));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(after.bytes);
  });
});
