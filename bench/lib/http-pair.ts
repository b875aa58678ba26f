// One HTTP measurement side by side: the ceiling (a bare Bun.serve answering the same bytes) first,
// then our route, each warmed up, then measured with wrk for the same time and connections.
import { startCeiling } from './ceiling.ts';
import { cpuSeconds } from './proc.ts';
import type { BenchContext } from './report.ts';
import type { MdsServer } from './server.ts';
import { runWrk, wrkProblems, type WrkOptions, type WrkResult } from './wrk.ts';

export interface PairResult {
  bodyBytes: number;
  ceiling: WrkResult;
  /** The contract floor (the ceiling plus the key read and our response headers), when asked for. */
  contract: WrkResult | null;
  ours: WrkResult;
  /** Share of one core the server process used during our measurement. */
  serverCpuShare: number | null;
  ceilingCpuShare: number | null;
  problems: string[];
  /** One line on where the CPU went, and a warning when wrk itself was the limit. */
  cpuNote: string;
}

/** Measures `run` and the CPU the process `pid` used meanwhile, as a share of one core. */
async function withCpu<T>(pid: number, run: () => Promise<T>): Promise<{ value: T; cpuShare: number | null }> {
  const before = cpuSeconds(pid);
  const started = performance.now();
  const value = await run();
  const after = cpuSeconds(pid);
  const wallS = (performance.now() - started) / 1000;
  return { value, cpuShare: before !== null && after !== null ? (after - before) / wallS : null };
}

const pct = (share: number | null) => (share === null ? '?' : `${(share * 100).toFixed(0)}%`);

async function measureCeiling(ctx: BenchContext, body: Uint8Array, path: string, wrkOpts: WrkOptions, contract: boolean): Promise<{ result: WrkResult; cpuShare: number | null }> {
  const ceilingServer = await startCeiling(body, contract);
  try {
    if (ctx.warmupS > 0) await runWrk(ceilingServer.base + path, { ...wrkOpts, seconds: ctx.warmupS });
    const { value, cpuShare } = await withCpu(ceilingServer.pid, () => runWrk(ceilingServer.base + path, wrkOpts));
    return { result: value, cpuShare };
  } finally {
    await ceilingServer.stop();
  }
}

export async function measurePair(ctx: BenchContext, server: MdsServer, path: string, opts: { seconds: number; connections: number; contract?: boolean }): Promise<PairResult> {
  const body = await server.fetchBody(path);
  const wrkOpts = { seconds: opts.seconds, connections: opts.connections, headers: { 'x-api-key': server.key } };
  const warm = { ...wrkOpts, seconds: ctx.warmupS };

  const { result: ceiling, cpuShare: ceilingCpuShare } = await measureCeiling(ctx, body, path, wrkOpts, false);
  const contract = opts.contract ? (await measureCeiling(ctx, body, path, wrkOpts, true)).result : null;

  if (ctx.warmupS > 0) await runWrk(server.base + path, warm);
  const { value: ours, cpuShare: serverCpuShare } = await withCpu(server.pid, () => runWrk(server.base + path, wrkOpts));

  const problems = [...wrkProblems(ceiling).map((p) => `ceiling: ${p}`), ...(contract ? wrkProblems(contract).map((p) => `contract floor: ${p}`) : []), ...wrkProblems(ours)];
  let cpuNote = `CPU, ceiling vs ours: server ${pct(ceilingCpuShare)} vs ${pct(serverCpuShare)} of core 0, wrk ${pct(ceiling.loadCpuShare)} vs ${pct(ours.loadCpuShare)} of core 1`;
  if ((ceiling.loadCpuShare ?? 0) >= 0.9) cpuNote += ' (wrk near a full core on the ceiling: the ceiling may be understated, the ratio flattered)';
  return { bodyBytes: body.length, ceiling, contract, ours, serverCpuShare, ceilingCpuShare, problems, cpuNote };
}
