// The recorder and the files it writes: what feeds hand their sinks comes back from the files by
// feed, source and symbol; hourly files are self-describing; a torn or corrupt block is skipped with
// a note; a file is readable while it is written; a full disk drops records, counted, and recovers.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { appendFileSync, copyFileSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.ts';
import type { FeedInstrument, FeedSink } from '../../../src/domain/feed.ts';
import { Recorder } from '../../../src/ingest/recording/recorder.ts';
import { listRecordingFiles, readBlocks } from '../../../src/ingest/recording/recording-file.ts';
import { HEADER_BYTES } from '../../../src/ingest/recording/recording-format.ts';
import { mountSmallDisk, type SmallDisk } from '../../support/full-disk.ts';
import { readRecording, type RecordedEvent } from '../../support/recording.ts';
import { tempDir } from '../../support/temp-dir.ts';

const T0 = Date.parse('2026-03-04T15:59:58Z');
const ALPHA: FeedInstrument[] = [
  { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' },
  { assetClass: 'crypto', symbol: 'ZZTUSD', venueSymbol: 'ZZT-USD', name: 'Zeta Token / US Dollar', decimals: 4 },
];
const MULTI: FeedInstrument[] = [{ assetClass: 'forex', symbol: 'EURUSD', venueSymbol: 'EURUSD' }];

/** A sink that keeps what reaches it, parts included (as the ingest path's sink would take it). */
function keepingSink(calls: string[], name = 'own'): FeedSink {
  return {
    quote: (i, ts, bid, ask, bs, as) => calls.push(`${name} q ${i} ${ts} ${bid} ${ask} ${bs} ${as}`),
    trade: (i, ts, p, s) => calls.push(`${name} t ${i} ${ts} ${p} ${s}`),
    stale: (i) => calls.push(`${name} s ${i}`),
    source: (part) => keepingSink(calls, part),
  };
}

interface Rig {
  clock: ManualClock;
  recorder: Recorder;
  alpha: FeedSink;
  multi: FeedSink;
  logs: string[];
  calls: string[];
}

function rig(dir: string, opts: { blockBytes?: number } = {}): Rig {
  const clock = new ManualClock(T0);
  const logs: string[] = [];
  const calls: string[] = [];
  const recorder = new Recorder({ dir, clock, log: (l) => logs.push(l), ...opts });
  const alpha = recorder.tap('alpha', ALPHA, keepingSink(calls));
  const multi = recorder.tap('multi', MULTI, keepingSink(calls));
  return { clock, recorder, alpha, multi, logs, calls };
}

describe('recorder', () => {
  test('what feeds and their parts hand their sinks comes back from the files, and is passed on unchanged', async () => {
    using dir = tempDir();
    const { clock, recorder, alpha, multi, calls } = rig(dir.path);
    const part1 = multi.source!('multi-1');
    const part2 = multi.source!('multi-2');
    alpha.quote(0, T0 - 5, 70_000.5, 70_001.25, 0.5, null);
    clock.advance(3);
    part2.quote(0, T0 - 1.5, 1.08501, 1.08503, null, null);
    alpha.trade(1, T0 + 1, 0.1234, null);
    recorder.sweep(clock.nowMs());
    clock.advance(500);
    recorder.sweep(clock.nowMs());
    clock.advance(7);
    part1.trade(0, T0 + 505, 1.085, 1_000_000);
    part2.stale(0);
    await recorder.close();

    const at = (d: number) => T0 + d;
    const want: RecordedEvent[] = [
      { kind: 'quote', atMs: at(0), feed: 'alpha', source: 'alpha', symbol: 'BTCUSD', tsMs: T0 - 5, bid: 70_000.5, ask: 70_001.25, bidSize: 0.5, askSize: null },
      { kind: 'quote', atMs: at(3), feed: 'multi', source: 'multi-2', symbol: 'EURUSD', tsMs: T0 - 1.5, bid: 1.08501, ask: 1.08503, bidSize: null, askSize: null },
      { kind: 'trade', atMs: at(3), feed: 'alpha', source: 'alpha', symbol: 'ZZTUSD', tsMs: T0 + 1, price: 0.1234, size: null },
      // Two sweeps with nothing between: the later one seals all the earlier one did.
      { kind: 'sweep', atMs: at(503) },
      { kind: 'trade', atMs: at(510), feed: 'multi', source: 'multi-1', symbol: 'EURUSD', tsMs: T0 + 505, price: 1.085, size: 1_000_000 },
      { kind: 'stale', atMs: at(510), feed: 'multi', source: 'multi-2', symbol: 'EURUSD' },
    ];
    expect(readRecording(dir.path)).toEqual({ events: want, notes: [] });
    expect(calls).toEqual([`own q 0 ${T0 - 5} 70000.5 70001.25 0.5 null`, `multi-2 q 0 ${T0 - 1.5} 1.08501 1.08503 null null`, `own t 1 ${T0 + 1} 0.1234 null`, `multi-1 t 0 ${T0 + 505} 1.085 1000000`, 'multi-2 s 0']);
    expect(recorder.status()).toEqual({ dir: dir.path, records: 6, dropped: 0, failure: null });
  });

  test('records go to UTC hourly files YYYY-MM-DD/HH.rec.zst by the service clock, and each file read alone names its feeds', async () => {
    using dir = tempDir();
    const { clock, recorder, alpha } = rig(dir.path);
    alpha.quote(0, T0, 1, 2, 1, 1);
    clock.set(Date.parse('2026-03-04T16:00:00Z'));
    alpha.quote(1, clock.nowMs(), 3, 4, 1, 1);
    clock.set(Date.parse('2026-03-05T00:30:00Z'));
    alpha.trade(0, clock.nowMs(), 5, 1);
    await recorder.close();
    const files = listRecordingFiles(dir.path) as string[];
    expect(files.map((f) => f.slice(dir.path.length + 1))).toEqual(['2026-03-04/15.rec.zst', '2026-03-04/16.rec.zst', '2026-03-05/00.rec.zst']);
    expect(files.map((f) => readRecording(f).events.map((e) => (e.kind === 'sweep' ? e.kind : `${e.feed} ${e.symbol} ${e.kind}`)))).toEqual([['alpha BTCUSD quote'], ['alpha ZZTUSD quote'], ['alpha BTCUSD trade']]);
  });

  test('a file is readable while it is being written, up to its last whole block', async () => {
    using dir = tempDir();
    const { clock, recorder, alpha } = rig(dir.path);
    alpha.trade(0, T0, 1, 1);
    await recorder.settle();
    const [file] = listRecordingFiles(dir.path) as string[];
    expect(readRecording(file!).events.length).toBe(1);
    clock.advance(10);
    alpha.trade(0, T0 + 10, 2, 1);
    alpha.trade(0, T0 + 10, 3, 1);
    await recorder.settle();
    expect(readRecording(file!).events.map((e) => (e.kind === 'trade' ? e.price : null))).toEqual([1, 2, 3]);
    // A block half on disk (as a reader may find one mid-write) is left for later, with a note.
    const whole = readFileSync(file!);
    clock.advance(10);
    alpha.trade(0, T0 + 20, 4, 1);
    await recorder.close();
    const grown = readFileSync(file!);
    writeFileSync(file!, grown.subarray(0, whole.length + HEADER_BYTES + 2));
    const read = readRecording(file!);
    expect(read.events.length).toBe(3);
    expect(read.notes).toEqual([`${file}: the last block (byte ${whole.length}, 1 records) is incomplete, cut short by a crash or still being written: skipped`]);
  });

  test('a run that appends to the same hour file starts a segment of its own, with its own tables', async () => {
    using dir = tempDir();
    const first = rig(dir.path);
    first.alpha.quote(1, T0, 1, 2, null, null);
    await first.recorder.close();
    // The next run declares its feeds in another order: its records resolve against its own tables.
    const clock = new ManualClock(T0 + 1000);
    const recorder = new Recorder({ dir: dir.path, clock, log: () => {} });
    const multi = recorder.tap('multi', MULTI, keepingSink([]));
    const alpha = recorder.tap('alpha', [...ALPHA].reverse(), keepingSink([]));
    multi.source!('multi-1').trade(0, T0 + 1000, 1.1, null);
    alpha.quote(1, T0 + 1000, 3, 4, null, null);
    await recorder.close();
    expect(listRecordingFiles(dir.path)).toHaveLength(1);
    expect(readRecording(dir.path).events.map((e) => (e.kind === 'sweep' ? e.kind : `${e.source} ${e.symbol}`))).toEqual(['alpha ZZTUSD', 'multi-1 EURUSD', 'alpha BTCUSD']);
  });
});

describe('reading after a crash', () => {
  /** Three records, one block each; the file and where each block starts. */
  async function threeBlocks(path: string): Promise<{ file: string; starts: number[] }> {
    const { clock, recorder, alpha } = rig(path, { blockBytes: 1 });
    for (let i = 0; i < 3; i++) {
      alpha.trade(0, clock.nowMs(), 100 + i, 1);
      clock.advance(100);
    }
    await recorder.close();
    const file = (listRecordingFiles(path) as string[])[0]!;
    const starts = [...readBlocks(file, () => {}, () => false)].map((b) => b.offset);
    return { file, starts };
  }

  test('a torn last block, cut anywhere, is skipped with a note; the blocks before it are read', async () => {
    using dir = tempDir();
    const { file, starts } = await threeBlocks(dir.path);
    const size = statSync(file).size;
    const lastRecords = starts[starts.length - 1]!;
    const copy = join(dir.path, 'torn.rec.zst');
    for (const cut of [lastRecords + 1, lastRecords + HEADER_BYTES - 1, lastRecords + HEADER_BYTES, lastRecords + HEADER_BYTES + 3, size - 1]) {
      copyFileSync(file, copy);
      truncateSync(copy, cut);
      const read = readRecording(copy);
      expect(read.events.map((e) => (e.kind === 'trade' ? e.price : null))).toEqual([100, 101]);
      expect(read.notes).toHaveLength(1);
      expect(read.notes[0]).toMatch(/the last block \(byte \d+.*\) is incomplete, cut short by a crash or still being written: skipped$/);
    }
  });

  test('zeros a crash left after the last block are skipped with a note', async () => {
    using dir = tempDir();
    const { file } = await threeBlocks(dir.path);
    const size = statSync(file).size;
    appendFileSync(file, new Uint8Array(4096));
    const read = readRecording(file);
    expect(read.events.map((e) => (e.kind === 'trade' ? e.price : null))).toEqual([100, 101, 102]);
    expect(read.notes).toEqual([`${file}: bytes ${size}..${size + 4096} are not a recording block (not a block header): skipped`]);
  });

  test('a corrupt block in the middle is skipped with a note; the blocks after it are read', async () => {
    using dir = tempDir();
    const { file, starts } = await threeBlocks(dir.path);
    const bytes = readFileSync(file);
    // starts: declarations, then a records block per trade; spoil the second trade's frame.
    const second = starts[2]!;
    bytes[second + HEADER_BYTES + 10]! ^= 0xff;
    writeFileSync(file, bytes);
    const read = readRecording(file);
    expect(read.events.map((e) => (e.kind === 'trade' ? e.price : null))).toEqual([100, 102]);
    expect(read.notes).toHaveLength(1);
    expect(read.notes[0]).toStartWith(`${file}: the block at byte ${second} does not decode (`);
    expect(read.notes[0]).toEndWith('): 1 records skipped');
  });
});

describe('recording on a full disk', () => {
  let disk: SmallDisk;
  beforeAll(() => {
    disk = mountSmallDisk(2);
  });
  afterAll(() => disk.unmount());

  test('a failing write is logged once and its records counted as dropped; ingest goes on, and recording resumes once there is room', async () => {
    const dir = join(disk.path, 'rec');
    const { clock, recorder, alpha, logs, calls } = rig(dir, { blockBytes: 1 });
    alpha.trade(0, T0, 1, 1);
    await recorder.settle();
    const filler = disk.fill();
    for (let i = 0; i < 100; i++) {
      clock.advance(10);
      alpha.trade(0, clock.nowMs(), 2, 1);
    }
    await recorder.settle();
    // Every tick went on; what the last free bytes of the disk could not take was dropped, counted.
    expect(calls).toHaveLength(101);
    const failing = recorder.status();
    expect(failing.failure).toStartWith('ENOSPC');
    expect(failing.dropped).toBeGreaterThan(0);
    expect(failing.records + failing.dropped).toBe(101);
    expect(logs).toEqual([`error: recording to ${dir} fails (${failing.failure}): ticks go on to the ingest path unrecorded; 1 records dropped so far`]);
    rmSync(filler);
    clock.advance(10);
    alpha.trade(0, clock.nowMs(), 3, 1);
    await recorder.close();
    expect(logs[1]).toBe(`recording to ${dir} works again; ${failing.dropped} records were dropped meanwhile`);
    expect(recorder.status()).toEqual({ dir, records: failing.records + 1, dropped: failing.dropped, failure: null });
    // The file holds whole blocks only: what was written before the disk filled, then the rest.
    const read = readRecording(dir);
    expect(read.notes).toEqual([]);
    expect(read.events.map((e) => (e.kind === 'trade' ? e.price : null))).toEqual([1, ...Array<number>(failing.records - 1).fill(2), 3]);
  });
});
