// Hot path: the latest quote, `GET /{class}/quote/{symbol}`, one symbol per asset class, at 64
// connections, against a bare Bun.serve answering a body of the same bytes.
// Target (issue 6): ≥ 0.9× the ceiling's requests/s and p99 < 5 ms.
import { measureAuthCost } from './auth-cost.ts';
import { measurePair } from './lib/http-pair.ts';
import type { BenchContext, Row } from './lib/report.ts';
import type { MdsServer } from './lib/server.ts';
import type { WrkResult } from './lib/wrk.ts';

export const QUOTE_PATHS: readonly { cls: string; symbol: string }[] = [
  { cls: 'crypto', symbol: 'BTCUSD' },
  { cls: 'forex', symbol: 'EURUSD' },
  { cls: 'stocks', symbol: 'US:AAPL' },
  { cls: 'indices', symbol: 'US500' },
  { cls: 'etfs', symbol: 'US500ETF' },
  { cls: 'commodities', symbol: 'XAUUSD' },
];

const CONNECTIONS = 64;
const MIN_RATIO = 0.9;
const MAX_P99_MS = 5;
/** Issue 3: the key check and counting cost under 10% of a quote request. */
const MAX_AUTH_SHARE = 0.1;

/** BTCUSD gets the full duration; the other classes half of it each, to keep the run short. */
export function quoteSeconds(durationS: number, index: number): number {
  return index === 0 ? durationS : Math.max(2, Math.round(durationS / 2));
}

export async function benchQuote(ctx: BenchContext, server: MdsServer): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [index, { cls, symbol }] of QUOTE_PATHS.entries()) {
    const path = `/${cls}/quote/${symbol}`;
    const seconds = quoteSeconds(ctx.durationS, index);
    ctx.log(`quote ${path}: ceiling then ours, ${seconds} s each`);
    // The first path also measures the contract floor: what the key read and our response headers
    // cost a bare Bun.serve, so the table shows how much of the gap is the interface, how much our code.
    const r = await measurePair(ctx, server, path, { seconds, connections: CONNECTIONS, contract: index === 0 });
    const ratio = r.ours.requestsPerS / r.ceiling.requestsPerS;
    if (r.contract) rows.push(contractRow(path, seconds, r.ceiling, r.contract, r.ours));
    rows.push({
      id: `quote.${cls}.${symbol}`,
      bench: 'quote',
      label: `quote ${path}`,
      unit: 'req/s',
      ceiling: r.ceiling.requestsPerS,
      ceilingP50Ms: r.ceiling.latencyMs.p50,
      ceilingP99Ms: r.ceiling.latencyMs.p99,
      value: r.ours.requestsPerS,
      p50Ms: r.ours.latencyMs.p50,
      p99Ms: r.ours.latencyMs.p99,
      mbPerS: null,
      ratio,
      target: `≥${MIN_RATIO}× ceiling, p99 <${MAX_P99_MS} ms`,
      pass: r.problems.length === 0 && ratio >= MIN_RATIO && r.ours.latencyMs.p99 < MAX_P99_MS,
      checkOn: 'ratio',
      problems: r.problems,
      notes: [r.cpuNote],
      details: { path, seconds, connections: CONNECTIONS, body_bytes: r.bodyBytes, server_cpu_share: r.serverCpuShare, ceiling_cpu_share: r.ceilingCpuShare, ceiling: r.ceiling, ours: r.ours },
    });
  }
  const first = rows[0];
  if (first) rows.push(await authRow(ctx, first));
  return rows;
}

/** The contract floor against the bare ceiling, and ours against the floor (in the notes). */
function contractRow(path: string, seconds: number, ceiling: WrkResult, contract: WrkResult, ours: WrkResult): Row {
  return {
    id: 'quote.contract-floor',
    bench: 'quote',
    label: 'quote: contract floor (bare + key read + rate headers)',
    unit: 'req/s',
    ceiling: ceiling.requestsPerS,
    ceilingP50Ms: ceiling.latencyMs.p50,
    ceilingP99Ms: ceiling.latencyMs.p99,
    value: contract.requestsPerS,
    p50Ms: contract.latencyMs.p50,
    p99Ms: contract.latencyMs.p99,
    mbPerS: null,
    ratio: contract.requestsPerS / ceiling.requestsPerS,
    target: '—',
    pass: null,
    checkOn: 'ratio',
    problems: [],
    notes: [`${path} against this floor instead of the bare ceiling: ${(ours.requestsPerS / contract.requestsPerS).toFixed(2)}×`],
    details: { path, seconds, ceiling, contract, ours_vs_floor: ours.requestsPerS / contract.requestsPerS },
  };
}

/** The gate's cost per request against the time of one BTCUSD quote request measured above. */
async function authRow(ctx: BenchContext, quote: Row): Promise<Row> {
  ctx.log('quote: timing the key check and call counting in-process');
  const path = String(quote.details.path);
  const cost = await measureAuthCost(path);
  const requestUs = 1e6 / quote.value;
  const share = cost.meteredUs / requestUs;
  return {
    id: 'quote.auth',
    bench: 'quote',
    label: 'quote: key check + counting',
    unit: 'µs/req',
    ceiling: null,
    ceilingP50Ms: null,
    ceilingP99Ms: null,
    value: cost.meteredUs,
    p50Ms: null,
    p99Ms: null,
    mbPerS: null,
    // The share of a request left to everything else: what the quote route would gain without the gate.
    ratio: 1 - share,
    target: `<${MAX_AUTH_SHARE * 100}% of a quote request`,
    pass: share < MAX_AUTH_SHARE,
    checkOn: 'ratio',
    problems: [],
    notes: [
      `key check + quota + per-minute counting: ${cost.meteredUs.toFixed(2)} µs per request with a metered pro key (${cost.devUs.toFixed(2)} µs with the development key), ${(share * 100).toFixed(1)}% of the ${requestUs.toFixed(1)} µs one ${path} request took above; ratio = 1 − share`,
    ],
    details: { path, metered_us: cost.meteredUs, dev_us: cost.devUs, request_us: requestUs, share },
  };
}
