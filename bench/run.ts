// The bench runner (`npm run bench -- [options]`): starts the real server on a temp data dir, runs
// the hot-path benches (ceiling first, then ours, then the ratio), prints a table against the
// targets of issue 6, writes JSON and compares with bench/baseline.json. Stops all it started.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchFanout, DEFAULT_FANOUT, type FanoutOptions } from './fanout.ts';
import { benchFanoutConflate } from './fanout-conflate.ts';
import { benchFirstRun } from './first-run.ts';
import { benchWorkers } from './workers.ts';
import { benchIngest } from './ingest.ts';
import { FLOOR_ROUNDS, measureFloorRounds, quoteVsFloorRow } from './lib/floor-row.ts';
import { describeHost, measureHost, type HostFacts } from './lib/host.ts';
import { installCleanup, killEverything, REPO_ROOT } from './lib/proc.ts';
import { BENCHES, checkedValue, type BenchContext, type BenchName, type Row } from './lib/report.ts';
import { ALL_OPEN_CLOCK, startMds, type MdsServer } from './lib/server.ts';
import { ensureWrk } from './lib/wrk.ts';
import { benchQuote } from './quote.ts';
import { benchRange } from './range.ts';
import { benchReconnectFlood } from './reconnect-flood.ts';
import { benchQuoteSteps } from './quote-steps.ts';
import { benchVenueE2E } from './venue-e2e.ts';
import { benchVenueFeed } from './venue-feed.ts';
import { benchVenueParse } from './venue-parse.ts';

/** Alternating --workers 1 / --workers 2 rounds of the workers bench. */
const WORKERS_ROUNDS = 3;

const HELP = `Usage: npm run bench -- [options]

Runs the hot-path benchmarks against the real server (see bench/README.md).

Options:
  --only LIST              benches to run, comma-separated: ${BENCHES.join(',')} (default: all)
  --duration S             seconds per measurement (default 10; quote classes other than crypto get half)
  --warmup S               seconds of load before each measurement (default 1)
  --json FILE              also write the results as JSON
  --floor-rounds N         alternating rounds of quote-floor (default ${FLOOR_ROUNDS}), each half of --duration
  --workers-rounds N       alternating rounds of workers (--workers 1, then 2; default ${WORKERS_ROUNDS})
  --metrics                run mds with metrics on (--metrics-port 0), to compare with a run without
  --check                  compare with the baseline; exit 1 if a checked number is >15% below it
  --baseline FILE          baseline for --check (default bench/baseline.json)
  --fanout-connections N   WebSocket connections for fanout (default ${DEFAULT_FANOUT.connections})
  --fanout-procs N         client processes sharing them (default ${DEFAULT_FANOUT.procs})
  --fanout-channels SET    quotes (default: crypto, forex and stock quotes) or all (every class's quotes and trades)
  --fanout-sim-rate X      the server's --sim-rate for fanout (default ${DEFAULT_FANOUT.simRate}: about 1,400 ticks/s per connection)
  --fanout-clock MODE      fixed (default: server clock at ${ALL_OPEN_CLOCK}, all markets open) or now
  -h, --help               this text
`;

/** A checked number may drop this much below the baseline before --check fails. */
const CHECK_TOLERANCE = 0.15;

interface Options {
  only: BenchName[];
  durationS: number;
  warmupS: number;
  json: string | null;
  check: boolean;
  /** mds runs with metrics on (the quote and range benches' server). */
  metrics: boolean;
  /** Alternating floor/ours rounds of the quote-floor bench. */
  floorRounds: number;
  /** Alternating --workers 1 / 2 rounds of the workers bench. */
  workersRounds: number;
  baseline: string;
  fanout: FanoutOptions;
}

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        only: { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        json: { type: 'string' },
        check: { type: 'boolean' },
        metrics: { type: 'boolean' },
        'floor-rounds': { type: 'string' },
        'workers-rounds': { type: 'string' },
        baseline: { type: 'string' },
        'fanout-connections': { type: 'string' },
        'fanout-procs': { type: 'string' },
        'fanout-clock': { type: 'string' },
        'fanout-channels': { type: 'string' },
        'fanout-sim-rate': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n${HELP}`);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const only = values.only === undefined ? [...BENCHES] : values.only.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of only) if (!(BENCHES as readonly string[]).includes(name)) fail(`unknown bench ${JSON.stringify(name)} in --only; choose from ${BENCHES.join(', ')}`);
  const number = (raw: string | undefined, name: string, fallback: number, min: number, max: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) fail(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return n;
  };
  const clock = values['fanout-clock'] ?? DEFAULT_FANOUT.clock;
  if (clock !== 'fixed' && clock !== 'now') fail(`--fanout-clock must be fixed or now, got ${JSON.stringify(clock)}`);
  const channels = values['fanout-channels'] ?? DEFAULT_FANOUT.channels;
  if (channels !== 'quotes' && channels !== 'all') fail(`--fanout-channels must be quotes or all, got ${JSON.stringify(channels)}`);
  const connections = number(values['fanout-connections'], 'fanout-connections', DEFAULT_FANOUT.connections, 1, 1900);
  return {
    only: BENCHES.filter((b) => only.includes(b)),
    durationS: number(values.duration, 'duration', 10, 1, 120),
    warmupS: number(values.warmup, 'warmup', 1, 0, 30),
    json: values.json ?? null,
    check: values.check ?? false,
    metrics: values.metrics ?? false,
    floorRounds: number(values['floor-rounds'], 'floor-rounds', FLOOR_ROUNDS, 1, 21),
    workersRounds: number(values['workers-rounds'], 'workers-rounds', WORKERS_ROUNDS, 1, 21),
    baseline: values.baseline ?? join(REPO_ROOT, 'bench', 'baseline.json'),
    fanout: { ...DEFAULT_FANOUT, connections, procs: number(values['fanout-procs'], 'fanout-procs', DEFAULT_FANOUT.procs, 1, 8), clock, channels, simRate: number(values['fanout-sim-rate'], 'fanout-sim-rate', DEFAULT_FANOUT.simRate, 0.1, 100) },
  };
}

// --- formatting ---------------------------------------------------------------------------

const int = (n: number) => Math.round(n).toLocaleString('en-US');
/** Throughputs as integers; small values (µs per request) with two decimals. */
const amount = (n: number) => (Math.abs(n) < 100 ? n.toFixed(2) : int(n));
const ms = (n: number | null) => (n === null ? '—' : n < 10 ? `${n.toFixed(2)} ms` : n < 100 ? `${n.toFixed(1)} ms` : `${n.toFixed(0)} ms`);
const result = (row: Row) => (row.problems.length > 0 && row.pass !== true ? 'MISS*' : row.pass === null ? '—' : row.pass ? 'PASS' : 'MISS');

function table(rows: Row[]): string {
  const header = ['bench', 'ceiling', 'ours', 'ratio', 'p50', 'p99', 'ceiling p99', 'MB/s', 'target', 'result'];
  const lines = rows.map((r) => [
    r.label,
    r.ceiling === null ? '—' : `${int(r.ceiling)} ${r.unit}`,
    `${amount(r.value)} ${r.unit}`,
    r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`,
    ms(r.p50Ms),
    ms(r.p99Ms),
    ms(r.ceilingP99Ms),
    r.mbPerS === null ? '—' : r.mbPerS.toFixed(0),
    r.target,
    result(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const right = new Set([1, 2, 3, 4, 5, 6, 7]);
  const fmt = (cells: string[]) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

// --- check --------------------------------------------------------------------------------

interface Report {
  version: 1;
  started_at: string;
  machine: { cpus: number; model: string; platform: string; bun: string };
  /** What the numbers depend on, measured at the start of the run (lib/host.ts). */
  host: HostFacts;
  options: { duration_s: number; warmup_s: number; only: BenchName[]; fanout: FanoutOptions };
  rows: Row[];
  errors: string[];
}

function check(rows: Row[], baselinePath: string): { ok: boolean; lines: string[] } {
  let baseline: Report;
  try {
    baseline = JSON.parse(readFileSync(baselinePath, 'utf8')) as Report;
  } catch (err) {
    return { ok: false, lines: [`cannot read the baseline ${baselinePath}: ${(err as Error).message}`] };
  }
  const byId = new Map(baseline.rows.map((r) => [r.id, r]));
  let ok = true;
  const lines: string[] = [];
  for (const row of rows) {
    const base = byId.get(row.id);
    const now = checkedValue(row);
    const then = base ? checkedValue({ ...base, checkOn: row.checkOn }) : null;
    if (!base || then === null || now === null) {
      lines.push(`  ${row.id.padEnd(26)} no baseline`);
      continue;
    }
    const floor = then * (1 - CHECK_TOLERANCE);
    const good = now >= floor;
    ok &&= good;
    const show = (v: number) => (row.checkOn === 'ratio' ? `${v.toFixed(2)}×` : `${int(v)} ${row.unit}`);
    lines.push(`  ${row.id.padEnd(26)} ${(row.checkOn === 'ratio' ? 'ratio' : 'value').padEnd(5)} ${show(now).padStart(16)} vs baseline ${show(then).padStart(16)} (${now >= then ? '+' : ''}${(((now - then) / then) * 100).toFixed(0)}%)  ${good ? 'ok' : `FAIL: below ${show(floor)}`}`);
  }
  return { ok, lines };
}

// --- main ---------------------------------------------------------------------------------

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  // Bound the whole run: generous for the default (~6–7 min) and for longer --duration.
  installCleanup(Math.max(15 * 60_000, opts.durationS * 70_000));
  const started = performance.now();
  const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);
  const ctx: BenchContext = { durationS: opts.durationS, warmupS: opts.warmupS, log };
  // Before anything else starts, so the load average and the fsync probe are the host's alone.
  const host = measureHost();
  for (const line of describeHost(host)) log(line);
  const rows: Row[] = [];
  const errors: string[] = [];
  const attempt = async (name: string, run: () => Promise<Row[]>) => {
    try {
      rows.push(...(await run()));
    } catch (err) {
      const message = `${name} failed: ${err instanceof Error ? err.message : String(err)}`;
      errors.push(message);
      log(message);
    }
  };

  // Ingest first: its durable commits must not queue behind the writeback of the history the HTTP server makes.
  if (opts.only.includes('ingest')) await attempt('ingest', () => benchIngest(ctx));
  if (opts.only.includes('quote-steps')) await attempt('quote-steps', () => benchQuoteSteps(ctx));
  const http = opts.only.filter((b) => b === 'quote' || b === 'quote-floor' || b === 'range');
  if (http.length > 0) {
    let server: MdsServer | null = null;
    try {
      ensureWrk(log);
      log(`starting mds (31 days of 1-minute history, simulator on, clock at ${ALL_OPEN_CLOCK}, metrics ${opts.metrics ? 'on' : 'off'})`);
      server = await startMds({ args: ['--history-days', '31', '--history-years', '0', '--clock-start', ALL_OPEN_CLOCK, ...(opts.metrics ? ['--metrics-port', '0'] : [])] });
      log(`mds ready on ${server.base} in ${server.startSeconds.toFixed(1)} s`);
      const s = server;
      if (opts.only.includes('quote')) await attempt('quote', () => benchQuote(ctx, s));
      if (opts.only.includes('quote-floor')) {
        await attempt('quote-floor', async () => {
          const seconds = Math.max(3, Math.round(opts.durationS / 2));
          ctx.log(`quote /crypto/quote/BTCUSD vs its contract floor: ${opts.floorRounds} alternating rounds, ${seconds} s each`);
          return [quoteVsFloorRow(await measureFloorRounds(ctx, s, '/crypto/quote/BTCUSD', { seconds, connections: 64, rounds: opts.floorRounds }))];
        });
      }
      if (opts.only.includes('range')) await attempt('range', () => benchRange(ctx, s, Date.parse(ALL_OPEN_CLOCK)));
    } catch (err) {
      const message = `${http.join(' and ')}: ${err instanceof Error ? err.message : String(err)}`;
      errors.push(message);
      log(message);
    } finally {
      await server?.stop();
    }
  }
  if (opts.only.includes('fanout')) await attempt('fanout', () => benchFanout(ctx, opts.fanout));
  if (opts.only.includes('fanout-conflate')) await attempt('fanout-conflate', () => benchFanoutConflate(ctx, { connections: opts.fanout.connections }));
  if (opts.only.includes('venue-parse')) await attempt('venue-parse', () => benchVenueParse(ctx));
  if (opts.only.includes('venue-feed')) await attempt('venue-feed', () => benchVenueFeed(ctx));
  if (opts.only.includes('first-run')) await attempt('first-run', () => benchFirstRun(ctx));
  if (opts.only.includes('venue-e2e')) await attempt('venue-e2e', () => benchVenueE2E(ctx, { connections: opts.fanout.connections }));
  if (opts.only.includes('reconnect-flood')) await attempt('reconnect-flood', () => benchReconnectFlood(ctx));
  if (opts.only.includes('workers')) await attempt('workers', () => benchWorkers(ctx, opts.workersRounds));

  rows.sort((a, b) => BENCHES.indexOf(a.bench) - BENCHES.indexOf(b.bench));
  const report: Report = {
    version: 1,
    started_at: new Date(Date.now() - (performance.now() - started)).toISOString(),
    machine: { cpus: host.cores, model: host.cpuModel, platform: host.platform, bun: host.bun },
    host,
    options: { duration_s: opts.durationS, warmup_s: opts.warmupS, only: opts.only, fanout: opts.fanout },
    rows,
    errors,
  };

  const out: string[] = ['', table(rows), ''];
  for (const r of rows) {
    for (const n of r.notes) out.push(`${r.label}: ${n}`);
    for (const p of r.problems) out.push(`${r.label}: PROBLEM: ${p}`);
  }
  if (rows.some((r) => r.problems.length > 0)) out.push('MISS* = the measurement had problems (listed above); its number is suspect.');
  for (const e of errors) out.push(`ERROR: ${e}`);
  out.push(...describeHost(host));
  out.push(`total ${((performance.now() - started) / 1000).toFixed(0)} s, ${report.machine.cpus} cores (${report.machine.model}), bun ${Bun.version}; server on core 0, load on core 1`);
  process.stdout.write(out.join('\n') + '\n');

  if (opts.json) {
    writeFileSync(opts.json, JSON.stringify(report, null, 2) + '\n');
    log(`wrote ${opts.json}`);
  }
  let code = errors.length > 0 ? 1 : 0;
  if (opts.check) {
    const c = check(rows, opts.baseline);
    process.stdout.write(`\ncheck against ${opts.baseline} (fails when more than ${CHECK_TOLERANCE * 100}% below):\n${c.lines.join('\n')}\n${c.ok ? 'check: ok' : 'check: FAILED'}\n`);
    if (!c.ok) code = 1;
  }
  return code;
}

main().then(
  (code) => {
    killEverything();
    process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    killEverything();
    process.exit(1);
  },
);
