// Where a quote request's time goes, step by step (issue 33), timed in this process without the
// network: the app over a real store (a temp data dir, the registry seeded, one BTCUSD quote) and
// the same gate, symbol lookup and body the server runs. Each step is timed over fresh requests
// (a Request caches its parsed headers, so reusing one would hide the key read), from the
// request's construction (timed on its own and subtracted) to a Response whose body is read.
// `npm run bench -- --only quote-steps` prints it; `bun bench/quote-steps.ts` alone prints the table.
import { createApp } from '../src/api/app.ts';
import { createGate, type GateContext } from '../src/api/plugins/gate.ts';
import { quoteBody } from '../src/api/queries/latest.ts';
import { resolveSymbol } from '../src/api/queries/resolve.ts';
import { Authenticator } from '../src/auth/authenticator.ts';
import { ManualClock } from '../src/clock.ts';
import { BUILT_IN_PLANS } from '../src/domain/plans.ts';
import { CATALOG } from '../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../src/ingest/reference/seed-registry.ts';
import { Store } from '../src/store/index.ts';
import type { BenchContext, Row } from './lib/report.ts';
import { median } from './lib/stats.ts';
import { removeDir, tempDir } from './lib/proc.ts';

const PATH = '/crypto/quote/BTCUSD';
const URL_TEXT = `http://127.0.0.1:8080${PATH}`;
const DEV_KEY = 'bench-dev-key-0123456789';
const CALLS = 200_000;
const ROUNDS = 5;
const RATE = 1_000_000_000;

export interface StepTimes {
  /** Median µs per call of each step, in the order of a request. */
  steps: { name: string; us: number; what: string }[];
  /** The whole request through the app, request construction subtracted. */
  appUs: number;
  /** The contract floor's handler (key read, four headers, a prebuilt body), the same way. */
  floorUs: number;
}

/**
 * Median µs per call of `step` over fresh requests, minus what making the requests costs. A step
 * that answers a promise (the app's handle) is awaited in batches, inside the timing.
 */
async function timed(step: (request: Request) => unknown, makeCostUs: number): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const requests = Array.from({ length: CALLS }, () => new Request(URL_TEXT, { headers: { 'x-api-key': DEV_KEY, accept: '*/*', host: '127.0.0.1:8080' } }));
    Bun.gc(true);
    const pending: unknown[] = [];
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) {
      const answer = step(requests[i]!);
      if (answer instanceof Promise) pending.push(answer);
      if (pending.length === 1024) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    samples.push(((performance.now() - started) * 1000) / CALLS);
  }
  return Math.max(0, median(samples) - makeCostUs);
}

export async function measureQuoteSteps(): Promise<StepTimes> {
  const dir = tempDir('mds-bench-steps-');
  const store = Store.open({ dataDir: dir });
  try {
    seedRegistry(store, CATALOG);
    const clock = new ManualClock(Date.UTC(2026, 2, 4, 15, 30));
    const entry = store.registry.resolve('crypto', 'BTCUSD');
    if (!entry) throw new Error('BTCUSD is not in the catalog');
    store.appendQuote(entry.id, clock.nowMs() - 50, 94996.75, 94997.86, 0.8, 1);
    store.setFreshness(entry.id, false, clock.nowMs() - 50, 1);
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: DEV_KEY, devPerMinute: RATE });
    const deps = { store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' };
    const app = createApp(deps, () => {});
    const gate = createGate(auth, clock, () => '127.0.0.1');
    const account = auth.authenticate(DEV_KEY);
    if (!account.ok) throw new Error('the development key did not authenticate');

    const make = await timed(() => undefined, 0);
    const headersOnly = await timed((r) => r.headers.get('x-api-key'), make);
    const url = await timed((r) => r.url, make);
    const gatePass = await timed((r) => gate({ request: r, set: { headers: {} } } as GateContext), make);
    const lookup = await timed(() => resolveSymbol(store, 'crypto', 'BTCUSD', account.account), make);
    const body = await timed(() => quoteBody(deps, entry), make);
    const reset = String(Math.ceil(clock.nowMs() / 60_000) * 60);
    let served = 0;
    const prebuilt = new TextEncoder().encode(quoteBody(deps, entry));
    const floorHandler = (r: Request) => {
      if (r.headers.get('x-api-key') === null) return new Response(null, { status: 401 });
      served++;
      return new Response(prebuilt, { headers: { 'content-type': 'application/json', 'x-request-id': `floor-${served.toString(36)}`, 'x-ratelimit-limit': String(RATE), 'x-ratelimit-remaining': String(RATE - served), 'x-ratelimit-reset': reset } });
    };
    const floor = await timed(floorHandler, make);
    const stringResponse = await timed(() => new Response(quoteBody(deps, entry), { headers: { 'content-type': 'application/json', 'x-request-id': 'a', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1' } }), make);
    const first = await app.handle(new Request(URL_TEXT, { headers: { 'x-api-key': DEV_KEY } }));
    if (first.status !== 200) throw new Error(`the quote route answered ${first.status}: ${await first.text()}`);
    const appUs = await timed((r) => app.handle(r), make);
    return {
      steps: [
        { name: 'read the key header', us: headersOnly, what: 'request.headers.get (the floor does it too)' },
        { name: 'read the URL', us: url, what: 'request.url (the gate reads the path from it)' },
        { name: 'gate', us: gatePass, what: 'request id, path, key, quota and minute counting, rate headers, class check' },
        { name: 'symbol lookup', us: lookup, what: 'resolveSymbol: the path symbol to its registry entry' },
        { name: 'quote body', us: body, what: 'the cached JSON body of the line (re-encoded on a change)' },
        { name: 'Response from a string body and 5 headers', us: stringResponse, what: 'what the framework builds from the handler\'s answer' },
      ],
      appUs,
      floorUs: floor,
    };
  } finally {
    await store.close();
    removeDir(dir);
  }
}

export async function benchQuoteSteps(ctx: BenchContext): Promise<Row[]> {
  ctx.log('quote-steps: timing each step of a quote request in-process');
  const t = await measureQuoteSteps();
  return [
    {
      id: 'quote-steps',
      bench: 'quote-steps',
      label: 'quote: one request in-process, app vs floor',
      unit: 'µs/req',
      ceiling: t.floorUs,
      ceilingP50Ms: null,
      ceilingP99Ms: null,
      value: t.appUs,
      p50Ms: null,
      p99Ms: null,
      mbPerS: null,
      ratio: t.floorUs / t.appUs,
      target: '—',
      pass: null,
      checkOn: 'ratio',
      problems: [],
      notes: [`steps (median µs per call, request construction subtracted): ${t.steps.map((s) => `${s.name} ${s.us.toFixed(2)}`).join('; ')}; ratio = floor ÷ app time`],
      details: { ...t },
    },
  ];
}

if (import.meta.main) {
  const t = await measureQuoteSteps();
  for (const s of t.steps) console.log(`${s.us.toFixed(2).padStart(7)} µs  ${s.name.padEnd(42)} ${s.what}`);
  console.log(`${t.floorUs.toFixed(2).padStart(7)} µs  the contract floor's handler`);
  console.log(`${t.appUs.toFixed(2).padStart(7)} µs  the whole request through the app (app.handle)`);
}
