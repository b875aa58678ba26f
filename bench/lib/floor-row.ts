// The quote route against its contract floor, as a row of its own (issue 33): a bare Bun.serve that
// reads the key and writes the four required headers (ceiling-server.ts --contract), and our route,
// measured in turns: floor, ours, floor, ours ... `rounds` times, each turn `seconds` long after its
// warm-up, the floor server kept running between its turns. The row's figures are the medians of the
// turns and its ratio the median of the rounds' ratios, so a drift of the machine during the run
// moves both sides of a round alike.
import { startCeiling } from './ceiling.ts';
import type { BenchContext, Row } from './report.ts';
import type { MdsServer } from './server.ts';
import { median } from './stats.ts';
import { runWrk, wrkProblems, type WrkResult } from './wrk.ts';

/** Issue 33: the quote path at ≥ 0.9× its contract floor, the median of 5 alternating runs. */
export const MIN_FLOOR_RATIO = 0.9;
/** Issue 33: p99 under 5 ms at 64 connections, simulator running. */
export const MAX_FLOOR_P99_MS = 5;
export const FLOOR_ROUNDS = 5;


export interface FloorRounds {
  path: string;
  seconds: number;
  connections: number;
  floor: WrkResult[];
  ours: WrkResult[];
}

export async function measureFloorRounds(ctx: BenchContext, server: MdsServer, path: string, opts: { seconds: number; connections: number; rounds: number }): Promise<FloorRounds> {
  const body = await server.fetchBody(path);
  const wrkOpts = { seconds: opts.seconds, connections: opts.connections, headers: { 'x-api-key': server.key } };
  const warm = { ...wrkOpts, seconds: ctx.warmupS };
  const floorServer = await startCeiling(body, true);
  const floor: WrkResult[] = [];
  const ours: WrkResult[] = [];
  try {
    for (let round = 0; round < opts.rounds; round++) {
      if (ctx.warmupS > 0) await runWrk(floorServer.base + path, warm);
      floor.push(await runWrk(floorServer.base + path, wrkOpts));
      if (ctx.warmupS > 0) await runWrk(server.base + path, warm);
      ours.push(await runWrk(server.base + path, wrkOpts));
      const f = floor[round]!;
      const o = ours[round]!;
      ctx.log(`quote ${path} vs contract floor, round ${round + 1} of ${opts.rounds}: floor ${Math.round(f.requestsPerS)} req/s, ours ${Math.round(o.requestsPerS)} req/s (${(o.requestsPerS / f.requestsPerS).toFixed(2)}×), ours p99 ${o.latencyMs.p99.toFixed(2)} ms`);
    }
  } finally {
    await floorServer.stop();
  }
  return { path, seconds: opts.seconds, connections: opts.connections, floor, ours };
}

export function quoteVsFloorRow(r: FloorRounds): Row {
  const ratios = r.ours.map((o, i) => o.requestsPerS / r.floor[i]!.requestsPerS);
  const ratio = median(ratios);
  const p99 = median(r.ours.map((o) => o.latencyMs.p99));
  const problems = [...r.floor.flatMap((f) => wrkProblems(f).map((p) => `contract floor: ${p}`)), ...r.ours.flatMap((o) => wrkProblems(o))];
  return {
    id: 'quote.vs-contract-floor',
    bench: 'quote-floor',
    label: `quote ${r.path} vs contract floor`,
    unit: 'req/s',
    ceiling: median(r.floor.map((f) => f.requestsPerS)),
    ceilingP50Ms: median(r.floor.map((f) => f.latencyMs.p50)),
    ceilingP99Ms: median(r.floor.map((f) => f.latencyMs.p99)),
    value: median(r.ours.map((o) => o.requestsPerS)),
    p50Ms: median(r.ours.map((o) => o.latencyMs.p50)),
    p99Ms: p99,
    mbPerS: null,
    ratio,
    target: `≥${MIN_FLOOR_RATIO}× floor, p99 <${MAX_FLOOR_P99_MS} ms`,
    pass: problems.length === 0 && ratio >= MIN_FLOOR_RATIO && p99 < MAX_FLOOR_P99_MS,
    checkOn: 'ratio',
    problems,
    notes: [
      `medians of ${r.ours.length} alternating rounds (floor then ours, ${r.seconds} s each, ${r.connections} connections); the rounds' ratios: ${ratios.map((x) => x.toFixed(2)).join(', ')}; ceiling columns: the contract floor (a bare Bun.serve that reads the key and writes X-Request-Id and the three X-RateLimit headers)`,
    ],
    details: { path: r.path, seconds: r.seconds, connections: r.connections, ratios, floor: r.floor, ours: r.ours },
  };
}
