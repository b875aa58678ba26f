// Abuse on the stream against another client's REST latency (issues 29 and 30): wrk on
// `GET /crypto/quote/BTCUSD` with the development key, idle and then while a free key attacks the
// stream from its own process (lib/flood-client.ts): (1) reconnecting, 100 maximal subscribe frames
// per connection on 2 connections, refusals ignored; (2) one connection with one maximal frame every
// 110 ms. Rounds of idle then attack, each phase half of --duration (at least 3 s): on a shared
// machine the load of others drifts, so each attack is compared with the idle phase just before it,
// and the row gives the median of those ratios (and the medians of each column).
// Target: the other client's p99 under attack ≤ 2× idle. Runs in `npm run bench`, or alone:
//   bun bench/reconnect-flood.ts [--duration S] [--warmup S] [--rounds N]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUN, cpuSeconds, installCleanup, killEverything, LOAD_CORE, REPO_ROOT, spawnPinned, withTimeout } from './lib/proc.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { ALL_OPEN_CLOCK, startMds, type MdsServer } from './lib/server.ts';
import { median } from './lib/stats.ts';
import { ensureWrk, runWrk, wrkProblems, type WrkResult } from './lib/wrk.ts';

const PATH = '/crypto/quote/BTCUSD';
const CONNECTIONS = 4;
const MAX_P99_RATIO = 2;
export const DEFAULT_ROUNDS = 5;

type Mode = 'reconnect' | 'hostile';

interface FloodResult {
  opened: number;
  notOpened: number;
  framesSent: number;
  answers: number;
  closes: Record<string, number>;
  seconds: number;
}

interface Phase {
  wrk: WrkResult;
  /** Server CPU over the measurement, as a share of one core. */
  serverCpu: number | null;
  flood: FloodResult | null;
}


/** A free key made with `mds keys create` on the running server's data dir; resolves once it works. */
async function freeKey(server: MdsServer): Promise<string> {
  const r = spawnSync(BUN, ['src/main.ts', 'keys', 'create', '--json', '--plan', 'free', '--data-dir', server.dataDir], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`mds keys create failed: ${r.stderr || r.stdout}`);
  const { key } = JSON.parse(r.stdout) as { key: string };
  const deadline = performance.now() + 15_000;
  while ((await fetch(`${server.base}/crypto/symbols`, { headers: { 'x-api-key': key } })).status !== 200) {
    if (performance.now() > deadline) throw new Error('the new free key was not accepted within 15 s');
    await Bun.sleep(100);
  }
  return key;
}

async function measure(ctx: BenchContext, server: MdsServer, label: string): Promise<{ wrk: WrkResult; serverCpu: number | null }> {
  ctx.log(`reconnect-flood: wrk ${PATH} ${label}, ${ctx.durationS} s`);
  const cpu0 = cpuSeconds(server.pid);
  const t0 = performance.now();
  const wrk = await runWrk(server.base + PATH, { seconds: ctx.durationS, connections: CONNECTIONS, headers: { 'x-api-key': server.key } });
  const cpu1 = cpuSeconds(server.pid);
  return { wrk, serverCpu: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / ((performance.now() - t0) / 1000) };
}

/**
 * Right after start the server is still writing its history: its latency then says nothing. Short
 * wrk runs until the p99 stops falling (or 30 s).
 */
async function settle(ctx: BenchContext, server: MdsServer): Promise<void> {
  const deadline = performance.now() + 30_000;
  let best = Infinity;
  while (performance.now() < deadline) {
    const { wrk } = await measure({ ...ctx, durationS: 2 }, server, 'to settle');
    if (wrk.requests > 0 && wrk.latencyMs.p99 >= best * 0.8) return;
    best = Math.min(best, wrk.latencyMs.p99);
  }
}

async function attacked(ctx: BenchContext, server: MdsServer, key: string, mode: Mode): Promise<Phase> {
  const url = `${server.base.replace('http', 'ws')}/?apiKey=${key}`;
  const config = { url, mode, connections: 2, durationS: ctx.warmupS + ctx.durationS + 2 };
  const client = spawnPinned(LOAD_CORE, [BUN, join(import.meta.dir, 'lib', 'flood-client.ts'), JSON.stringify(config)]);
  try {
    const exited = client.proc.exited.then((code) => Promise.reject(new Error(`the flood client exited with code ${code}: ${client.stderr.text()}`)));
    await withTimeout(Promise.race([client.stdout.waitFor(/^STARTED/), exited]), 30_000, 'starting the flood client');
    await Bun.sleep(ctx.warmupS * 1000);
    const m = await measure(ctx, server, `under the ${mode} attack`);
    const line = await withTimeout(client.stdout.waitFor(/^RESULT (.*)$/), 30_000, 'the flood client result');
    return { ...m, flood: JSON.parse(line[1]!) as FloodResult };
  } finally {
    await client.stop(2000);
  }
}

function row(mode: Mode, idle: Phase[], attack: Phase[]): Row {
  const med = (phases: Phase[], pick: (p: Phase) => number | null) => {
    const xs = phases.map(pick).filter((x): x is number => x !== null);
    return xs.length === 0 ? null : median(xs);
  };
  const idleP99 = med(idle, (p) => p.wrk.latencyMs.p99)!;
  const attackP99 = med(attack, (p) => p.wrk.latencyMs.p99)!;
  const ratios = attack.map((p, i) => p.wrk.latencyMs.p99 / idle[i]!.wrk.latencyMs.p99);
  const ratio = median(ratios);
  const flood = attack.map((p) => p.flood!);
  const perS = (pick: (f: FloodResult) => number) => median(flood.map((f) => pick(f) / f.seconds));
  const closes: Record<string, number> = {};
  for (const f of flood) for (const [code, n] of Object.entries(f.closes)) closes[code] = (closes[code] ?? 0) + n;
  const cpu = (x: number | null) => (x === null ? '?' : `${(x * 100).toFixed(0)}%`);
  const problems = [...idle, ...attack].flatMap((p) => wrkProblems(p.wrk));
  const what = mode === 'reconnect' ? 'a free key reconnecting, 100 maximal frames a connection, 2 loops' : 'a free key sending a maximal frame every 110 ms';
  return {
    id: mode === 'reconnect' ? 'reconnect-flood' : 'reconnect-flood.hostile-frames',
    bench: 'reconnect-flood',
    label: mode === 'reconnect' ? 'REST p99, stream reconnect flood vs idle' : 'REST p99, hostile subscribe frames vs idle',
    unit: 'req/s',
    ceiling: med(idle, (p) => p.wrk.requestsPerS),
    ceilingP50Ms: med(idle, (p) => p.wrk.latencyMs.p50),
    ceilingP99Ms: idleP99,
    value: med(attack, (p) => p.wrk.requestsPerS)!,
    p50Ms: med(attack, (p) => p.wrk.latencyMs.p50),
    p99Ms: attackP99,
    mbPerS: null,
    ratio,
    target: `attack p99 ≤${MAX_P99_RATIO}× idle p99`,
    pass: problems.length === 0 && ratio <= MAX_P99_RATIO,
    checkOn: 'value',
    problems,
    notes: [
      `${what}; medians of ${attack.length} rounds (idle, then attack); ceiling columns: idle; ratio = median over rounds of attack p99 / idle p99 (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
      `attack per second: ${perS((f) => f.opened).toFixed(1)} connections opened, ${perS((f) => f.notOpened).toFixed(0)} upgrades refused, ${perS((f) => f.framesSent).toFixed(0)} frames sent; closes ${JSON.stringify(closes)}`,
      `server CPU: idle ${cpu(med(idle, (p) => p.serverCpu))}, attack ${cpu(med(attack, (p) => p.serverCpu))} of a core (wrk -c${CONNECTIONS} keeps it busy either way)`,
    ],
    details: { path: PATH, connections: CONNECTIONS, rounds: attack.length, ratios, idle, attack },
  };
}

export async function benchReconnectFlood(ctx: BenchContext, rounds = DEFAULT_ROUNDS): Promise<Row[]> {
  ensureWrk(ctx.log);
  ctx.log(`reconnect-flood: starting mds (1 day of history, simulator on, clock at ${ALL_OPEN_CLOCK})`);
  const server = await startMds({ args: ['--history-days', '1', '--history-years', '0', '--clock-start', ALL_OPEN_CLOCK] });
  try {
    await settle(ctx, server);
    const rows: Row[] = [];
    const phase = { ...ctx, durationS: Math.max(3, Math.round(ctx.durationS / 2)) };
    for (const mode of ['reconnect', 'hostile'] as const) {
      const idle: Phase[] = [];
      const attack: Phase[] = [];
      for (let round = 0; round < rounds; round++) {
        idle.push({ ...(await measure(phase, server, `idle (round ${round + 1}/${rounds})`)), flood: null });
        // A new key each round: every round has the attacker's first, allowed connections in it.
        attack.push(await attacked(phase, server, await freeKey(server), mode));
      }
      rows.push(row(mode, idle, attack));
    }
    return rows;
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { duration: { type: 'string' }, warmup: { type: 'string' }, rounds: { type: 'string' } } });
  installCleanup(20 * 60_000);
  const started = performance.now();
  const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);
  const ctx: BenchContext = { durationS: Number(values.duration ?? 10), warmupS: Number(values.warmup ?? 1), log };
  try {
    for (const r of await benchReconnectFlood(ctx, Number(values.rounds ?? DEFAULT_ROUNDS))) {
      const ms = (x: number | null) => (x === null ? '—' : `${x.toFixed(2)} ms`);
      process.stdout.write(`${r.label}: idle p99 ${ms(r.ceilingP99Ms)}, attack p99 ${ms(r.p99Ms)}, ratio ${r.ratio!.toFixed(2)}× (target ${r.target}): ${r.pass ? 'PASS' : 'MISS'}\n`);
      process.stdout.write(`  idle p50 ${ms(r.ceilingP50Ms)}, attack p50 ${ms(r.p50Ms)}; ${Math.round(r.ceiling ?? 0)} vs ${Math.round(r.value)} req/s\n`);
      for (const n of [...r.notes, ...r.problems.map((p) => `PROBLEM: ${p}`)]) process.stdout.write(`  ${n}\n`);
    }
  } finally {
    killEverything();
  }
  process.exit(0);
}
