// The CSV reader of history files: bad rows become problems with their line numbers, quoting and
// line-end details, batch boundaries, and (property) the same values however the bytes are cut.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { join } from 'node:path';
import { TimeReader } from '../../../src/ingest/importers/history/cell-values.ts';
import { openBarFile } from '../../../src/ingest/importers/history/index.ts';
import { CsvRowParser } from '../../../src/ingest/importers/history/csv-rows.ts';
import { isDataRecord, presetDef, resolveColumns } from '../../../src/ingest/importers/history/presets.ts';
import { BAR_SHAPE, RowBuilder } from '../../../src/ingest/importers/history/row-builder.ts';
import { tempDir } from '../../support/temp-dir.ts';
import { FIXTURES, readBars } from './collect.ts';

describe('malformed rows', () => {
  test('each bad row is a problem naming its line and column; good rows around it are read', async () => {
    const path = join(FIXTURES, 'generic-malformed.csv');
    const read = await readBars(path, { symbol: 'X' });
    expect(read.problems).toEqual([
      { file: path, line: 3, message: 'column h: "abc" is not a number' },
      { file: path, line: 4, message: 'has 5 columns, expected 6' },
      { file: path, line: 6, message: 'column c is empty' },
      { file: path, line: 7, message: 'column t: "nonsense" is not a time' },
    ]);
    expect(read.rows.map((r) => [r.line, r.t, r.o, r.h, r.l, r.c, r.v])).toEqual([
      [2, 1704067200000, 1, 2, 0.5, 1.5, 10],
      // Numbers that are not finite come through for the importer's validation to reject.
      [8, 1704067440000, Infinity, 2, NaN, 1.5, NaN],
      [9, 1704067500000, 100, 2, 0.5, 1.5, 10],
    ]);
  });

  test('more columns than the header is a problem too; so is a stray carriage return', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'x.csv');
    await Bun.write(path, 't,o,h,l,c\n1704067200000,1,2,0.5,1.5,9\n1704067200000,1\r,2,0.5,1.5\n1704067200000,1,2,0.5,1.5\n');
    const read = await readBars(path, { symbol: 'X' });
    expect(read.problems.map((p) => [p.line, p.message])).toEqual([
      [2, 'has 6 columns, expected 5'],
      [3, 'column o: "1\\r" is not a number'],
    ]);
    expect(read.rows.map((r) => r.line)).toEqual([4]);
  });

  test('problems do not wait for a batch to close: past 1024 they come out in an empty batch', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'x.csv');
    await Bun.write(path, `t,o,h,l,c\n${'1704067200000,x,2,0.5,1.5\n'.repeat(2500)}1704067200000,1,2,0.5,1.5\n`);
    const handOuts: [number, number][] = [];
    for await (const { batch, problems } of openBarFile(path, { symbol: 'X' }).batches) handOuts.push([batch.length, problems.length]);
    expect(handOuts).toEqual([
      [0, 2500],
      [1, 0],
    ]);
  });

  test('an unclosed quote at the end of the file is a problem on the line it opens', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'x.csv');
    await Bun.write(path, 't,o,h,l,c\n1704067200000,1,2,0.5,1.5\n1704067260000,"1,2,0.5,1.5\n1704067320000,1,2,0.5,1.5\n');
    const read = await readBars(path, { symbol: 'X' });
    expect(read.rows.map((r) => r.line)).toEqual([2]);
    expect(read.problems.map((p) => [p.line, p.message])).toEqual([[3, 'a quoted cell is never closed']]);
  });
});

describe('CSV details', () => {
  test('quoted cells (commas, doubled quotes, newlines) keep line numbers right; BOM and CRLF are fine', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'x.csv');
    const text = '\uFEFF"time","symbol",o,h,l,c,note\r\n1704067200000,"BTC,USD",1,2,0.5,1.5,"say ""hi""\nand more"\r\n\r\n1704067260000,ETHUSD,"3",4,2,3.5,plain\r\n1704067320000,ETHUSD,3,4,2,3.5,last';
    await Bun.write(path, text);
    const read = await readBars(path);
    expect(read.problems).toEqual([]);
    expect(read.rows.map((r) => [r.line, r.symbol, r.t, r.o])).toEqual([
      [2, 'BTC,USD', 1704067200000, 1],
      [5, 'ETHUSD', 1704067260000, 3],
      [6, 'ETHUSD', 1704067320000, 3],
    ]);
  });

  test('batches hold at most batchRows rows and every row once, in order', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'BTCUSDT-1m-2024-01.csv');
    const lines = Array.from({ length: 25 }, (_, i) => `${1704067200000 + i * 60000},${i},${i + 1},${i},${i},1,0,0,0,0,0,0`);
    await Bun.write(path, `${lines.join('\n')}\n`);
    const read = await readBars(path, { batchRows: 10 });
    expect(read.batchLengths).toEqual([10, 10, 5]);
    expect(read.rows.map((r) => r.o)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  test('a symbol column changing row to row maps each ticker once', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'x.csv');
    await Bun.write(path, 'ticker,window_start,open,high,low,close\nX:BTCUSD,1,1,1,1,1\nX:BTCUSD,2,1,1,1,1\nC:EUR-USD,3,1,1,1,1\nX:BTCUSD,4,1,1,1,1\nAAPL,5,1,1,1,1\n');
    const read = await readBars(path, { preset: 'polygon', timeframe: '1m', timeUnit: 'ms' });
    expect(read.rows.map((r) => [r.symbol, r.classHint, r.t])).toEqual([
      ['BTCUSD', 'crypto', 1],
      ['BTCUSD', 'crypto', 2],
      ['EURUSD', 'forex', 3],
      ['BTCUSD', 'crypto', 4],
      ['AAPL', 'stocks', 5],
    ]);
  });
});

/** Parses CSV bytes fed in the given chunks with the generic bar preset; rows as [line, t, o, h, l, c, v]. */
function parseChunks(chunks: Uint8Array[]): { rows: number[][]; problems: string[] } {
  const def = presetDef('bars', 'generic');
  const builder = new RowBuilder('mem.csv', BAR_SHAPE, 7, { symbol: 'X', classHint: null });
  const parser = new CsvRowParser(
    builder,
    {
      layoutFor(cells) {
        const resolved = resolveColumns('bars', def, cells, {}, true);
        if (isDataRecord(cells)) throw new Error('no header');
        return { layout: { codes: resolved.codes, names: resolved.names, counts: [cells.length] }, firstIsData: false };
      },
      onEmpty() {},
    },
    new TimeReader(undefined, 'UTC'),
    (raw) => ({ symbol: raw, classHint: null }),
  );
  const rows: number[][] = [];
  const problems: string[] = [];
  const drain = () => {
    const { batches, problems: p } = builder.take();
    for (const b of batches) for (let i = 0; i < b.length; i++) rows.push([b.line[i]!, b.tMs[i]!, ...b.nums.map((a) => a[i]!)]);
    for (const x of p) problems.push(`${x.line}: ${x.message}`);
  };
  for (const chunk of chunks) {
    parser.push(chunk);
    drain();
  }
  parser.finish();
  builder.close();
  drain();
  return { rows, problems };
}

function cutAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.slice(from, p));
    from = p;
  }
  chunks.push(bytes.slice(from));
  return chunks;
}

describe('property: CSV written from rows reads back the same across any chunk boundaries', () => {
  const decimal = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).map((x) => String(x)),
    fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.nat({ max: 12 }), fc.boolean()).map(([m, frac, neg]) => {
      const digits = m.toString().padStart(frac + 1, '0');
      const text = frac === 0 ? digits : `${digits.slice(0, -frac)}.${digits.slice(-frac)}`;
      return neg ? `-${text}` : text;
    }),
    fc.constantFrom('1e-7', '2.5E3', '.5', '5.', '0', '-0', '00012.5000', '123456789012345678901234.5'),
  );
  const epoch = fc.oneof(
    fc.integer({ min: 1_500_000_000_000, max: 1_900_000_000_000 }).map((ms) => ({ text: String(ms), ms })),
    fc.tuple(fc.integer({ min: 1_500_000_000_000, max: 1_900_000_000_000 }), fc.nat({ max: 999 })).map(([ms, us]) => ({ text: `${ms}${String(us).padStart(3, '0')}`, ms })),
    fc.tuple(fc.integer({ min: 1_500_000_000_000, max: 1_900_000_000_000 }), fc.nat({ max: 999_999 })).map(([ms, ns]) => ({ text: `${ms}${String(ns).padStart(6, '0')}`, ms })),
  );
  const row = fc.record({ t: epoch, o: decimal, h: decimal, l: decimal, c: decimal, v: fc.option(decimal, { nil: '' }), quoted: fc.boolean() });

  test('values, lines and problems do not depend on where chunks end', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (rows, cuts, crlf) => {
        const eol = crlf ? '\r\n' : '\n';
        const cell = (text: string, quoted: boolean) => (quoted ? `"${text}"` : text);
        const text = `t,o,h,l,c,v${eol}${rows.map((r) => [r.t.text, cell(r.o, r.quoted), r.h, r.l, r.c, cell(r.v, r.quoted)].join(',')).join(eol)}`;
        const bytes = new TextEncoder().encode(text);
        const whole = parseChunks([bytes]);
        expect(whole.problems).toEqual([]);
        expect(whole.rows).toEqual(rows.map((r, i) => [i + 2, r.t.ms, Number(r.o), Number(r.h), Number(r.l), Number(r.c), r.v === '' ? NaN : Number(r.v)]));
        expect(parseChunks(cutAt(bytes, cuts))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  test('byte-at-a-time feeding gives the same rows and problems as one chunk', () => {
    const text = 't,o,h,l,c,v\n1704067200000,1,2,0.5,1.5,\n"x",1,2,3,4,5\n1704067260000,1,2,3\n1704067320000,"1,5",2,3,4,5\n1704067380000,1,2,0.5,1.5,7';
    const bytes = new TextEncoder().encode(text);
    const single = parseChunks(Array.from(bytes, (b) => Uint8Array.of(b)));
    expect(single).toEqual(parseChunks([bytes]));
    expect(single.problems).toEqual(['3: column t: "x" is not a time', '4: has 4 columns, expected 6', '5: column o: "1,5" is not a number']);
    expect(single.rows.map((r) => r[0])).toEqual([2, 6]);
  });

  test('fuzz: any bytes after a header give rows and problems in line order, and never throw', () => {
    const piece = fc.oneof(fc.constantFrom(',', '\n', '\r\n', '"', '""', '-', '.', 'e', ' ', 'x', '1704067200000', '12.5', 'inf', '\u00e9'), fc.uint8Array({ maxLength: 3 }).map((b) => String.fromCharCode(...b)));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, cuts) => {
        const bytes = new TextEncoder().encode(`t,o,h,l,c,v\n${pieces.join('')}`);
        const whole = parseChunks([bytes]);
        expect(parseChunks(cutAt(bytes, cuts))).toEqual(whole);
        const lines = [...whole.rows.map((r) => r[0]!), ...whole.problems.map((p) => Number(p.split(':')[0]))];
        expect(new Set(lines).size).toBe(lines.length);
      }),
      { numRuns: 500 },
    );
  });
});
