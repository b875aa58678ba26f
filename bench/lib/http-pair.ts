// One HTTP measurement side by side: the ceiling (a bare Bun.serve answering the same bytes) first,
// then our route, each warmed up, then measured with wrk for the same time and connections.
import { startCeiling } from './ceiling.ts';
import { cpuSeconds } from './proc.ts';
import type { BenchContext } from './report.ts';
import type { MdsServer } from './server.ts';
import { runWrk, wrkProblems, type WrkResult } from './wrk.ts';

export interface PairResult {
  bodyBytes: number;
  ceiling: WrkResult;
  ours: WrkResult;
  /** Share of one core the server process used during our measurement. */
  serverCpuShare: number | null;
  problems: string[];
}

export async function measurePair(ctx: BenchContext, server: MdsServer, path: string, opts: { seconds: number; connections: number }): Promise<PairResult> {
  const body = await server.fetchBody(path);
  const wrkOpts = { seconds: opts.seconds, connections: opts.connections, headers: { 'x-api-key': server.key } };
  const warm = { ...wrkOpts, seconds: ctx.warmupS };

  const ceilingServer = await startCeiling(body);
  let ceiling: WrkResult;
  try {
    if (ctx.warmupS > 0) await runWrk(ceilingServer.base + path, warm);
    ceiling = await runWrk(ceilingServer.base + path, wrkOpts);
  } finally {
    await ceilingServer.stop();
  }

  if (ctx.warmupS > 0) await runWrk(server.base + path, warm);
  const cpuBefore = cpuSeconds(server.pid);
  const started = performance.now();
  const ours = await runWrk(server.base + path, wrkOpts);
  const cpuAfter = cpuSeconds(server.pid);
  const wallS = (performance.now() - started) / 1000;
  const serverCpuShare = cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / wallS : null;

  const problems = [...wrkProblems(ceiling).map((p) => `ceiling: ${p}`), ...wrkProblems(ours)];
  return { bodyBytes: body.length, ceiling, ours, serverCpuShare, problems };
}
