// Formats and containers of history files: NDJSON, Parquet (written here with hyparquet-writer:
// several row groups, page codecs, typed and text times), the container told by magic bytes,
// and the errors of truncated or corrupt compressed files.
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync, zstdCompressSync } from 'node:zlib';
import fc from 'fast-check';
import { parquetWriteFile } from 'hyparquet-writer';
import { InputFileError, openBarFile, openTickFile } from '../../../src/ingest/importers/history/index.ts';
import { ZstdFrameWatcher } from '../../../src/ingest/importers/history/zstd-frames.ts';
import { tempDir } from '../../support/temp-dir.ts';
import { containerCopies, FIXTURES, readBars, readTicks } from './collect.ts';

const T0 = Date.UTC(2024, 0, 2, 14, 30);

describe.each(['plain', 'gz', 'zst'] as const)('NDJSON, %s', (container) => {
  test('objects by key: ISO times, numbers and numeric strings, null volume; symbol given', async () => {
    using dir = tempDir();
    const path = containerCopies('generic-bars.ndjson', dir.path)[container];
    const file = openBarFile(path, { symbol: 'US:AAPL', assetClass: 'stocks' });
    expect(file.info.format).toBe('ndjson');
    const read = await readBars(path, { symbol: 'US:AAPL', assetClass: 'stocks' });
    expect(read.problems).toEqual([]);
    expect(read.rows).toEqual([
      { line: 1, symbol: 'US:AAPL', classHint: 'stocks', t: T0, o: 187.15, h: 187.25, l: 187.1, c: 187.23, v: 16084 },
      { line: 2, symbol: 'US:AAPL', classHint: 'stocks', t: T0 + 60_000, o: 187.23, h: 187.35, l: 187.2, c: 187.3, v: NaN },
    ]);
  });
});

describe('NDJSON problems', () => {
  test('lines that are not JSON objects or have bad values are problems with their line numbers', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'bars.jsonl');
    await Bun.write(path, ['{"t":1704067200000,"o":1,"h":2,"l":0.5,"c":1.5}', '', '{not json', '[1,2]', '{"t":1704067200000,"o":"x","h":2,"l":0.5,"c":1.5}', '{"t":"soon","o":1,"h":2,"l":0.5,"c":1.5}', '{"t":1704067260000,"h":2,"l":0.5,"c":1.5}', '{"t":1704067320000,"o":1,"h":2,"l":0.5,"c":1.5}\r'].join('\n'));
    const read = await readBars(path, { symbol: 'X' });
    expect(read.problems.map((p) => [p.line, p.message])).toEqual([
      [3, 'is not valid JSON'],
      [4, 'is not a JSON object'],
      [5, 'column o: "x" is not a number'],
      [6, 'column t: "soon" is not a time'],
      [7, 'column o is empty'],
    ]);
    expect(read.rows.map((r) => r.line)).toEqual([1, 8]);
  });
});

function writeBarsParquet(path: string, rowGroupSize: number, codec: 'SNAPPY' | 'GZIP' | 'ZSTD' | 'UNCOMPRESSED'): { t: number[]; o: number[] } {
  const n = 25;
  const t = Array.from({ length: n }, (_, i) => T0 + i * 60_000);
  const o = Array.from({ length: n }, (_, i) => 100 + i / 4);
  parquetWriteFile({
    filename: path,
    codec,
    compressors: { GZIP: (b) => gzipSync(b), ZSTD: (b) => zstdCompressSync(b) },
    rowGroupSize,
    columnData: [
      { name: 'ticker', data: t.map((_, i) => (i % 2 === 0 ? 'X:BTCUSD' : 'C:EUR-USD')), type: 'STRING' },
      { name: 'window_start', data: BigInt64Array.from(t, (ms) => BigInt(ms) * 1_000_000n + 123_456n), type: 'INT64' },
      { name: 'open', data: Float64Array.from(o), type: 'DOUBLE' },
      { name: 'high', data: Float64Array.from(o, (x) => x + 1), type: 'DOUBLE' },
      { name: 'low', data: Float32Array.from(o, (x) => x - 1), type: 'FLOAT' },
      { name: 'close', data: Int32Array.from(o, (x) => Math.round(x)), type: 'INT32' },
      { name: 'volume', data: o.map((x, i) => (i === 3 ? null : x * 10)), type: 'DOUBLE', nullable: true },
      { name: 'transactions', data: Int32Array.from(o, () => 7), type: 'INT32' },
    ],
  });
  return { t, o };
}

describe.each(['SNAPPY', 'GZIP', 'ZSTD', 'UNCOMPRESSED'] as const)('Parquet, %s pages', (codec) => {
  test('row groups read in order; ns INT64 times, float, int and null cells; rows numbered from 1', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'aggs.parquet');
    const { t, o } = writeBarsParquet(path, 10, codec);
    const file = openBarFile(path, { preset: 'polygon', timeframe: '1m' });
    expect(file.info).toMatchObject({ format: 'parquet', preset: 'polygon', timeframe: '1m' });
    const read = await readBars(path, { preset: 'polygon', timeframe: '1m', batchRows: 8 });
    expect(read.problems).toEqual([]);
    expect(read.rows).toEqual(
      t.map((ms, i) => ({
        line: i + 1,
        symbol: i % 2 === 0 ? 'BTCUSD' : 'EURUSD',
        classHint: i % 2 === 0 ? 'crypto' : 'forex',
        t: ms,
        o: o[i]!,
        h: o[i]! + 1,
        l: Math.fround(o[i]! - 1),
        c: Math.round(o[i]!),
        v: i === 3 ? NaN : o[i]! * 10,
      })),
    );
    expect(read.lastBytesRead).toBe(Bun.file(path).size);
  });
});

describe('Parquet time types', () => {
  test('TIMESTAMP columns are instants; DATE columns are days read in the zone; text times as in CSV', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'ticks.parquet');
    parquetWriteFile({
      filename: path,
      columnData: [
        { name: 'ts', data: [new Date(T0), new Date(T0 + 1)], type: 'TIMESTAMP' },
        { name: 'symbol', data: ['EURUSD', 'EURUSD'], type: 'STRING' },
        { name: 'bid', data: [1.1, 1.2], type: 'DOUBLE' },
        { name: 'ask', data: [1.3, 1.4], type: 'DOUBLE' },
      ],
    });
    const ticks = await readTicks(path);
    expect(ticks.rows.map((r) => [r.line, r.kind, r.t, r.bid, r.ask])).toEqual([
      [1, 'quote', T0, 1.1, 1.3],
      [2, 'quote', T0 + 1, 1.2, 1.4],
    ]);

    const daily = join(dir.path, 'daily.parquet');
    parquetWriteFile({
      filename: daily,
      schema: [
        { name: 'root', num_children: 6 },
        { name: 'date', type: 'INT32', converted_type: 'DATE', repetition_type: 'REQUIRED' },
        { name: 'stamp', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'open', type: 'DOUBLE', repetition_type: 'REQUIRED' },
        { name: 'high', type: 'DOUBLE', repetition_type: 'REQUIRED' },
        { name: 'low', type: 'DOUBLE', repetition_type: 'REQUIRED' },
        { name: 'close', type: 'DOUBLE', repetition_type: 'REQUIRED' },
      ],
      columnData: [
        { name: 'date', data: [new Date(Date.UTC(2024, 0, 2))] },
        { name: 'stamp', data: ['2024-01-02 16:00'] },
        { name: 'open', data: [1] },
        { name: 'high', data: [2] },
        { name: 'low', data: [0.5] },
        { name: 'close', data: [1.5] },
      ],
    });
    const byDate = await readBars(daily, { symbol: 'US:AAPL', tz: 'America/New_York' });
    expect(byDate.rows.map((r) => r.t)).toEqual([Date.UTC(2024, 0, 2, 5)]);
    const byStamp = await readBars(daily, { symbol: 'US:AAPL', tz: 'America/New_York', columns: { t: 'stamp' } });
    expect(byStamp.rows.map((r) => r.t)).toEqual([Date.UTC(2024, 0, 2, 21)]);
  });

  test('a file that is not Parquet, or a compressed Parquet file, is an InputFileError', async () => {
    using dir = tempDir();
    const bad = join(dir.path, 'x.parquet');
    await Bun.write(bad, 'PAR1 but not really');
    await expect(readBars(bad, { symbol: 'X' })).rejects.toThrow(`${bad}: not a readable Parquet file`);
    const good = join(dir.path, 'aggs.parquet');
    writeBarsParquet(good, 100, 'SNAPPY');
    writeFileSync(`${good}.gz`, gzipSync(readFileSync(good)));
    expect(() => openBarFile(`${good}.gz`, { preset: 'polygon', timeframe: '1m' })).toThrow('a Parquet file cannot be read gzip-compressed as a whole');
  });
});

describe('containers by magic bytes', () => {
  test('gzip and zstd data are found whatever the name; a Parquet file without its suffix too', async () => {
    using dir = tempDir();
    const src = readFileSync(join(FIXTURES, 'BTCUSDT-1m-2024-01.csv'));
    const gz = join(dir.path, 'BTCUSDT-1m-2024-01.csv');
    writeFileSync(gz, gzipSync(src));
    expect((await readBars(gz)).rows.length).toBe(3);
    const zst = join(dir.path, 'BTCUSDT-1m-2024-02.csv.gz');
    writeFileSync(zst, zstdCompressSync(src));
    expect((await readBars(zst)).rows.length).toBe(3);
    const pq = join(dir.path, 'aggs.data');
    writeBarsParquet(pq, 100, 'SNAPPY');
    expect(openBarFile(pq, { preset: 'polygon', timeframe: '1m' }).info.format).toBe('parquet');
  });

  test('a .gz name over plain text is read as text; over other bytes it is an error', async () => {
    using dir = tempDir();
    const text = join(dir.path, 'BTCUSDT-1m-2024-01.csv.gz');
    writeFileSync(text, readFileSync(join(FIXTURES, 'BTCUSDT-1m-2024-01.csv')));
    expect((await readBars(text)).rows.length).toBe(3);
    const junk = join(dir.path, 'BTCUSDT-1m-2024-02.csv.gz');
    writeFileSync(junk, Uint8Array.of(0, 1, 2, 3, 4, 5));
    expect(() => openBarFile(junk)).toThrow(`${junk}: named as compressed but holds neither gzip nor zstd data (nor text)`);
  });

  test('truncated gzip and zstd files and corrupt gzip data are clear errors (after the rows before the cut)', async () => {
    using dir = tempDir();
    const lines = Array.from({ length: 20_000 }, (_, i) => `${1704067200000 + i * 60000},1,2,0.5,1.5,3,0,0,0,0,0,0`).join('\n');
    const gz = gzipSync(lines);
    const cutGz = join(dir.path, 'BTCUSDT-1m-2024-01.csv.gz');
    writeFileSync(cutGz, gz.subarray(0, Math.floor(gz.length / 2)));
    const err = await readBars(cutGz).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputFileError);
    expect((err as Error).message).toBe(`${cutGz}: the gzip data ends early (a truncated file?)`);
    const zst = zstdCompressSync(lines);
    const cutZst = join(dir.path, 'BTCUSDT-1m-2024-02.csv.zst');
    writeFileSync(cutZst, zst.subarray(0, Math.floor(zst.length / 2)));
    await expect(readBars(cutZst)).rejects.toThrow(`${cutZst}: the zstd data ends early (a truncated file?)`);
    const corrupt = Buffer.from(gz);
    corrupt.fill(0x55, 20, 60);
    const badGz = join(dir.path, 'BTCUSDT-1m-2024-03.csv.gz');
    writeFileSync(badGz, corrupt);
    await expect(readBars(badGz)).rejects.toThrow(`${badGz}: the gzip data is corrupt`);
    const corruptZst = Buffer.from(zstdCompressSync(lines, { params: { [constants.ZSTD_c_checksumFlag]: 1 } }));
    corruptZst.fill(0x55, 30, 80);
    const badZst = join(dir.path, 'BTCUSDT-1m-2024-04.csv.zst');
    writeFileSync(badZst, corruptZst);
    await expect(readBars(badZst)).rejects.toThrow(`${badZst}: the zstd data is corrupt`);
  });

  test('a consumer that stops early leaves nothing open: the file can be read again at once', async () => {
    using dir = tempDir();
    const path = containerCopies('BTCUSDT-1m-2024-01.csv', dir.path).gz;
    for (let i = 0; i < 3; i++) {
      for await (const { batch } of openBarFile(path, { batchRows: 1 }).batches) {
        expect(batch.length).toBe(1);
        break;
      }
    }
    expect((await readBars(path)).rows.length).toBe(3);
  });
});

describe('tick files in other formats', () => {
  test('NDJSON trades through the binance-trades preset by key names', async () => {
    using dir = tempDir();
    const path = join(dir.path, 'BTCUSDT-trades-2024-01-01.ndjson');
    await Bun.write(path, '{"id":1,"price":"42000.5","qty":"0.1","time":1704067200000123}\n');
    expect(openTickFile(path).info).toMatchObject({ preset: 'binance-trades', format: 'ndjson' });
    const read = await readTicks(path);
    expect(read.rows.map((r) => [r.symbol, r.kind, r.t, r.price, r.size])).toEqual([['BTCUSDT', 'trade', 1704067200000, 42000.5, 0.1]]);
  });
});

describe('ZstdFrameWatcher', () => {
  const ends = (bytes: Uint8Array, chunk: number) => {
    const w = new ZstdFrameWatcher();
    for (let i = 0; i < bytes.length; i += chunk) w.push(bytes.subarray(i, i + chunk));
    return w.endsCleanly(bytes.length > 0);
  };

  test('property: a whole stream (raw, RLE and compressed blocks, checksums, several frames) ends cleanly; a cut one does not', () => {
    const data = fc.oneof(fc.uint8Array({ maxLength: 300_000 }), fc.nat({ max: 300_000 }).map((n) => new Uint8Array(n)), fc.array(fc.constantFrom('1704067200000,42283.58,', 'abc\n'), { maxLength: 20_000 }).map((a) => new TextEncoder().encode(a.join(''))));
    fc.assert(
      fc.property(fc.array(fc.tuple(data, fc.boolean()), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 70_000 }), fc.nat(), (frames, chunk, cut) => {
        const stream = Buffer.concat(frames.map(([d, checksum]) => zstdCompressSync(d, { params: { [constants.ZSTD_c_checksumFlag]: checksum ? 1 : 0 } })));
        expect(ends(stream, chunk)).toBe(true);
        const lastStart = stream.length - zstdCompressSync(frames.at(-1)![0], { params: { [constants.ZSTD_c_checksumFlag]: frames.at(-1)![1] ? 1 : 0 } }).length;
        const at = lastStart + 1 + (cut % (stream.length - lastStart - 1 || 1));
        if (at < stream.length) expect(ends(stream.subarray(0, at), chunk)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
