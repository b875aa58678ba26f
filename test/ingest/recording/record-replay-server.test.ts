// Record and replay on real servers over real HTTP: `--record DIR` writes what a feed hands the
// ingest path to files readable while the server runs; `--feed replay:DIR` on a fresh data dir
// serves the same bars, is listed in /health live then stopped; bad specs exit 2 naming what they take.
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FeedInstrument } from '../../../src/domain/feed.ts';
import { runMds, until } from '../../support/cli.ts';
import { FakeFeed } from '../../support/fake-feed.ts';
import { readRecording } from '../../support/recording.ts';
import { startServer, WEDNESDAY_US_OPEN } from '../../support/server.ts';
import { tempDir } from '../../support/temp-dir.ts';

const BTC: FeedInstrument = { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' };
const ETH: FeedInstrument = { assetClass: 'crypto', symbol: 'ETHUSD', venueSymbol: 'ETH-USD' };
const T = Date.parse(WEDNESDAY_US_OPEN);
const BARS = (symbol: string) => `/crypto/agg/${symbol}/1/minute/2026-03-04/2026-03-04?sort=asc`;

/** Ticks over two minutes of two symbols, a stale mark between: the second minute's trades close the first. */
function pushTicks(feed: FakeFeed): number {
  let n = 0;
  for (let i = 0; i < 40; i++) {
    feed.quote('BTCUSD', T + i * 50, 70_000 + i, 70_001 + i);
    feed.trade('BTCUSD', T + i * 50 + 10, 70_000.5 + (i % 7), 0.01 * (i + 1));
    feed.trade('ETHUSD', T + i * 70, 3500 - i / 4, null);
    n += 3;
  }
  feed.stale('ETHUSD');
  feed.trade('BTCUSD', T + 60_500, 70_100, 1);
  feed.trade('ETHUSD', T + 61_000, 3490, 2);
  return n + 2;
}

const tickCount = (rec: string) => readRecording(rec).events.filter((e) => e.kind === 'quote' || e.kind === 'trade').length;

describe('record and replay on a real server', () => {
  test('--record writes the feed\'s ticks, readable while the server runs; a replay of them serves the same bars and is listed in /health', async () => {
    using rec = tempDir('mds-rec-');
    const fake = new FakeFeed('fake', [BTC, ETH]);
    const recorded = await startServer({ args: ['--feed', 'none', '--record', rec.path], feeds: [fake] });
    let liveBars: unknown[];
    try {
      expect(recorded.logs).toContain(`recording every feed's ticks to ${rec.path} (hourly files)`);
      const n = pushTicks(fake);
      // The recorder writes a block a second: the file is read while the server still writes it.
      await until(async () => tickCount(rec.path) === n, 'the ticks in the recording');
      expect(readRecording(rec.path).events.filter((e) => e.kind === 'stale')).toEqual([{ kind: 'stale', atMs: expect.any(Number), feed: 'fake', source: 'fake', symbol: 'ETHUSD' }]);
      const recording = (await recorded.json('/health')).body.recording;
      expect(recording).toEqual({ dir: rec.path, records: expect.any(Number), dropped_records: 0, writes: 'ok', write_error: null });
      // The ticks, the stale mark and any sweep that sealed bars before them.
      expect(recording.records).toBeGreaterThanOrEqual(n + 1);
      liveBars = await Promise.all(['BTCUSD', 'ETHUSD'].map(async (s) => (await recorded.json(BARS(s))).body));
      expect((liveBars[0] as { results_count: number }).results_count).toBe(2);
    } finally {
      await recorded.stop();
    }
    expect(readRecording(rec.path).notes).toEqual([]);

    await using replayed = await startServer({ defaults: false, args: ['--feed', `replay:${rec.path}:speed=max`] });
    await until(async () => (await replayed.json('/health')).body.feeds[0].state === 'stopped', 'the replay to end');
    const health = (await replayed.json('/health')).body;
    expect(health.status).toBe('ok');
    expect(health.recording).toBeUndefined();
    expect(health.feeds).toEqual([
      {
        id: 'replay',
        state: 'stopped',
        connected_since: null,
        last_message_age_ms: expect.any(Number),
        messages_per_second: 0,
        reconnects: 0,
        parse_errors: 0,
        sequence_gaps: 0,
        instruments: 2,
        reason: 'the recording was replayed to its end: 122 ticks from 1 files',
        instrument_errors: {},
        ticks: 122,
        conflated_quotes: 0,
        dropped_ticks: 0,
        corporate_actions: null,
      },
    ]);
    expect(await Promise.all(['BTCUSD', 'ETHUSD'].map(async (s) => (await replayed.json(BARS(s))).body))).toEqual(liveBars);
  });

  test('a replay paced in real time is live in /health while it plays, and stops with the server', async () => {
    using rec = tempDir('mds-rec-');
    const fake = new FakeFeed('fake', [BTC, ETH]);
    {
      await using recorded = await startServer({ args: ['--feed', 'none', '--record', rec.path], feeds: [fake] });
      const n = pushTicks(fake);
      await until(async () => tickCount(rec.path) === n, 'the ticks in the recording');
      // A last tick once those are on disk (at least one poll later): at 0.01× the replay takes
      // a hundred times that long to reach it.
      fake.trade('BTCUSD', T + 62_000, 70_200, 1);
      await until(async () => tickCount(rec.path) === n + 1, 'the last tick in the recording');
    }
    await using replayed = await startServer({ defaults: false, args: ['--feed', `replay:${rec.path}:speed=0.01`] });
    await until(async () => (await replayed.json('/health')).body.feeds[0].ticks === 122, 'the first ticks replayed');
    const health = (await replayed.json('/health')).body;
    expect(health.feeds[0]).toMatchObject({ id: 'replay', state: 'live', reason: null, ticks: 122, instruments: 2 });
    expect(health.feed).toBe(`replay:${rec.path}:speed=0.01`);
  });
});

describe('replay and record usage errors exit 2 before the data dir is made', () => {
  test.each([
    [['--feed', 'replay:'], 'mds: --feed: a replay needs the path of a recording file or directory: replay:PATH[:speed=N|max][:loop], e.g. replay:./rec:speed=max'],
    [['--feed', 'replay'], 'mds: --feed: a replay needs the path of a recording file or directory'],
    [['--feed', 'replay:./rec:speed=fast'], `mds: --feed: replay speed takes a number from 0.01 to 10000 (N× real time) or 'max' (as fast as the ingest path takes them), got "fast"`],
    [['--feed', 'replay:./rec:speed=0'], 'mds: --feed: replay speed takes a number from 0.01 to 10000'],
    [['--feed', 'replay:./rec:pace=2'], 'mds: --feed: unknown replay option "pace=2"; the options are speed=N|max and loop (replay:PATH[:speed=N|max][:loop])'],
    [['--feed', 'sim,replay:./rec'], 'mds: --feed: a replay runs alone (the service clock follows the recording): replay:PATH[:speed=N|max][:loop], got "sim,replay:./rec"'],
    [['--feed', 'replay:./rec', 'speed=max'], 'mds: --feed: replay options follow the path after a colon: --feed replay:./rec:speed=max'],
    [['--feed', 'replay:/no/such/recording'], 'mds: --feed replay:/no/such/recording: /no/such/recording does not exist'],
  ])('%p', async (args, message) => {
    using dir = tempDir();
    const r = await runMds('serve', '--data-dir', join(dir.path, 'data'), ...args);
    expect(r.code).toBe(2);
    expect(r.err).toStartWith(message);
    expect(existsSync(join(dir.path, 'data'))).toBe(false);
  });

  test('a directory without recordings, a clock flag with a replay, an unwritable --record dir', async () => {
    using dir = tempDir();
    mkdirSync(join(dir.path, 'empty'));
    const data = join(dir.path, 'data');
    const empty = await runMds('serve', '--data-dir', data, '--feed', `replay:${join(dir.path, 'empty')}`);
    expect([empty.code, empty.err]).toEqual([2, `mds: --feed replay:${join(dir.path, 'empty')}: ${join(dir.path, 'empty')} holds no recording files (*.rec.zst)\n`]);
    const clocked = await runMds('serve', '--data-dir', data, '--feed', `replay:${join(dir.path, 'empty')}`, '--clock-start', WEDNESDAY_US_OPEN);
    expect([clocked.code, clocked.err]).toEqual([2, 'mds: --clock-start cannot be combined with --feed replay:...: the service clock follows the recording\n']);
    const unwritable = await runMds('serve', '--data-dir', data, '--feed', 'none', '--record', '/proc/no-recording-here');
    expect(unwritable.code).toBe(2);
    expect(unwritable.err).toStartWith('mds: --record /proc/no-recording-here: cannot write there (');
    expect(existsSync(data)).toBe(false);
  });
});
