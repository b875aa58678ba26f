// Restarts must never corrupt bars: after any sequence of clean stops and kills across minute,
// 5-minute and hour boundaries, every 5m/15m/1h/4h/1d bar (completed or in progress) equals the
// roll-up of its 1-minute bars. The clock is driven by --clock-start: each start jumps ahead.
import { describe, expect, test } from 'bun:test';
import { Store } from '../src/store/index.ts';
import { resolve } from 'node:path';
import { checkRollUps, copiedMinutes, minuteHistoryFrom } from './support/bar-rollups.ts';
import { until } from './support/cli.ts';
import { spawnServer, startServer, TEST_KEY } from './support/server.ts';
import { tempDir } from './support/temp-dir.ts';

const HISTORY = ['--history-days', '1', '--history-years', '0'];

/** Waits until the live feed has traded BTCUSD at or after `sinceMs` (a minute bar is in progress). */
async function untilTraded(server: { json(path: string): Promise<{ body: any }> }, sinceMs: number): Promise<void> {
  await until(async () => ((await server.json('/crypto/trade/last/BTCUSD')).body.timestamp ?? 0) >= sinceMs, `a BTCUSD trade after ${new Date(sinceMs).toISOString()}`);
}

describe('restarts across bar boundaries', () => {
  test('clean stops and kill -9 at minute, 5-minute and hour boundaries leave every timeframe equal to the roll-up of its minutes', async () => {
    using dir = tempDir();
    // Clean stops: the same minute again, then past a 5-minute boundary with minutes to fill.
    for (const start of ['2026-03-04T15:30:20Z', '2026-03-04T15:30:40Z', '2026-03-04T15:36:10Z']) {
      const server = await startServer({ dataDir: dir.path, args: [...HISTORY, '--clock-start', start] });
      await untilTraded(server, Date.parse(start));
      await server.stop();
    }
    // kill -9 in the middle of a minute past an hour boundary, then a start in the next minute.
    {
      await using server = await spawnServer(dir.path, [...HISTORY, '--clock-start', '2026-03-04T16:01:20Z']);
      await untilTraded(server, Date.parse('2026-03-04T16:01:20Z'));
      server.proc.kill('SIGKILL');
      await server.proc.exited;
    }
    const last = await startServer({ dataDir: dir.path, args: [...HISTORY, '--clock-start', '2026-03-04T16:02:30Z'] });
    await untilTraded(last, Date.parse('2026-03-04T16:02:30Z'));
    await last.stop();

    const store = Store.open({ dataDir: dir.path });
    try {
      const report = checkRollUps(store, minuteHistoryFrom(Date.parse('2026-03-04T15:30:00Z'), 1));
      expect(report.series).toBeGreaterThan(200);
      expect(report.mismatches.slice(0, 10)).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000);

  test('a first start killed while making its history, restarted a minute later, leaves no copied minute and every roll-up whole', async () => {
    using dir = tempDir();
    const args = ['--history-days', '2', '--history-years', '0', '--seed', '7'];
    const main = resolve(import.meta.dir, '../src/main.ts');
    const proc = Bun.spawn([process.execPath, main, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dir.path, '--dev-key', TEST_KEY, ...args, '--clock-start', '2026-03-04T15:30:10Z'], { stdout: 'pipe', stderr: 'pipe' });
    // Killed as soon as the first instruments' history is committed, long before it is all made.
    let out = '';
    const decoder = new TextDecoder();
    let written: RegExpExecArray | null = null;
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      out += decoder.decode(chunk);
      if ((written = /history (\d+)\/(\d+) instruments written/.exec(out))) break;
    }
    proc.kill('SIGKILL');
    await proc.exited;
    expect(written).not.toBeNull();
    expect(Number(written![1])).toBeLessThan(Number(written![2]));

    // The clock a minute on: a remade history would end a minute later than the one kept.
    const again = await startServer({ dataDir: dir.path, args: [...args, '--clock-start', '2026-03-04T15:31:10Z'] });
    await untilTraded(again, Date.parse('2026-03-04T15:31:10Z'));
    await again.stop();
    expect(again.logs.join('\n')).toContain('history ready');

    const store = Store.open({ dataDir: dir.path });
    try {
      const from = minuteHistoryFrom(Date.parse('2026-03-04T15:31:00Z'), 2);
      expect(copiedMinutes(store, from, Date.parse('2026-03-04T15:31:00Z')).slice(0, 5)).toEqual([]);
      const report = checkRollUps(store, from);
      expect(report.series).toBeGreaterThan(200);
      expect(report.mismatches.slice(0, 10)).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
