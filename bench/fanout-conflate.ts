// Fan-out at full venue speed with the slow-consumer policy `conflate` (issue 33): a local venue
// replays Binance book tickers as fast as mds takes them, into `mds serve --feed binance`, and
// 1,000 WebSocket clients with `?slow=conflate` take every crypto quote. Three measurements, each
// from the same client code (bench/lib/fanout-client.ts):
//   1. the ceiling: a bare Bun.serve publishing quote frames to one topic as fast as the clients
//      take them (bench/lib/publish-ceiling-server.ts), on the server core, one frame per venue
//      instrument per turn of its event loop: conflated to the newest quote per instrument, mds
//      cannot put more in one send to a client, and on loopback the sends per second are the
//      limit of both (docs/performance.md, "Fan-out with conflate");
//   2. mds, 1,000 fast clients: messages/s delivered, p50/p99 tick ts to client, evictions;
//   3. mds, 900 fast clients and 100 that stop reading (bench/lib/stalled-clients.ts): the 900's
//      messages/s and p99, compared with run 2's p99.
// Targets: ≥ 0.8× the ceiling's msg/s (issue 33 asked ≥ 2.5 M msg/s, and for ratios to a ceiling
// measured in the same run wherever one exists: the ceiling itself moved from 1.8 to 2.4 M msg/s
// between runs on one day), p99 < 50 ms, none evicted; the stalled 100 move the 900's p99 by ≤ 20%.
// Why 0.8 and not more: the ceiling does nothing but publish, while mds, on the same core, also
// runs its venue worker (16% of the core at full venue speed, measured) and the ingest path.
import { join } from 'node:path';
import { percentile } from './fanout.ts';
import { BUN, cpuSeconds, LOAD_CORE, removeDir, SERVER_CORE, spawnPinned, tempDir, withTimeout, type Spawned } from './lib/proc.ts';
import { startReplayVenue } from './lib/replay-venue.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { startMds } from './lib/server.ts';
import { writeFeedsFile } from './venue-e2e.ts';
import { venueProtocolById } from '../src/ingest/adapters/registry.ts';

const VENUE = 'binance';
/** The instruments the venue replays: the most quotes a conflating server has for one pass. */
const INSTRUMENTS = venueProtocolById(VENUE)!.defaultInstruments.length;

const MIN_CEILING_RATIO = 0.8;
const MAX_P99_MS = 50;
const MAX_STALLED_P99_RATIO = 1.2;
const STALLED = 100;
const SUBSCRIBE = JSON.stringify({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['*'] });
const CONFLATE = '&slow=conflate';
/**
 * How long the stalled clients may take to back up: the kernel holds a few MB per connection (the
 * send buffer grows to 4 MiB here) before the server's own buffer grows, at a few hundred kB/s.
 */
const STALL_WAIT_MS = 240_000;

export interface FanoutConflateOptions {
  connections: number;
}

interface Measured {
  connections: number;
  msgsPerS: number;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Fast connections the server closed during the run. */
  closed: number;
  subscribed: number;
  clientCpuShare: number;
  serverCpuShare: number | null;
  errors: string[];
}

interface ClientResult {
  connections: number;
  subscribed: number;
  closed: number;
  seconds: number;
  messages: number;
  samples: number;
  cpuShare: number;
  histogram: [number, number][];
  errors: string[];
}

/** `fast` measuring clients (and `stalled` ones that stop reading) against the server on `port`. */
/** Resolves once the server has logged that it holds back the connection `sessionId` (once per connection). */
type HeldBack = (sessionId: string) => Promise<unknown>;

async function measure(ctx: BenchContext, port: number, key: string, serverPid: number, fast: number, query: string, stalled: number, heldBack?: HeldBack): Promise<Measured & { stalledHeld: number }> {
  let stalledHeld = 0;
  const children: Spawned[] = [];
  try {
    if (stalled > 0) {
      const config = { port, key, connections: stalled, query, subscribe: SUBSCRIBE };
      const slow = spawnPinned(LOAD_CORE, [BUN, join(import.meta.dir, 'lib', 'stalled-clients.ts'), JSON.stringify(config)]);
      children.push(slow);
      const ids = (await withTimeout(slow.stdout.waitFor(/^STALLED \d+ (.*)$/), 60_000, 'connecting the stalled clients'))[1]!.split(',');
      // Measured only once the server holds them back (or after the wait, noted in the row).
      ctx.log(`fanout-conflate: waiting for the server to hold back the ${stalled} stalled clients (up to ${STALL_WAIT_MS / 1000} s)`);
      if (heldBack) {
        const all = Promise.all(ids.map((id) => heldBack(id).then(() => stalledHeld++)));
        await Promise.race([all, Bun.sleep(STALL_WAIT_MS)]);
      }
      ctx.log(`fanout-conflate: ${stalledHeld} of ${stalled} held back`);
    }
    const config = { port, key, connections: fast, subscribe: SUBSCRIBE, warmupS: ctx.warmupS, durationS: ctx.durationS, sampleEvery: 8, query };
    const client = spawnPinned(LOAD_CORE, [BUN, join(import.meta.dir, 'lib', 'fanout-client.ts'), JSON.stringify(config)], { stdin: 'pipe' });
    children.push(client);
    const failed = client.proc.exited.then((code) => Promise.reject(new Error(`fan-out client exited with code ${code}: ${client.stderr.text()}`)));
    await withTimeout(Promise.race([client.stdout.waitFor(/^SUBSCRIBED/), failed]), 60_000, 'subscribing the fan-out clients');
    const stdin = client.proc.stdin;
    if (stdin && typeof stdin !== 'number') {
      stdin.write('go\n');
      void stdin.flush();
    }
    await Bun.sleep(ctx.warmupS * 1000);
    const cpu0 = cpuSeconds(serverPid);
    const t0 = performance.now();
    const result = JSON.parse((await withTimeout(client.stdout.waitFor(/^RESULT (.*)$/), (ctx.durationS + 30) * 1000, 'the fan-out result'))[1]!) as ClientResult;
    const cpu1 = cpuSeconds(serverPid);
    const histogram = new Map(result.histogram);
    return {
      connections: fast,
      msgsPerS: result.messages / result.seconds,
      p50Ms: percentile(histogram, result.samples, 50),
      p99Ms: percentile(histogram, result.samples, 99),
      closed: result.closed,
      subscribed: result.subscribed,
      clientCpuShare: result.cpuShare,
      serverCpuShare: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / ((performance.now() - t0) / 1000) : null,
      errors: result.errors,
      stalledHeld,
    };
  } finally {
    await Promise.all(children.map((c) => c.stop(2000)));
  }
}

async function measureCeiling(ctx: BenchContext, connections: number): Promise<Measured> {
  const server = spawnPinned(SERVER_CORE, [BUN, join(import.meta.dir, 'lib', 'publish-ceiling-server.ts'), '--per-pass', String(INSTRUMENTS)]);
  try {
    const m = await withTimeout(server.stdout.waitFor(/^READY (\d+)$/), 30_000, 'starting the publish ceiling');
    ctx.log(`fanout-conflate: ceiling (bare server.publish, ${INSTRUMENTS} frames a turn) to ${connections} connections`);
    return await measure(ctx, Number(m[1]), 'ceiling', server.pid, connections, '', 0);
  } finally {
    await server.stop(2000);
  }
}

const count = (text: string, needle: string) => text.split(needle).length - 1;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number | null) => (n === null ? '?' : `${n.toFixed(1)} ms`);

export async function benchFanoutConflate(ctx: BenchContext, opts: FanoutConflateOptions): Promise<Row[]> {
  const ceiling = await measureCeiling(ctx, opts.connections);
  const venue = await startReplayVenue(VENUE, 0);
  const dir = tempDir('mds-bench-feeds-');
  try {
    const server = await startMds({ args: ['--feed', VENUE, '--feeds', writeFeedsFile(dir, venue.url), '--history-days', '1', '--history-years', '0'] });
    try {
      ctx.log(`fanout-conflate: venue binance at full speed, ${opts.connections} clients with ?slow=conflate on every crypto quote`);
      const all = await measure(ctx, server.port, server.key, server.pid, opts.connections, CONFLATE, 0);
      const evictedAll = count(server.logs(), 'as a slow consumer');
      const heldAll = count(server.logs(), 'is backed up');
      const fast = opts.connections - STALLED;
      ctx.log(`fanout-conflate: the same with ${fast} fast clients and ${STALLED} that stop reading`);
      const mixed = await measure(ctx, server.port, server.key, server.pid, fast, CONFLATE, STALLED, (id) => server.logLine(new RegExp(`stream: ${id} \\(key .* is backed up`)));
      const logs = server.logs();
      const evictedMixed = count(logs, 'as a slow consumer') - evictedAll;
      const heldMixed = mixed.stalledHeld;
      return [rowAll(opts.connections, ceiling, all, evictedAll, heldAll), rowMixed(fast, ceiling, all, mixed, evictedMixed, heldMixed)];
    } finally {
      await server.stop();
    }
  } finally {
    await venue.stop();
    removeDir(dir);
  }
}

const problemsOf = (m: Measured) => [
  ...(m.subscribed < m.connections ? [`only ${m.subscribed} of ${m.connections} connections subscribed`] : []),
  ...m.errors.map((e) => `server said: ${e.slice(0, 200)}`),
];

const ceilingNote = (c: Measured) => `ceiling: bare Bun.serve publishing quote frames to one topic, one per instrument (${INSTRUMENTS}) a turn, as fast as ${c.connections} clients take them: ${fmt(c.msgsPerS)} msg/s, p99 ${ms(c.p99Ms)}, its server ${c.serverCpuShare === null ? '?' : `${(c.serverCpuShare * 100).toFixed(0)}%`} of core 0, clients ${(c.clientCpuShare * 100).toFixed(0)}% of core 1`;

function rowAll(connections: number, ceiling: Measured, all: Measured, evicted: number, held: number): Row {
  return {
    id: 'fanout-conflate',
    bench: 'fanout-conflate',
    label: `venue binance → ${connections} conflate conns`,
    unit: 'msg/s',
    ceiling: ceiling.msgsPerS,
    ceilingP50Ms: ceiling.p50Ms,
    ceilingP99Ms: ceiling.p99Ms,
    value: all.msgsPerS,
    p50Ms: all.p50Ms,
    p99Ms: all.p99Ms,
    mbPerS: null,
    ratio: all.msgsPerS / ceiling.msgsPerS,
    target: `≥${MIN_CEILING_RATIO}× ceiling, p99 <${MAX_P99_MS} ms, 0 evicted`,
    pass: all.msgsPerS >= MIN_CEILING_RATIO * ceiling.msgsPerS && all.p99Ms !== null && all.p99Ms < MAX_P99_MS && evicted === 0 && all.closed === 0,
    checkOn: 'ratio',
    problems: problemsOf(all),
    notes: [
      `every client on every crypto quote with ?slow=conflate; ${evicted} evicted (4008), ${all.closed} closed, ${held} held back at least once (conflated); mds ${all.serverCpuShare === null ? '?' : `${(all.serverCpuShare * 100).toFixed(0)}%`} of core 0, clients ${(all.clientCpuShare * 100).toFixed(0)}% of core 1 (with the venue)`,
      ceilingNote(ceiling),
    ],
    details: { ceiling, all, evicted, held },
  };
}

function rowMixed(fast: number, ceiling: Measured, all: Measured, mixed: Measured, evicted: number, held: number): Row {
  const p99Ratio = mixed.p99Ms !== null && all.p99Ms !== null ? mixed.p99Ms / all.p99Ms : null;
  return {
    id: 'fanout-conflate.stalled',
    bench: 'fanout-conflate',
    label: `… ${fast} fast + ${STALLED} stalled conns`,
    unit: 'msg/s',
    ceiling: ceiling.msgsPerS,
    ceilingP50Ms: ceiling.p50Ms,
    ceilingP99Ms: ceiling.p99Ms,
    value: mixed.msgsPerS,
    p50Ms: mixed.p50Ms,
    p99Ms: mixed.p99Ms,
    mbPerS: null,
    ratio: mixed.msgsPerS / ceiling.msgsPerS,
    target: `fast p99 ≤${MAX_STALLED_P99_RATIO}× all-fast p99, 0 evicted`,
    pass: p99Ratio !== null && p99Ratio <= MAX_STALLED_P99_RATIO && evicted === 0 && mixed.closed === 0,
    checkOn: 'ratio',
    problems: [...problemsOf(mixed), ...(held < STALLED ? [`only ${held} of the ${STALLED} stalled clients were held back when the measurement began`] : [])],
    notes: [
      `the ${fast} fast clients' p99 ${ms(mixed.p99Ms)} vs ${ms(all.p99Ms)} with all ${all.connections} fast: ${p99Ratio === null ? '?' : `${p99Ratio.toFixed(2)}×`}; ${STALLED} clients stopped reading and were measured once ${held} of them were held back (conflating); ${evicted} evicted; mds ${mixed.serverCpuShare === null ? '?' : `${(mixed.serverCpuShare * 100).toFixed(0)}%`} of core 0`,
      `ratio column: the ${fast} fast clients' msg/s against the ceiling measured with ${ceiling.connections}`,
    ],
    details: { ceiling, mixed, all_fast_p99_ms: all.p99Ms, p99_ratio: p99Ratio, evicted, held },
  };
}
