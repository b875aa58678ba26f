// Retention over a real server: restarted with --retain 1m=2d on a data dir holding 4 days of
// 1-minute history, it removes in the background the 1-minute bars of every whole chunk before
// the cutoff, leaves every newer bar and every other timeframe as it was, and a range over the
// removed span answers 200 with no bars; `mds compact` then gives the space back.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bar } from '../src/domain/bar.ts';
import { chunkStartOf } from '../src/store/bars.ts';
import { DAY_MS } from '../src/domain/timeframes.ts';
import { runMds, until } from './support/cli.ts';
import { startServer, WEDNESDAY_US_OPEN, type TestServer } from './support/server.ts';

/** Every bar of a window, ascending, page by page. */
async function allBars(server: TestServer, path: string): Promise<Bar[]> {
  const out: Bar[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page: { status: number; body: { results: Bar[]; next_offset: number | null } } = await server.json(`${path}?sort=asc&limit=5000&offset=${offset}`);
    expect(page.status).toBe(200);
    out.push(...page.body.results);
    offset = page.body.next_offset;
  }
  return out;
}

const ARGS = ['--history-days', '4'];
const MINUTES = '/crypto/agg/BTCUSD/1/minute/2026-02-28/2026-03-04';
const FIVES = '/crypto/agg/BTCUSD/5/minute/2026-02-28/2026-03-04';

describe('retention', () => {
  test('bars past --retain are removed in the background, newer ones and other timeframes untouched', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mds-retain-'));
    try {
      let minutes: Bar[];
      let fives: Bar[];
      {
        await using server = await startServer({ dataDir, args: ARGS });
        // The last bar of each may be in progress (a restart finishes it otherwise): completed ones only.
        minutes = (await allBars(server, MINUTES)).slice(0, -1);
        fives = (await allBars(server, FIVES)).slice(0, -1);
      }
      // Whole chunks of 1,024 bars go: those ending before the cutoff (now - 2 days). The server's
      // clock starts at WEDNESDAY_US_OPEN; the boundary is the same for the minutes this test runs.
      const startMs = Date.parse(WEDNESDAY_US_OPEN);
      const boundary = chunkStartOf('1m', startMs - 2 * DAY_MS);
      expect(chunkStartOf('1m', startMs + 10 * 60_000 - 2 * DAY_MS)).toBe(boundary);
      expect(minutes[0]!.t).toBeLessThan(boundary - DAY_MS / 2);

      await using server = await startServer({ dataDir, args: [...ARGS, '--retain', '1m=2d'] });
      await until(async () => server.logs.some((line) => line.startsWith('retention: removed')), 'the retention pass');
      const after = await allBars(server, MINUTES);
      const lastBefore = minutes[minutes.length - 1]!.t;
      expect(after.filter((b) => b.t <= lastBefore)).toEqual(minutes.filter((b) => b.t >= boundary));
      expect(after[0]!.t).toBe(boundary);
      // Other timeframes keep their default retention.
      expect((await allBars(server, FIVES)).filter((b) => b.t <= fives[fives.length - 1]!.t)).toEqual(fives);

      // A window wholly inside the removed span: 200 with no bars, as before any history.
      const removed = await server.json('/crypto/agg/BTCUSD/1/minute/2026-02-28/2026-03-01');
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ results_count: 0, total_count: 0, results: [], next_offset: null });

      // The pass logs what it removed and what it cost.
      expect(server.logs.find((line) => line.startsWith('retention: removed'))).toMatch(/^retention: removed \d+ bar chunks \(up to \d+ bars\) in \d+ ms, \d+ transactions, the longest step [\d.]+ ms$/);

      // mds compact gives the space back: refused while the server runs, then a smaller file with the same bars.
      const busy = await runMds('compact', '--data-dir', dataDir);
      expect(busy.code).toBe(1);
      expect(busy.err).toContain('is in use by another mds');
      const kept = await allBars(server, MINUTES);
      await server.stop();
      const compacted = await runMds('compact', '--data-dir', dataDir);
      expect(compacted.code).toBe(0);
      const sizes = /compacted .*: ([\d.]+) MiB -> ([\d.]+) MiB in [\d.]+s\n$/.exec(compacted.out);
      expect(sizes).not.toBeNull();
      expect(Number(sizes![2])).toBeLessThan(Number(sizes![1]));
      await using reopened = await startServer({ dataDir, args: [...ARGS, '--feed', 'none'] });
      // Completed bars: the one in progress moved on until the stop.
      const completed = (bars: Bar[]) => bars.filter((b) => b.t < kept[kept.length - 1]!.t);
      expect(completed(await allBars(reopened, MINUTES))).toEqual(completed(kept));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
