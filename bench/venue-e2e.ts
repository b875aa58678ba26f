// End to end from a venue: a local venue (own process, load core) replays Binance book-ticker frames,
// each a new top of book, into a real `mds serve --feed binance --feeds FILE` whose feeds file points
// the feed at it. Three phases, the venue at full speed in the first two:
//   1. ticks in: what the feed parsed and what reached the ingest path (store, bars, stream), per
//      second, from the feed's own counters in /health (ticks, conflated quotes, dropped ticks);
//   2. fan-out: the same with 1,000 WebSocket clients subscribed to every crypto quote;
//   3. the quote route's p99 with the venue sending 50,000 frames/s against the same route idle.
// Targets (issue 14): ≥ 300,000 ticks/s in, fan-out ≥ 1,000,000 msg/s, busy p99 ≤ 1.2× idle p99.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUN, LOAD_CORE, removeDir, spawnPinned, tempDir, withTimeout, type Spawned } from './lib/proc.ts';
import { startReplayVenue } from './lib/replay-venue.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { percentile } from './fanout.ts';
import { startMds } from './lib/server.ts';
import { ensureWrk, runWrk } from './lib/wrk.ts';

const TARGET_TICKS_IN = 300_000;
const TARGET_FANOUT = 1_000_000;
const MAX_P99_RATIO = 1.2;
const BUSY_FRAMES_PER_S = 50_000;
const QUOTE_PATH = '/crypto/quote/BTCUSD';

export interface VenueE2EOptions {
  connections: number;
}

/** `--feeds FILE`: feed id to its settings (VenueFeedSettings), here only the URL of the local venue. */
export function writeFeedsFile(dir: string, url: string): string {
  const file = join(dir, 'feeds.json');
  writeFileSync(file, JSON.stringify({ feeds: { binance: { url } } }, null, 2));
  return file;
}

interface FeedCounters {
  atMs: number;
  ticks: number;
  conflated: number;
  dropped: number;
}

/** The binance feed's counters from /health. */
async function feedCounters(base: string): Promise<FeedCounters> {
  const body = (await (await fetch(`${base}/health`)).json()) as { feeds: { id: string; ticks: number | null; conflated_quotes: number; dropped_ticks: number }[] };
  const feed = body.feeds.find((f) => f.id === 'binance');
  if (feed === undefined || feed.ticks === null) throw new Error('/health lists no binance feed with a tick count');
  return { atMs: performance.now(), ticks: feed.ticks, conflated: feed.conflated_quotes, dropped: feed.dropped_ticks };
}

/** Per second between two readings: ticks parsed, and ticks that reached the ingest path. */
function rates(a: FeedCounters, b: FeedCounters): { parsed: number; ingested: number; conflated: number; dropped: number } {
  const s = (b.atMs - a.atMs) / 1000;
  const parsed = (b.ticks - a.ticks) / s;
  const conflated = (b.conflated - a.conflated) / s;
  const dropped = (b.dropped - a.dropped) / s;
  return { parsed, ingested: parsed - conflated - dropped, conflated, dropped };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const baseRow = { ceiling: null, ceilingP50Ms: null, ceilingP99Ms: null, p50Ms: null, p99Ms: null, mbPerS: null, ratio: null, checkOn: 'value' as const, problems: [] as string[], notes: [] as string[] };

export async function benchVenueE2E(ctx: BenchContext, opts: VenueE2EOptions): Promise<Row[]> {
  ensureWrk(ctx.log);
  const venue = await startReplayVenue('binance', 0);
  const dir = tempDir('mds-bench-feeds-');
  const clients: Spawned[] = [];
  try {
    const feedsFile = writeFeedsFile(dir, venue.url);
    ctx.log(`venue-e2e: mds serve --feed binance --feeds ${feedsFile} (venue ${venue.url}, full speed)`);
    const server = await startMds({ args: ['--feed', 'binance', '--feeds', feedsFile, '--history-days', '1', '--history-years', '0'] });
    try {
      const rows: Row[] = [];
      // 1. Ticks in, venue at full speed, no stream clients.
      await Bun.sleep(ctx.warmupS * 1000);
      const in0 = await feedCounters(server.base);
      await Bun.sleep(ctx.durationS * 1000);
      const alone = rates(in0, await feedCounters(server.base));
      ctx.log(`venue-e2e: ${fmt(alone.parsed)} ticks/s parsed, ${fmt(alone.ingested)} ingested, ${fmt(alone.conflated)} conflated, ${fmt(alone.dropped)} dropped`);
      rows.push({
        ...baseRow,
        id: 'venue-e2e.in',
        bench: 'venue-e2e',
        label: 'venue binance → mds ticks in (ingested)',
        unit: 'ticks/s',
        value: alone.ingested,
        target: `≥${TARGET_TICKS_IN.toLocaleString('en-US')} ticks/s`,
        pass: alone.ingested >= TARGET_TICKS_IN,
        notes: [`parsed ${fmt(alone.parsed)}/s; conflated ${fmt(alone.conflated)}/s and dropped ${fmt(alone.dropped)}/s before ingest`],
        details: alone,
      });

      // 2. Fan-out: the venue still at full speed, 1,000 clients on every crypto quote.
      const subscribe = JSON.stringify({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['*'] });
      const config = { port: server.port, key: server.key, connections: opts.connections, subscribe, warmupS: ctx.warmupS, durationS: ctx.durationS, sampleEvery: 8 };
      const client = spawnPinned(LOAD_CORE, [BUN, join(import.meta.dir, 'lib', 'fanout-client.ts'), JSON.stringify(config)], { stdin: 'pipe' });
      clients.push(client);
      await withTimeout(client.stdout.waitFor(/^SUBSCRIBED/), 60_000, 'subscribing the fan-out clients');
      const stdin = client.proc.stdin;
      if (stdin && typeof stdin !== 'number') {
        stdin.write('go\n');
        void stdin.flush();
      }
      await Bun.sleep(ctx.warmupS * 1000);
      const fan0 = await feedCounters(server.base);
      await Bun.sleep(ctx.durationS * 1000);
      const fanning = rates(fan0, await feedCounters(server.base));
      const result = JSON.parse((await withTimeout(client.stdout.waitFor(/^RESULT (.*)$/), 30_000, 'the fan-out result'))[1]!) as { messages: number; seconds: number; closed: number; samples: number; histogram: [number, number][] };
      const fanout = result.messages / result.seconds;
      // Venue frame to client, from the ticks' `ts` (the venue's receive time, the feed's tsMs).
      const latency = new Map(result.histogram);
      rows.push({
        ...baseRow,
        id: 'venue-e2e.fanout',
        bench: 'venue-e2e',
        label: `venue binance → ${opts.connections} ws conns`,
        unit: 'msg/s',
        value: fanout,
        p50Ms: percentile(latency, result.samples, 50),
        p99Ms: percentile(latency, result.samples, 99),
        target: `≥${TARGET_FANOUT.toLocaleString('en-US')} msg/s`,
        pass: result.closed === 0 && fanout >= TARGET_FANOUT,
        problems: result.closed > 0 ? [`${result.closed} connections closed`] : [],
        notes: [`every client on every crypto quote; meanwhile parsed ${fmt(fanning.parsed)} ticks/s, ingested ${fmt(fanning.ingested)}/s, conflated ${fmt(fanning.conflated)}/s; p50/p99: tick ts to client`],
        details: { connections: opts.connections, msgs_per_s: fanout, closed: result.closed, feed: fanning },
      });
      await client.stop(2000);

      // 2. Quote p99 with the venue at 50,000 frames/s, then idle.
      const wrk = (label: string) => {
        ctx.log(`venue-e2e: GET ${QUOTE_PATH} with the venue ${label}, ${ctx.durationS} s`);
        return runWrk(server.base + QUOTE_PATH, { seconds: ctx.durationS, connections: 64, headers: { 'x-api-key': server.key } });
      };
      venue.setRate(BUSY_FRAMES_PER_S);
      await Bun.sleep(ctx.warmupS * 1000);
      const busy = await wrk(`at ${BUSY_FRAMES_PER_S.toLocaleString('en-US')} frames/s`);
      venue.setRate(-1);
      await Bun.sleep(ctx.warmupS * 1000);
      const idle = await wrk('idle');
      const ratio = busy.latencyMs.p99 / idle.latencyMs.p99;
      rows.push({
        ...baseRow,
        id: 'venue-e2e.quote-p99',
        bench: 'venue-e2e',
        label: `quote p99, venue at 50k/s vs idle`,
        unit: 'req/s',
        value: busy.requestsPerS,
        p50Ms: busy.latencyMs.p50,
        p99Ms: busy.latencyMs.p99,
        ceiling: idle.requestsPerS,
        ceilingP50Ms: idle.latencyMs.p50,
        ceilingP99Ms: idle.latencyMs.p99,
        ratio,
        target: `busy p99 ≤${MAX_P99_RATIO}× idle p99`,
        pass: ratio <= MAX_P99_RATIO,
        notes: ['ceiling columns: the same route with the venue idle; ratio = busy p99 / idle p99'],
        details: { busy, idle },
      });
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    await Promise.all(clients.map((c) => c.stop(2000)));
    await venue.stop();
    removeDir(dir);
  }
}
