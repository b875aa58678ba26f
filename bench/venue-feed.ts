// Hot path: the venue client end to end without the server. A local venue (its own process, on the
// load core) replays Binance book-ticker frames as fast as the connection takes them; the venue
// client reads and parses them in its worker and hands them to this thread in batches, where a
// counting sink receives them. Measures ticks/s delivered to the serving thread.
import { binanceProtocol } from '../src/ingest/adapters/binance/binance-protocol.ts';
import { createVenueFeed } from '../src/ingest/adapters/venue-feed.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { startReplayVenue } from './lib/replay-venue.ts';

/** The "ticks/s in" target for the end-to-end bench; this row is its client-side share. */
const TARGET_TICKS_PER_S = 300_000;

export async function benchVenueFeed(ctx: BenchContext): Promise<Row[]> {
  const venue = await startReplayVenue(binanceProtocol.id, 0);
  let ticks = 0;
  let stale = 0;
  const feed = createVenueFeed(binanceProtocol, { url: venue.url }, { log: ctx.log });
  try {
    ctx.log(`venue-feed: ${binanceProtocol.defaultInstruments.length} instruments at full speed, ${ctx.warmupS} s warm-up, ${ctx.durationS} s measured`);
    await feed.start({ quote: () => void ticks++, trade: () => void ticks++, stale: () => void stale++ });
    await Bun.sleep(ctx.warmupS * 1000);
    const ticks0 = ticks;
    const sent0 = await venue.sent();
    const t0 = performance.now();
    await Bun.sleep(ctx.durationS * 1000);
    const seconds = (performance.now() - t0) / 1000;
    const ticksPerS = (ticks - ticks0) / seconds;
    const sentPerS = ((await venue.sent()) - sent0) / seconds;
    const health = feed.health();
    const problems: string[] = [];
    if (health.reconnects > 0) problems.push(`${health.reconnects} reconnects during the run`);
    if (health.parseErrors > 0) problems.push(`${health.parseErrors} parse errors`);
    return [{
      id: 'venue-feed.binance',
      bench: 'venue-feed',
      label: 'venue client binance → worker → thread',
      unit: 'ticks/s',
      ceiling: null,
      ceilingP50Ms: null,
      ceilingP99Ms: null,
      value: ticksPerS,
      p50Ms: null,
      p99Ms: null,
      mbPerS: null,
      ratio: null,
      target: `≥${TARGET_TICKS_PER_S.toLocaleString('en-US')} ticks/s`,
      pass: problems.length === 0 && ticksPerS >= TARGET_TICKS_PER_S,
      checkOn: 'value',
      problems,
      notes: [`the venue sent ${Math.round(sentPerS).toLocaleString('en-US')} frames/s; feed state ${health.state}, ${health.messagesPerSecond.toFixed(0)} msg/s by its own count`],
      details: { seconds, ticks_per_s: ticksPerS, venue_frames_per_s: sentPerS, health },
    }];
  } finally {
    await feed.stop();
    await venue.stop();
  }
}
