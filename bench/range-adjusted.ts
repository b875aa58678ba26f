// Adjusted bars (issue 32): `GET /stocks/agg/US:AAPL/1/minute/<from>/<to>?limit=5000&adjustment=all`
// against the same page raw, on the same server, after `mds import splits` and `mds import
// dividends` (run next to the server, as an operator would) gave US:AAPL a split and a dividend
// inside the window. Raw and adjusted alternate twice; each side's mean is reported, and the
// ratio adjusted ÷ raw is the number. Target: ≥ 0.8× raw.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { runWrk, wrkProblems } from './lib/wrk.ts';
import { BUN } from './lib/proc.ts';
import type { BenchContext, Row } from './lib/report.ts';
import type { MdsServer } from './lib/server.ts';

const CONNECTIONS = 16;
const MIN_RATIO = 0.8;
const DAY_MS = 86_400_000;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function importActions(server: MdsServer, clockStartMs: number): Promise<void> {
  const splits = join(server.dataDir, 'bench-splits.csv');
  const dividends = join(server.dataDir, 'bench-dividends.csv');
  writeFileSync(splits, `ticker,execution_date,split_from,split_to\nAAPL,${day(clockStartMs - 9 * DAY_MS)},1,4\n`);
  writeFileSync(dividends, `ticker,ex_dividend_date,cash_amount\nAAPL,${day(clockStartMs - 16 * DAY_MS)},0.82\n`);
  for (const [kind, file] of [['splits', splits], ['dividends', dividends]] as const) {
    const proc = Bun.spawn([BUN, 'src/main.ts', 'import', kind, file, '--data-dir', server.dataDir], { stdout: 'pipe', stderr: 'pipe' });
    if ((await proc.exited) !== 0) throw new Error(`mds import ${kind} failed: ${await new Response(proc.stderr).text()}`);
  }
}

export async function benchAdjustedRange(ctx: BenchContext, server: MdsServer, clockStartMs: number): Promise<Row[]> {
  await importActions(server, clockStartMs);
  const raw = `/stocks/agg/US:AAPL/1/minute/${day(clockStartMs - 30 * DAY_MS)}/${day(clockStartMs)}?limit=5000`;
  const adjusted = `${raw}&adjustment=all`;
  // The history older than the first days is built in the background: wait for the whole page.
  const deadline = performance.now() + 300_000;
  while (JSON.parse(new TextDecoder().decode(await server.fetchBody(raw))).results_count < 5000 && performance.now() < deadline) await Bun.sleep(1000);
  const rawBody = JSON.parse(new TextDecoder().decode(await server.fetchBody(raw)));
  const adjBody = JSON.parse(new TextDecoder().decode(await server.fetchBody(adjusted)));
  const problems: string[] = [];
  if (adjBody.results_count !== 5000) problems.push(`expected 5000 bars, the route answered ${adjBody.results_count}`);
  const changed = adjBody.results.filter((b: { c: number }, i: number) => b.c !== rawBody.results[i].c).length;
  if (changed === 0) problems.push('no bar of the adjusted page differs from the raw one: the actions did not apply');
  const opts = { seconds: ctx.durationS, connections: CONNECTIONS, headers: { 'x-api-key': server.key } };
  const runs: { raw: number[]; adjusted: number[]; rawP99: number[]; adjP99: number[] } = { raw: [], adjusted: [], rawP99: [], adjP99: [] };
  if (ctx.warmupS > 0) {
    await runWrk(server.base + raw, { ...opts, seconds: ctx.warmupS });
    await runWrk(server.base + adjusted, { ...opts, seconds: ctx.warmupS });
  }
  for (let round = 0; round < 2; round++) {
    ctx.log(`range adjusted: raw then adjusted, round ${round + 1} of 2, ${ctx.durationS} s each`);
    const r = await runWrk(server.base + raw, opts);
    const a = await runWrk(server.base + adjusted, opts);
    problems.push(...wrkProblems(r).map((p) => `raw: ${p}`), ...wrkProblems(a));
    runs.raw.push(r.requestsPerS);
    runs.adjusted.push(a.requestsPerS);
    runs.rawP99.push(r.latencyMs.p99);
    runs.adjP99.push(a.latencyMs.p99);
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const rawRate = mean(runs.raw);
  const adjRate = mean(runs.adjusted);
  const ratio = adjRate / rawRate;
  const bytes = new TextEncoder().encode(JSON.stringify(adjBody)).length;
  return [
    {
      id: 'range.adjusted.5000',
      bench: 'range',
      label: `range 5000 bars adjustment=all vs raw (${(bytes / 1000).toFixed(0)} kB)`,
      unit: 'req/s',
      ceiling: rawRate,
      ceilingP50Ms: null,
      ceilingP99Ms: mean(runs.rawP99),
      value: adjRate,
      p50Ms: null,
      p99Ms: mean(runs.adjP99),
      mbPerS: (adjRate * bytes) / 1e6,
      ratio,
      target: `≥${MIN_RATIO}× raw`,
      pass: problems.length === 0 && ratio >= MIN_RATIO,
      checkOn: 'ratio',
      problems,
      notes: [`the "ceiling" column is the same page raw; ${changed} of 5000 bars adjusted`],
      details: { raw_path: raw, adjusted_path: adjusted, runs, connections: CONNECTIONS, seconds: ctx.durationS },
    },
  ];
}
