// What counting a request for /metrics costs the quote route, timed in this process (standalone:
// `bun bench/metrics-cost.ts`): the same app over the same store with and without the metrics
// hooks, alternating rounds, each answering GET /crypto/quote/BTCUSD through Elysia's handler.
// In-process timing leaves out the network, so a loaded machine (or wrk sharing the core) moves it
// far less than an HTTP bench; the difference is the hooks' cost per request.
import { createApp } from '../src/api/app.ts';
import { RequestMetrics } from '../src/api/request-metrics.ts';
import { Authenticator } from '../src/auth/authenticator.ts';
import { systemClock } from '../src/clock.ts';
import { BUILT_IN_PLANS } from '../src/domain/plans.ts';
import { Pipeline } from '../src/ingest/pipeline.ts';
import { ALL_INSTRUMENTS } from '../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../src/ingest/reference/seed-registry.ts';
import { Store } from '../src/store/index.ts';
import { removeDir, tempDir } from './lib/proc.ts';
import { median } from './lib/stats.ts';

const CALLS = 200_000;
const ROUNDS = 9;
const KEY = 'bench-dev-key-0123456789';
const PATH = '/crypto/quote/BTCUSD';

const dir = tempDir('mds-bench-metrics-');
const store = Store.open({ dataDir: dir });
try {
  seedRegistry(store, ALL_INSTRUMENTS);
  const btc = store.registry.resolve('crypto', 'BTCUSD')!;
  store.appendQuote(btc.id, systemClock.nowMs(), 65_000.5, 65_001.25, 1.5, 2);
  const pipeline = new Pipeline(store, systemClock);
  const auth = new Authenticator({ store, clock: systemClock, plans: BUILT_IN_PLANS, devKey: KEY, devPerMinute: 1e12 });
  const deps = { store, bars: pipeline.bars, composites: pipeline, clock: systemClock, auth, feed: 'none', version: 'bench' };
  const requests = new RequestMetrics();
  const apps = { off: createApp(deps, () => {}), on: createApp(deps, () => {}, { requests }) };
  const inputs = Array.from({ length: 256 }, () => new Request(`http://127.0.0.1:8080${PATH}`, { headers: { 'x-api-key': KEY } }));
  const round = async (app: (typeof apps)['on']) => {
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) {
      const res = await app.handle(inputs[i & 255]!);
      if (res.status !== 200) throw new Error(`${PATH} answered ${res.status}`);
    }
    return ((performance.now() - started) * 1000) / CALLS;
  };
  await round(apps.off);
  await round(apps.on);
  const samples = { off: [] as number[], on: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternating, the order flipped every round: drift of the machine lands on both sides.
    for (const side of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) samples[side].push(await round(apps[side]));
  }
  const off = median(samples.off);
  const on = median(samples.on);
  const pairs = samples.on.map((v, i) => v / samples.off[i]!);
  process.stdout.write(
    `${PATH} in-process, median of ${ROUNDS} alternating rounds of ${CALLS}:\n` +
      `  metrics off ${off.toFixed(3)} µs/req, on ${on.toFixed(3)} µs/req: ${on >= off ? "+" : ""}${(on - off).toFixed(3)} µs (${((on / off - 1) * 100).toFixed(1)}%)\n` +
      `  per-round ratios on/off: ${pairs.map((p) => p.toFixed(3)).join(' ')}; median ${median(pairs).toFixed(3)}\n` +
      `  counted: ${requests.snapshot().routes.find((r) => r.route === '/crypto/quote/:symbol')?.timed ?? 0} requests timed\n`,
  );
} finally {
  await store.close();
  removeDir(dir);
}
