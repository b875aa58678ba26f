// Hot path: ingest. Venue ticks through the whole pipeline (consolidator per symbol → latest state
// and ticks ring → bars → listeners) into a Store on a temp dir with durable LMDB commits, timed
// until the final flush is durable. In-process harness, run as a child pinned to the server core.
// Each round first runs the ceiling (lib/ingest-ceiling.ts: the same tick stream written as the same
// records in the same 20 ms durable transactions by a bare lmdb-js loop on the same disk), then ours.
// Target (issue 33): a ratio to that ceiling, which moves far less from host to host than ticks/s;
// issue 6's absolute ≥ 1,000,000 ticks/s is still printed in the notes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/clock.ts';
import { CLASS_POLICY } from '../src/domain/asset-classes.ts';
import type { InstrumentSpec } from '../src/domain/instrument.ts';
import { Pipeline } from '../src/ingest/pipeline.ts';
import { CATALOG } from '../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../src/ingest/reference/seed-registry.ts';
import { quoteAround, sigmaOver, stepPrice, tradeSize, type VenueBook } from '../src/ingest/simulator/price-model.ts';
import { Rng, seedFor } from '../src/ingest/simulator/random.ts';
import { VENUES_PER_CLASS } from '../src/ingest/simulator/simulator.ts';
import { Store } from '../src/store/index.ts';
import type { IngestCeilingResult } from './lib/ingest-ceiling.ts';
import { BUN, SERVER_CORE, spawnPinned, withTimeout } from './lib/proc.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { ALL_OPEN_CLOCK } from './lib/server.ts';

/** Issue 6's absolute target, now a note: it holds on one host and not on another of the same kind. */
const ABSOLUTE_TICKS_PER_S = 1_000_000;
/** The target: ingest ÷ the bare lmdb-js ceiling of the same run (see bench/README.md for how it was set). */
const TARGET_RATIO = 0.14;
const DEFAULT_TICKS = 1_000_000;
const WARMUP_TICKS = 100_000;
/** Rounds of ceiling then ours, each a fresh process and store; the round with the median ratio is reported. */
const ROUNDS = 3;
/** Ticks fed between yields to the event loop, so the store's 20 ms flush timer runs as in the server. */
const BATCH = 4096;
/** Prebuilt books per venue, cycled: building them is not what is measured. */
const POOL = 64;

interface Feed {
  symId: number;
  venues: number;
  hasTape: boolean;
  books: VenueBook[][]; // [venue][POOL]
  sizes: number[];
}

export interface IngestResult {
  ticks: number;
  seconds: number;
  ticksPerS: number;
  consolidated: number;
  finalFlushMs: number;
  generatorNsPerTick: number;
  symbols: number;
  timeCapped: boolean;
}

function buildFeeds(store: Store): Feed[] {
  const feeds: Feed[] = [];
  for (const spec of CATALOG as readonly InstrumentSpec[]) {
    const entry = store.registry.bySymbolName(spec.symbol);
    if (!entry) continue;
    const rng = new Rng(seedFor(42, `bench:${spec.symbol}`));
    const venues = VENUES_PER_CLASS[spec.assetClass];
    let fair = spec.price;
    const books: VenueBook[][] = Array.from({ length: venues }, () => []);
    for (let i = 0; i < POOL; i++) {
      fair = stepPrice(fair, sigmaOver(spec, 250), rng);
      for (let v = 0; v < venues; v++) books[v]!.push(quoteAround(spec, fair, (v - 1) * spec.spreadBps * 0.1, 1, rng));
    }
    feeds.push({ symId: entry.id, venues, hasTape: CLASS_POLICY[spec.assetClass].barSource === 'trade', books, sizes: Array.from({ length: POOL }, () => tradeSize(spec, rng)) });
  }
  return feeds;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Feeds ticks `from` … `to - 1`: round-robin over the symbols, one millisecond apart (about 4 ticks
 * per symbol per second, like the simulator); every 5th round of a symbol with a tape is a trade.
 */
async function feed(pipeline: Pipeline | null, clock: ManualClock, feeds: Feed[], startMs: number, from: number, to: number, deadline: number): Promise<number> {
  const n = feeds.length;
  let i = from;
  while (i < to) {
    const end = Math.min(to, i + BATCH);
    for (; i < end; i++) {
      const f = feeds[i % n]!;
      const round = (i / n) | 0;
      const tsMs = startMs + i;
      const book = f.books[round % f.venues]![round % POOL]!;
      if (f.hasTape && round % 5 === 4) {
        const t = { venue: round % f.venues, tsMs, price: round & 1 ? book.bid : book.ask, size: f.sizes[round % POOL]! };
        if (pipeline) pipeline.onVenueTrade(f.symId, t);
      } else {
        const q = { venue: round % f.venues, tsMs, bid: book.bid, ask: book.ask, bidSize: book.bidSize, askSize: book.askSize };
        if (pipeline) pipeline.onVenueQuote(f.symId, q);
      }
    }
    clock.set(startMs + i);
    await yieldToLoop();
    if (performance.now() > deadline) break;
  }
  return i - from;
}

/** The harness itself: runs in the child process. */
export async function runIngestHarness(ticks: number, maxSeconds: number): Promise<IngestResult> {
  const dir = mkdtempSync(join(tmpdir(), 'mds-bench-ingest-'));
  const store = Store.open({ dataDir: dir });
  try {
    seedRegistry(store, CATALOG);
    const startMs = Date.parse(ALL_OPEN_CLOCK);
    const clock = new ManualClock(startMs);
    const pipeline = new Pipeline(store, clock);
    let consolidated = 0;
    // Stands in for the stream hub, which the server always subscribes.
    pipeline.subscribe({ onQuote: () => void consolidated++, onTrade: () => void consolidated++ });
    pipeline.start();
    const feeds = buildFeeds(store);

    // What the harness costs without the pipeline (ticks objects, loop, yields).
    const g0 = performance.now();
    const generated = await feed(null, new ManualClock(startMs), feeds, startMs, 0, ticks, Infinity);
    const generatorNsPerTick = ((performance.now() - g0) * 1e6) / generated;

    await feed(pipeline, clock, feeds, startMs, 0, WARMUP_TICKS, Infinity);
    await store.flush();
    consolidated = 0;

    const t0 = performance.now();
    const fed = await feed(pipeline, clock, feeds, startMs, WARMUP_TICKS, WARMUP_TICKS + ticks, t0 + maxSeconds * 1000);
    const f0 = performance.now();
    await store.flush();
    const t1 = performance.now();
    pipeline.stop();
    const seconds = (t1 - t0) / 1000;
    return { ticks: fed, seconds, ticksPerS: fed / seconds, consolidated, finalFlushMs: t1 - f0, generatorNsPerTick, symbols: feeds.length, timeCapped: fed < ticks };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `args` in a child process pinned to the server core; returns the JSON after `marker`. */
async function runChild<T>(args: string[], marker: string, maxSeconds: number, what: string): Promise<T> {
  const child = spawnPinned(SERVER_CORE, [BUN, ...args]);
  let code: number | null;
  try {
    code = await withTimeout(child.proc.exited, (maxSeconds * 3 + 60) * 1000, what);
  } catch (err) {
    await child.stop(2000);
    throw err;
  }
  await child.stdout.done;
  const m = child.stdout.text().match(new RegExp(`^${marker} (.*)$`, 'm'));
  if (code !== 0 || !m) throw new Error(`${what} failed (exit ${code}):\n${child.stderr.text()}\n${child.stdout.text()}`);
  return JSON.parse(m[1]!) as T;
}

const runHarness = (ticks: number, maxSeconds: number) => runChild<IngestResult>([import.meta.path, '--child', String(ticks), String(maxSeconds)], 'INGEST_RESULT', maxSeconds, 'ingest harness');
const runCeiling = (ticks: number, maxSeconds: number) =>
  runChild<IngestCeilingResult>([join(import.meta.dir, 'lib', 'ingest-ceiling.ts'), String(ticks), String(maxSeconds), String(WARMUP_TICKS)], 'INGEST_CEILING_RESULT', maxSeconds, 'ingest ceiling');

export async function benchIngest(ctx: BenchContext, ticks = DEFAULT_TICKS): Promise<Row[]> {
  ctx.log(`ingest: ${ticks.toLocaleString('en-US')} venue ticks through the pipeline into LMDB, ${ROUNDS} rounds of the bare lmdb-js ceiling then ours (fresh runs, each at most ${ctx.durationS} s), the median ratio reported`);
  const rounds: IngestResult[] = [];
  const ceilings: IngestCeilingResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    ceilings.push(await runCeiling(ticks, ctx.durationS));
    rounds.push(await runHarness(ticks, ctx.durationS));
  }
  // Each round's ratio pairs runs next to each other in time, so load that drifts over the bench
  // moves both; the round with the median ratio is reported (the ceiling's short runs would win a best-of).
  const ratios = rounds.map((x, i) => x.ticksPerS / ceilings[i]!.ticksPerS);
  const median = [...ratios.keys()].sort((a, b) => ratios[a]! - ratios[b]!)[(ratios.length - 1) >> 1]!;
  const r = rounds[median]!;
  const c = ceilings[median]!;
  const ratio = ratios[median]!;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const notes = [
    `${fmt(r.ticks)} ticks over ${r.symbols} symbols in ${r.seconds.toFixed(2)} s, final flush ${r.finalFlushMs.toFixed(0)} ms; ${fmt(r.consolidated)} consolidated ticks stored; harness alone ${r.generatorNsPerTick.toFixed(0)} ns/tick`,
    `ceiling (bare lmdb-js, same records and 20 ms durable transactions): ${fmt(c.ticks)} ticks in ${c.seconds.toFixed(2)} s, ${c.transactions} transactions, ${fmt(c.records)} records, ${c.megabytes.toFixed(0)} MB, final flush ${c.finalFlushMs.toFixed(0)} ms`,
    `rounds (ceiling → ours): ${rounds.map((x, i) => `${fmt(ceilings[i]!.ticksPerS)} → ${fmt(x.ticksPerS)} (${(x.ticksPerS / ceilings[i]!.ticksPerS).toFixed(2)}×)`).join(', ')} ticks/s; the median round reported`,
    `issue 6's absolute target ≥${fmt(ABSOLUTE_TICKS_PER_S)} ticks/s: ${r.ticksPerS >= ABSOLUTE_TICKS_PER_S ? 'met' : 'not met'} on this host`,
  ];
  if (r.timeCapped) notes.push(`stopped at the ${ctx.durationS} s cap before ${fmt(ticks)} ticks`);
  return [
    {
      id: 'ingest',
      bench: 'ingest',
      label: 'ingest, durable LMDB (vs bare lmdb-js puts)',
      unit: 'ticks/s',
      ceiling: c.ticksPerS,
      ceilingP50Ms: null,
      ceilingP99Ms: null,
      value: r.ticksPerS,
      p50Ms: null,
      p99Ms: null,
      mbPerS: null,
      ratio,
      target: `≥${TARGET_RATIO.toFixed(2)}× ceiling`,
      pass: ratio >= TARGET_RATIO,
      checkOn: 'ratio',
      problems: [],
      notes,
      details: { ...r, rounds, ceiling: c, ceilings },
    },
  ];
}

if (import.meta.main && process.argv[2] === '--child') {
  const ticks = Number(process.argv[3] ?? DEFAULT_TICKS);
  const maxSeconds = Number(process.argv[4] ?? 10);
  const result = await runIngestHarness(ticks, maxSeconds);
  console.log(`INGEST_RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}
