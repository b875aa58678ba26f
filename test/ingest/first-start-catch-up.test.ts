// A first start makes its history up to the minute it started in, which takes seconds: the minutes
// that end meanwhile get bars too, so the 1-minute series runs without a gap into the live feed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { HISTORY_BUILD_META, type HistoryBuildRecord } from '../../src/domain/history-build.ts';
import { Store } from '../../src/store/index.ts';
import { startServer, type TestServer } from '../support/server.ts';

/** 0.2 s before a minute ends: making the history runs past it. */
const START = '2026-03-04T15:30:59.800Z';
const MINUTE_OF_START = Date.parse('2026-03-04T15:30:00Z');

let server: TestServer;
beforeAll(async () => {
  // A real first start: its catch-up is what is tested, so no copied history (template: false).
  // The data dir outlives the stop: the test reads the store's record of the build after it.
  server = await startServer({ args: ['--clock-start', START, '--history-days', '2', '--history-years', '0'], template: false, keepDataDir: true });
}, 60_000);
afterAll(async () => {
  await server.stop();
  rmSync(server.dataDir, { recursive: true, force: true });
});

describe('first start across a minute boundary', () => {
  test('the minute the history was made in has its bar, and the series has no gap up to the live minute', async () => {
    const { status, body } = await server.json('/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04?sort=desc&limit=10');
    expect(status).toBe(200);
    const times: number[] = body.results.map((bar: { t: number }) => bar.t);
    expect(times).toContain(MINUTE_OF_START);
    const upToStart = times.filter((t) => t >= MINUTE_OF_START - 3 * 60_000);
    for (let i = 1; i < upToStart.length; i++) expect(upToStart[i - 1]! - upToStart[i]!).toBe(60_000);
    // Guards the premise: the minute of the start ended while the history was made, so the history
    // was extended past it (the catch-up), as the store records, rather than the live feed filling it.
    await server.stop();
    const store = Store.open({ dataDir: server.dataDir });
    const build = store.getMeta<HistoryBuildRecord>(HISTORY_BUILD_META);
    await store.close();
    expect(build!.headToMs).toBeGreaterThan(MINUTE_OF_START);
  });
});
