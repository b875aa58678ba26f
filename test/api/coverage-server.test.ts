// The coverage report over a real server: a running simulator's symbol shows bars, the server
// records when the simulator was live, and the downtime between a stopped run and the next one
// (which runs no feed) shows as a gap.
import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { CoverageSchema } from '../../src/domain/coverage-schema.ts';
import { MINUTE_MS } from '../../src/domain/timeframes.ts';
import { Store } from '../../src/store/index.ts';
import { until } from '../support/cli.ts';
import { startServer, WEDNESDAY_US_OPEN } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';

const WED = Date.UTC(2026, 2, 4);
const START = Date.parse(WEDNESDAY_US_OPEN);
const RESTART = START + 10 * MINUTE_MS + 30_000;

describe('coverage on a real server', () => {
  test('simulated bars, then a stop: the minutes nobody served are a gap', async () => {
    using dir = tempDir();
    {
      await using server = await startServer({ dataDir: dir.path });
      const { status, body } = await server.json('/coverage/crypto/BTCUSD?timeframe=1m&from=2026-03-04&to=2026-03-04');
      expect(status).toBe(200);
      expect(Value.Check(CoverageSchema, body)).toBe(true);
      // The simulator's history and live bars cover every minute that ended a settle lag ago
      // (15:28 at least: the clock starts at 15:30:00).
      expect(body.totals.gaps + body.totals.quiet).toBe(0);
      expect(body.ranges).toEqual([{ from: WED, to: body.classified_to - (body.classified_to % MINUTE_MS), kind: 'bars', count: body.totals.slots }]);
      expect(body.totals.slots).toBeGreaterThanOrEqual(929);
      // The simulator trades the minute the clock started in (or, on a slow start, a later one): its
      // bar is left in progress at the stop.
      await until(async () => (await server.json('/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04?limit=1')).body.results[0]?.t >= START, 'a live BTCUSD bar');
    }
    // The server recorded when the simulator was live, from its start to its stop.
    const store = Store.open({ dataDir: dir.path });
    const symId = store.registry.resolve('crypto', 'BTCUSD')!.id;
    const live = store.liveIntervals(symId, WED, WED + 86_400_000);
    const lastBar = store.openBar(symId, '1m') ?? store.lastBarBefore(symId, '1m', WED + 86_400_000);
    await store.close();
    expect(live.length).toBe(1);
    expect(live[0]!.fromMs).toBeGreaterThanOrEqual(START);
    expect(live[0]!.toMs).toBeGreaterThan(live[0]!.fromMs);
    // The service clock runs in real time from START: the stop falls in 15:30 unless the start took
    // long (a loaded machine), so the expectations follow the last bar, which is of the minute the
    // stop fell in or, had BTCUSD not traded in that one yet, of the minute before.
    const stopMinute = live[0]!.toMs - (live[0]!.toMs % MINUTE_MS);
    expect(lastBar!.t).toBeGreaterThanOrEqual(START);
    expect([stopMinute - MINUTE_MS, stopMinute]).toContain(lastBar!.t);
    const stoppedMinute = lastBar!.t + MINUTE_MS;
    expect(stoppedMinute).toBeLessThan(START + 10 * MINUTE_MS);

    // Ten minutes later a server with no feed: the minutes from the stop to now are a gap.
    await using again = await startServer({ dataDir: dir.path, args: ['--feed', 'none', '--clock-start', new Date(RESTART).toISOString()] });
    const { body } = await again.json('/coverage/crypto/BTCUSD?from=2026-03-04&to=2026-03-04');
    expect(Value.Check(CoverageSchema, body)).toBe(true);
    const gaps = (START + 10 * MINUTE_MS - stoppedMinute) / MINUTE_MS;
    expect(body.ranges).toEqual([
      { from: WED, to: stoppedMinute, kind: 'bars', count: (stoppedMinute - WED) / MINUTE_MS },
      { from: stoppedMinute, to: START + 10 * MINUTE_MS, kind: 'gap', count: gaps },
    ]);
    expect(body.totals).toEqual({ slots: (START + 10 * MINUTE_MS - WED) / MINUTE_MS, bars: (stoppedMinute - WED) / MINUTE_MS, quiet: 0, gaps, pending: 0 });
  }, 120_000);
});
