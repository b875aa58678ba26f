// Hot path: WebSocket fan-out. 1,000 connections from separate client processes (on the load core),
// all subscribed to every crypto, forex and stock quote of a live simulator; counts delivered
// messages and measures tick-to-client latency (receive time − the tick's `ts`).
// Target (issue 6): ≥ 1,000,000 delivered msg/s to 1,000 subscribers with p99 < 50 ms.
import { join } from 'node:path';
import { BUN, cpuSeconds, LOAD_CORE, spawnPinned, withTimeout, type Spawned } from './lib/proc.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { ALL_OPEN_CLOCK, startMds } from './lib/server.ts';

const TARGET_MSGS_PER_S = 1_000_000;
const MAX_P99_MS = 50;
/** 'quotes': the issue's example (crypto, forex and stock quotes); 'all': every class's quotes and trades. */
export const FANOUT_CHANNELS = {
  quotes: ['crypto.quotes', 'forex.quotes', 'stocks.quotes'],
  all: ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities'].flatMap((c) => [`${c}.quotes`, `${c}.trades`]),
} as const;
export const BUCKET_MS = 0.1;

export interface FanoutOptions {
  connections: number;
  /** Client processes sharing the connections (all on the load core). */
  procs: number;
  /**
   * 'fixed': the server runs from ALL_OPEN_CLOCK (a Wednesday, every market open) and the clients
   * learn the clock's offset from the ready frames; 'now': no --clock-start (what is open depends on
   * the day and hour the bench runs, so numbers are not comparable between runs).
   */
  clock: 'fixed' | 'now';
  channels: keyof typeof FANOUT_CHANNELS;
  /** Latency is decoded from every n-th message (all messages are counted). */
  sampleEvery: number;
  /** The server's --sim-rate: at the default rate the feed alone cannot reach the target's message rate. */
  simRate: number;
}

export const DEFAULT_FANOUT: FanoutOptions = { connections: 1000, procs: 1, clock: 'fixed', channels: 'quotes', sampleEvery: 8, simRate: 2 };

interface ClientResult {
  connections: number;
  subscribed: number;
  closed: number;
  seconds: number;
  messages: number;
  samples: number;
  offsetMs: number;
  cpuShare: number;
  minPerConn: number;
  maxPerConn: number;
  histogram: [number, number][];
  errors: string[];
}

export function percentile(histogram: Map<number, number>, total: number, p: number): number | null {
  if (total === 0) return null;
  const want = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket)!;
    if (seen >= want) return (bucket + 1) * BUCKET_MS;
  }
  return null;
}

export async function benchFanout(ctx: BenchContext, opts: FanoutOptions = DEFAULT_FANOUT): Promise<Row[]> {
  ctx.log(`fanout: starting a server (1 day of history, clock ${opts.clock === 'fixed' ? ALL_OPEN_CLOCK : 'now'}, simulator at ${opts.simRate}x its default rate)`);
  const server = await startMds({ args: ['--history-days', '1', '--history-years', '0', '--sim-rate', String(opts.simRate), ...(opts.clock === 'fixed' ? ['--clock-start', ALL_OPEN_CLOCK] : [])] });
  const clients: Spawned[] = [];
  try {
    ctx.log(`fanout: ${opts.connections} connections from ${opts.procs} client process(es), ${ctx.warmupS} s warm-up, ${ctx.durationS} s measured`);
    for (let i = 0; i < opts.procs; i++) {
      const connections = Math.floor(opts.connections / opts.procs) + (i < opts.connections % opts.procs ? 1 : 0);
      const subscribe = JSON.stringify({ action: 'subscribe', channels: FANOUT_CHANNELS[opts.channels], symbols: ['*'] });
      const config = { port: server.port, key: server.key, connections, subscribe, warmupS: ctx.warmupS, durationS: ctx.durationS, sampleEvery: opts.sampleEvery };
      clients.push(spawnPinned(LOAD_CORE, [BUN, join(import.meta.dir, 'lib', 'fanout-client.ts'), JSON.stringify(config)], { stdin: 'pipe' }));
    }
    const failed = (c: Spawned) => c.proc.exited.then((code) => Promise.reject(new Error(`fan-out client exited with code ${code}:\n${c.stderr.text()}\n${c.stdout.text()}`)));
    await withTimeout(Promise.race([Promise.all(clients.map((c) => c.stdout.waitFor(/^SUBSCRIBED/))), ...clients.map(failed)]), 60_000, 'connecting and subscribing the fan-out clients');

    for (const c of clients) {
      const stdin = c.proc.stdin;
      if (stdin && typeof stdin !== 'number') {
        stdin.write('go\n');
        void stdin.flush();
      }
    }
    await Bun.sleep(ctx.warmupS * 1000);
    const cpu0 = cpuSeconds(server.pid);
    const t0 = performance.now();
    await Bun.sleep(ctx.durationS * 1000);
    const cpu1 = cpuSeconds(server.pid);
    const serverCpuShare = cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / ((performance.now() - t0) / 1000) : null;

    const results = await withTimeout(
      Promise.all(clients.map(async (c) => JSON.parse((await c.stdout.waitFor(/^RESULT (.*)$/))[1]!) as ClientResult)),
      30_000,
      'collecting fan-out results',
    );
    return [toRow(ctx, opts, results, serverCpuShare, server.startSeconds)];
  } finally {
    await Promise.all(clients.map((c) => c.stop(2000)));
    await server.stop();
  }
}

function toRow(ctx: BenchContext, opts: FanoutOptions, results: ClientResult[], serverCpuShare: number | null, serverStartS: number): Row {
  const histogram = new Map<number, number>();
  let samples = 0;
  for (const r of results) {
    for (const [bucket, n] of r.histogram) histogram.set(bucket, (histogram.get(bucket) ?? 0) + n);
    samples += r.samples;
  }
  const msgsPerS = results.reduce((sum, r) => sum + r.messages / r.seconds, 0);
  const connections = results.reduce((sum, r) => sum + r.connections, 0);
  const closed = results.reduce((sum, r) => sum + r.closed, 0);
  const subscribed = results.reduce((sum, r) => sum + r.subscribed, 0);
  const p50 = percentile(histogram, samples, 50);
  const p99 = percentile(histogram, samples, 99);
  const ticksPerS = msgsPerS / connections;
  const clientCpu = results.map((r) => `${(r.cpuShare * 100).toFixed(0)}%`).join(' + ');
  const problems: string[] = [];
  if (closed > 0) problems.push(`${closed} of ${connections} connections were closed during the run`);
  if (subscribed < connections) problems.push(`only ${subscribed} of ${connections} connections subscribed`);
  for (const r of results) for (const e of r.errors) problems.push(`server said: ${e.slice(0, 200)}`);
  const notes = [
    `server produced ${ticksPerS.toFixed(0)} ticks/s per connection (${opts.channels === 'quotes' ? 'crypto, forex and stock quotes' : 'quotes and trades of all 6 classes'}; simulator at --sim-rate ${opts.simRate}); ${connections} connections, ${closed} closed`,
    `${opts.procs} client process(es) on core ${LOAD_CORE} used ${clientCpu} of a core; server used ${serverCpuShare === null ? '?' : `${(serverCpuShare * 100).toFixed(0)}%`} of core 0`,
    `latency from ${samples.toLocaleString('en-US')} sampled messages (1 in ${opts.sampleEvery}); server clock offset ${results[0]?.offsetMs ?? '?'} ms (clock ${opts.clock})`,
  ];
  return {
    id: opts.channels === 'quotes' ? 'fanout' : `fanout.${opts.channels}`,
    bench: 'fanout',
    label: `fanout ${connections} ws conns${opts.channels === 'quotes' ? '' : ` (${opts.channels} channels)`}`,
    unit: 'msg/s',
    ceiling: null,
    ceilingP50Ms: null,
    ceilingP99Ms: null,
    value: msgsPerS,
    p50Ms: p50,
    p99Ms: p99,
    mbPerS: null,
    ratio: null,
    target: `≥${TARGET_MSGS_PER_S.toLocaleString('en-US')} msg/s, p99 <${MAX_P99_MS} ms`,
    pass: problems.length === 0 && msgsPerS >= TARGET_MSGS_PER_S && p99 !== null && p99 < MAX_P99_MS,
    checkOn: 'value',
    problems,
    notes,
    details: {
      connections,
      client_procs: opts.procs,
      clock: opts.clock,
      channels: FANOUT_CHANNELS[opts.channels],
      seconds: ctx.durationS,
      closed,
      ticks_per_s_per_connection: ticksPerS,
      server_cpu_share: serverCpuShare,
      server_start_s: serverStartS,
      clients: results.map(({ histogram: _h, ...rest }) => rest),
    },
  };
}
