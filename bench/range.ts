// Hot path: bars in a range, `GET /crypto/agg/BTCUSD/1/minute/<from>/<to>`, over the last 4 days of
// the server clock: one page of 5000 one-minute bars and the default page (500), each against a
// bare Bun.serve answering the real body (fetched once) as a constant.
// Target (issue 6): 5000 bars ≥ 0.5× the prebuilt-body ceiling.
import { measurePair } from './lib/http-pair.ts';
import { benchAdjustedRange } from './range-adjusted.ts';
import type { BenchContext, Row } from './lib/report.ts';
import type { MdsServer } from './lib/server.ts';

/** Enough to keep one server core busy with large bodies, without minutes of queueing in p99. */
const CONNECTIONS = 16;
const MIN_RATIO_5000 = 0.5;
const DAY_MS = 86_400_000;

/** The 4 UTC days ending on the clock's day: about 5,250 one-minute bars at 15:30 UTC. */
export function rangeWindow(clockStartMs: number): { from: string; to: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(clockStartMs - 3 * DAY_MS), to: day(clockStartMs) };
}

export async function benchRange(ctx: BenchContext, server: MdsServer, clockStartMs: number): Promise<Row[]> {
  const { from, to } = rangeWindow(clockStartMs);
  const base = `/crypto/agg/BTCUSD/1/minute/${from}/${to}`;
  const cases = [
    { id: 'range.5000', bars: 5000, path: `${base}?limit=5000`, minRatio: MIN_RATIO_5000 },
    { id: 'range.500', bars: 500, path: base, minRatio: null },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    ctx.log(`range ${c.path}: ceiling then ours, ${ctx.durationS} s each`);
    const r = await measurePair(ctx, server, c.path, { seconds: ctx.durationS, connections: CONNECTIONS });
    const count = JSON.parse(new TextDecoder().decode(await server.fetchBody(c.path))).results_count as number;
    const problems = [...r.problems];
    if (count !== c.bars) problems.push(`expected ${c.bars} bars, the route answered ${count}`);
    const ratio = r.ours.requestsPerS / r.ceiling.requestsPerS;
    rows.push({
      id: c.id,
      bench: 'range',
      label: `range ${c.bars} bars (${(r.bodyBytes / 1000).toFixed(0)} kB)`,
      unit: 'req/s',
      ceiling: r.ceiling.requestsPerS,
      ceilingP50Ms: r.ceiling.latencyMs.p50,
      ceilingP99Ms: r.ceiling.latencyMs.p99,
      value: r.ours.requestsPerS,
      p50Ms: r.ours.latencyMs.p50,
      p99Ms: r.ours.latencyMs.p99,
      mbPerS: (r.ours.requestsPerS * r.bodyBytes) / 1e6,
      ratio,
      target: c.minRatio === null ? '—' : `≥${c.minRatio}× ceiling`,
      pass: c.minRatio === null ? null : problems.length === 0 && ratio >= c.minRatio,
      checkOn: 'ratio',
      problems,
      notes: [r.cpuNote],
      details: {
        path: c.path,
        seconds: ctx.durationS,
        connections: CONNECTIONS,
        body_bytes: r.bodyBytes,
        bars: count,
        ceiling_mb_per_s: (r.ceiling.requestsPerS * r.bodyBytes) / 1e6,
        server_cpu_share: r.serverCpuShare,
        ceiling_cpu_share: r.ceilingCpuShare,
        ceiling: r.ceiling,
        ours: r.ours,
      },
    });
  }
  rows.push(...(await benchAdjustedRange(ctx, server, clockStartMs)));
  return rows;
}
