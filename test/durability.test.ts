// Kill the server at any moment: completed bars stay exactly as they were, the latest values are
// there at once, and the store opens cleanly. Runs `mds serve` as a child process.
import { describe, expect, test } from 'bun:test';
import { spawnServer } from './support/server.ts';
import { tempDir } from './support/temp-dir.ts';

type Bar = { o: number; h: number; l: number; c: number; v: number | null; t: number };

/**
 * Polls `probe` until it gives a value. The deadline holds on a loaded machine, where the first
 * start's history build and the simulator's catching up take minutes; a probe that holds ends the
 * wait at once.
 */
async function until<T>(what: () => string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what()}`);
    await Bun.sleep(250);
  }
}

describe('durability', () => {
  test('kill -9 in the middle of the feed loses no completed bar and keeps the latest values', async () => {
    using dir = tempDir();
    const RANGE = '/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04?sort=asc&limit=5000';
    let before: Bar[];
    let quoteBefore: { timestamp: number };
    {
      await using server = await spawnServer(dir.path, ['--clock-start', '2026-03-04T15:30:45Z']);
      // Wait for a minute completed by the live feed (15:30, sealed shortly after 15:31). The
      // feed runs 15 s into that minute, so BTCUSD (about one trade a second) has traded in it.
      let lastPrev: unknown;
      await until(() => `a live minute bar; last prev ${JSON.stringify(lastPrev)}; server said:\n${server.output().slice(-3000)}`, async () => {
        const { body } = await server.json('/crypto/agg/BTCUSD/prev?interval=1m');
        lastPrev = body;
        return body.bar_start === Date.parse('2026-03-04T15:30:00Z') ? true : undefined;
      });
      quoteBefore = (await server.json('/crypto/quote/BTCUSD')).body;
      before = (await server.json(RANGE)).body.results;
      // The feed keeps writing while we kill it: await a newer quote than the one read above.
      let lastQuote: unknown;
      await until(() => `a quote newer than ${quoteBefore.timestamp}; last ${JSON.stringify(lastQuote)}; server said:\n${server.output().slice(-3000)}`, async () => {
        const { body } = await server.json('/crypto/quote/BTCUSD');
        lastQuote = body;
        return body.timestamp > quoteBefore.timestamp ? true : undefined;
      });
      server.proc.kill('SIGKILL');
      await server.proc.exited;
    }
    await using again = await spawnServer(dir.path, ['--clock-start', '2026-03-04T15:40:00Z']);
    const after: Bar[] = (await again.json(RANGE)).body.results;
    // Every bar completed before the kill (all but the minute in progress) is unchanged.
    const completed = before.slice(0, -1);
    expect(after.slice(0, completed.length)).toEqual(completed);
    expect(completed.at(-1)!.t).toBe(Date.parse('2026-03-04T15:30:00Z'));
    // Minutes after the kill were filled, without gaps or duplicates.
    const ts = after.map((b) => b.t);
    expect(new Set(ts).size).toBe(ts.length);
    expect(ts.every((t, i) => i === 0 || t - ts[i - 1]! === 60_000)).toBe(true);
    const quoteAfter = (await again.json('/crypto/quote/BTCUSD')).body;
    expect(quoteAfter.timestamp).toBeGreaterThanOrEqual(quoteBefore.timestamp);
    expect(again.output()).toContain('resuming');
  }, 400_000);

  test('SIGTERM stops with exit code 0 and the data dir reopens with the same bars', async () => {
    using dir = tempDir();
    const RANGE = '/stocks/agg/US:AAPL/1/hour/2026-03-03/2026-03-04?sort=asc';
    let before: unknown;
    {
      await using server = await spawnServer(dir.path, ['--feed', 'sim']);
      before = (await server.json(RANGE)).body.results;
      server.proc.kill('SIGTERM');
      expect(await server.proc.exited).toBe(0);
      expect(server.output()).toContain('stopped');
    }
    await using again = await spawnServer(dir.path, ['--feed', 'none']);
    const after = (await again.json(RANGE)).body.results as Bar[];
    expect(after.slice(0, (before as Bar[]).length - 1)).toEqual((before as Bar[]).slice(0, -1));
  });

  test('a second server on the same data dir is refused with a clear message', async () => {
    using dir = tempDir();
    await using first = await spawnServer(dir.path, ['--feed', 'none']);
    const proc = Bun.spawn([process.execPath, 'src/main.ts', 'serve', '--port', '0', '--data-dir', dir.path], { stdout: 'pipe', stderr: 'pipe' });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain('is in use by another mds');
    expect((await first.json('/crypto/symbols')).status).toBe(200);
  });
});
