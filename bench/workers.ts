// REST throughput of `mds serve --workers N` for N = 1 and N = 2 (issue 33, item 4): the BTCUSD
// quote under wrk, rounds alternating N = 1 and N = 2, each on a fresh data dir (1 day of history,
// the simulator on). On this 2-core machine the comparison is not one of cores: the server's
// processes may use both cores (taskset 0,1) and wrk takes core 1 too, so a second serving process
// competes with the load generator, with the ingest process and with nats-server. The row prints
// what the processes used of the machine's CPU; the gain on a machine with a core for each
// serving process and for the load is the figure this row cannot give.
import { BENCH_KEY } from './lib/server.ts';
import { BUN, cpuSeconds, removeDir, spawnPinned, tempDir, withTimeout, type Spawned } from './lib/proc.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { median } from './lib/stats.ts';
import { ensureDebianCommand, ensureWrk, runWrk, wrkProblems, type WrkResult } from './lib/wrk.ts';

const PATH = '/crypto/quote/BTCUSD';
const CONNECTIONS = 64;
const START_TIMEOUT_MS = 120_000;

interface Round {
  workers: number;
  wrk: WrkResult;
  /** CPU the server's processes used during the measurement, in cores. */
  serverCores: number;
}

/** The pids of every process of a data dir (the supervisor's children name it in their flags). */
function pidsOf(dataDir: string, supervisor: number): number[] {
  const found = Bun.spawnSync(['pgrep', '-f', dataDir]).stdout.toString().trim().split('\n').filter(Boolean).map(Number);
  return [...new Set([supervisor, ...found])];
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);

async function measure(ctx: BenchContext, workers: number): Promise<Round> {
  const dataDir = tempDir('mds-bench-workers-');
  const args = ['src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--dev-key', BENCH_KEY, '--rate-limit', '1000000000', '--history-days', '1', '--history-years', '0', '--min-free-disk', '0', '--workers', String(workers)];
  const server: Spawned = spawnPinned('0,1', [BUN, ...args]);
  try {
    const serving = workers === 1 ? /serving REST on http:\/\/[^:]+:(\d+)/ : /^\[ingest\] .*serving REST on http:\/\/[^:]+:(\d+)/;
    const port = Number((await withTimeout(server.stdout.waitFor(serving), START_TIMEOUT_MS, `starting mds --workers ${workers}`))[1]);
    await withTimeout(server.stdout.waitFor(/history ready in [\d.]+s \(built back/), START_TIMEOUT_MS, 'the history build');
    for (let k = 1; k < workers; k++) await withTimeout(server.stdout.waitFor(new RegExp(`^\\[edge-${k}\\] .*serving REST on`)), START_TIMEOUT_MS, `edge-${k} to serve`);
    const url = `http://127.0.0.1:${port}${PATH}`;
    const opts = { seconds: ctx.durationS, connections: CONNECTIONS, headers: { 'x-api-key': BENCH_KEY } };
    if (ctx.warmupS > 0) await runWrk(url, { ...opts, seconds: ctx.warmupS });
    const pids = pidsOf(dataDir, server.pid);
    const cpu0 = cpuOf(pids);
    const t0 = performance.now();
    const wrk = await runWrk(url, opts);
    const serverCores = (cpuOf(pids) - cpu0) / ((performance.now() - t0) / 1000);
    ctx.log(`workers: --workers ${workers}: ${Math.round(wrk.requestsPerS)} req/s, p99 ${wrk.latencyMs.p99.toFixed(2)} ms, the server's processes ${serverCores.toFixed(2)} cores, wrk ${wrk.loadCpuShare === null ? '?' : wrk.loadCpuShare.toFixed(2)} of core 1`);
    return { workers, wrk, serverCores };
  } finally {
    await server.stop(30_000);
    removeDir(dataDir);
  }
}

export async function benchWorkers(ctx: BenchContext, rounds: number): Promise<Row[]> {
  ensureWrk(ctx.log);
  ensureDebianCommand('nats-server', 'nats-server', ctx.log);
  ctx.log(`workers: ${PATH} with --workers 1 and --workers 2, ${rounds} alternating rounds (servers on cores 0-1, wrk on core 1)`);
  const one: Round[] = [];
  const two: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    one.push(await measure(ctx, 1));
    two.push(await measure(ctx, 2));
  }
  const ratios = two.map((t, i) => t.wrk.requestsPerS / one[i]!.wrk.requestsPerS);
  const row = (id: string, label: string, rs: Round[], ratio: number | null, notes: string[]): Row => ({
    id,
    bench: 'workers',
    label,
    unit: 'req/s',
    ceiling: null,
    ceilingP50Ms: null,
    ceilingP99Ms: null,
    value: median(rs.map((x) => x.wrk.requestsPerS)),
    p50Ms: median(rs.map((x) => x.wrk.latencyMs.p50)),
    p99Ms: median(rs.map((x) => x.wrk.latencyMs.p99)),
    mbPerS: null,
    ratio,
    target: 'reported (2 cores: see notes)',
    pass: null,
    checkOn: 'value',
    problems: rs.flatMap((x) => wrkProblems(x.wrk)),
    notes,
    details: { rounds: rs.map((x) => ({ req_per_s: x.wrk.requestsPerS, p99_ms: x.wrk.latencyMs.p99, server_cores: x.serverCores, wrk_core_share: x.wrk.loadCpuShare })), ratios },
  });
  const cores = (rs: Round[]) => rs.map((x) => x.serverCores.toFixed(2)).join(', ');
  return [
    row('workers.1', `${PATH} --workers 1 (one process)`, one, null, [`medians of ${rounds} rounds; the server used ${cores(one)} cores of 2 while wrk used core 1`]),
    row('workers.2', `${PATH} --workers 2 (ingest + 1 edge)`, two, median(ratios), [
      `ratio column: against --workers 1 in the same round (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')}); the processes (supervisor, ingest, edge, nats-server) used ${cores(two)} cores of 2 while wrk used core 1`,
      'this machine has 2 cores and the load generator needs one: the figure says the processes work together on one port, not how --workers scales on a machine with a core for each',
    ]),
  ];
}
