// `mds serve`: opens the store, seeds the registry, makes or resumes history, starts the feed
// and serves REST on one port; stops cleanly on SIGTERM/SIGINT with everything flushed.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { shiftedClock, systemClock, type Clock } from '../clock.ts';
import type { ServeConfig } from '../config.ts';
import type { Server } from 'bun';
import { createApp, type NativeRoute } from '../api/app.ts';
import { Authenticator } from '../auth/authenticator.ts';
import { loadPlans } from './plans-file.ts';
import { createStream, type ConnData } from '../stream/connections.ts';
import { StreamHub } from '../stream/hub.ts';
import { Pipeline } from '../ingest/pipeline.ts';
import { ALL_INSTRUMENTS, CATALOG, PERPETUALS, SIMULATED } from '../ingest/reference/catalog.ts';
import { PerpetualComposites } from '../ingest/perpetual-composites.ts';
import { PerpetualVenues } from '../ingest/simulator/perpetual-venues.ts';
import { seedRegistry } from '../ingest/reference/seed-registry.ts';
import { extendHistory } from '../ingest/simulator/history.ts';
import { Simulator } from '../ingest/simulator/simulator.ts';
import { SIM_QUOTES_PER_SECOND, SIM_TRADES_PER_SECOND } from '../ingest/simulator/price-model.ts';
import { SimulatedFundamentals } from '../ingest/simulator/fundamentals.ts';
import { SimulatedBonds } from '../ingest/simulator/bonds.ts';
import { SimulatedCalendar } from '../ingest/simulator/economic-calendar.ts';
import { freeBytesAt, isCommitFailure, Store } from '../store/index.ts';
import { refuseFullDisk, START_MIN_FREE_BYTES } from './full-disk.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { checkListenHost, listenFailure } from './listen-address.ts';
import { VERSION } from '../version.ts';

export type Log = (line: string) => void;
/** How often the simulator advances its instruments. */
const SIM_STEP_MS = 25;
/** How often free disk space is checked, and retention applied, in the background. */
const DISK_CHECK_MS = 10_000;
const RETENTION_EVERY_MS = 3_600_000;
/** Instruments whose history is committed (and reported) together. */
const HISTORY_FLUSH_INSTRUMENTS = 32;
const consoleLog: Log = (line) => console.log(`${new Date().toISOString()} ${line}`);

export interface RunningServer {
  port: number;
  stop(): Promise<void>;
}

export async function serve(config: ServeConfig, log: Log = consoleLog): Promise<RunningServer> {
  const dataDir = resolve(config.dataDir);
  // Everything an operator can get wrong is checked before the data dir is touched.
  const plans = loadPlans(config.plansFile);
  await checkListenHost(config.host);
  refuseFullDisk(dataDir, freeBytesAt(dataDir));
  const unlock = lockDataDir(dataDir);
  const clock = config.clockStartMs === null ? systemClock : shiftedClock(config.clockStartMs);
  const store = Store.open({ dataDir, ringCapacity: config.ringCapacity, minFreeBytes: config.minFreeDiskBytes, nowMs: () => clock.nowMs(), log });
  let devKey: string | null = null;
  try {
    seedRegistry(store, ALL_INSTRUMENTS);
    devKey = config.noDevKey ? null : (config.devKey ?? store.getMeta<string>('devKey') ?? null);
    if (devKey === null && !config.noDevKey) {
      devKey = `mds_dev_${randomBytes(18).toString('base64url')}`;
      await store.putMeta('devKey', devKey);
    }
    // History first: the pipeline resumes the bars in progress it leaves behind.
    if (config.feed === 'sim') await makeHistory(store, config, clock, log);
  } catch (err) {
    // A disk that fills while the history is written: refuse as a full disk at start, not a crash.
    const failure = store.writeStatus().failure;
    const isFull = (freeBytesAt(dataDir) ?? Infinity) < START_MIN_FREE_BYTES;
    if (!isCommitFailure(err) && failure === null && !isFull) throw err;
    await store.close();
    unlock();
    refuseFullDisk(dataDir, freeBytesAt(dataDir), failure ?? err);
  }
  const pipeline = new Pipeline(store, clock);
  // Perpetual composites fold into the pipeline's bars (sealed by its timer) but keep their own rules.
  const composites = new PerpetualComposites(store, pipeline.bars);
  let perpetualVenues: PerpetualVenues | null = null;
  let simulator: Simulator | null = null;
  let fundamentals: SimulatedFundamentals | null = null;
  let bonds: SimulatedBonds | null = null;
  let calendar: SimulatedCalendar | null = null;
  if (config.feed === 'sim') {
    // A short step spreads ticks over time as a live feed does, instead of bursts every 100 ms.
    simulator = new Simulator(store, SIMULATED, pipeline, clock, { seed: config.seed, stepMs: SIM_STEP_MS, quotesPerSecond: SIM_QUOTES_PER_SECOND * config.simRate, tradesPerSecond: SIM_TRADES_PER_SECOND * config.simRate });
    simulator.publishClosingBooks(store);
    simulator.start();
    perpetualVenues = new PerpetualVenues(store, PERPETUALS, composites, clock, { seed: config.seed, stepMs: SIM_STEP_MS, quotesPerSecond: SIM_QUOTES_PER_SECOND * config.simRate, tradesPerSecond: SIM_TRADES_PER_SECOND * config.simRate });
    perpetualVenues.open(clock.nowMs());
    perpetualVenues.start();
    // After the closing books: the fundamentals are cross-checked against these prices.
    fundamentals = new SimulatedFundamentals(store, CATALOG, clock, config.seed);
    fundamentals.start();
    // Daily official-style observations, so bond history is there on a fresh start (>= 1 year).
    const bondsStarted = performance.now();
    bonds = new SimulatedBonds(store, clock, config.seed, Math.max(1, config.historyYears));
    const published = bonds.start();
    if (published > 0) log(`bond yields: ${published} daily observations published in ${((performance.now() - bondsStarted) / 1000).toFixed(2)}s`);
    // Recurring releases from 60 days back to 60 ahead; actuals arrive as the clock passes them.
    calendar = new SimulatedCalendar(store, clock, config.seed);
    calendar.start();
  }
  pipeline.start();

  const auth = new Authenticator({ store, clock, plans, devKey, devPerMinute: config.rateLimitPerMinute });
  auth.start();
  const hub = new StreamHub(clock);
  // Keys whose plan this server's table lacks answer 403 naming the plan; say so now, not at the first call.
  for (const { id, plan } of auth.keysWithoutPlan()) log(`warning: key ${id} has plan ${JSON.stringify(plan)}, which the plans table does not have: its calls get 403 until the plan is added or the key updated`);
  const stream = createStream({ store, clock, hub, auth, log, limits: { heartbeatMs: config.heartbeatMs, slowConsumerBytes: config.slowConsumerBytes } });
  pipeline.subscribe(hub);
  composites.subscribe(hub.composites);
  // One port. `/` with a WebSocket handshake is the stream; every REST route is the app's, each
  // registered in Bun's native router by listen().
  const root: NativeRoute = (req, srv) => (req.headers.get('upgrade')?.toLowerCase() === 'websocket' ? stream.upgrade(req, srv) : app.fetch(req));
  let server: Server<ConnData> | null = null;
  const peerAddress = (req: Request) => server?.requestIP(req)?.address;
  const app = createApp({ store, bars: pipeline.bars, composites, clock, auth, feed: config.feed, feedActivity: simulator ? pipeline : undefined, version: VERSION }, log, { nativeRoutes: { '/': root }, peerAddress });
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      simulator?.stop();
      perpetualVenues?.stop();
      fundamentals?.stop();
      bonds?.stop();
      calendar?.stop();
      pipeline.stop();
      stream.stop();
      auth.stop();
      await server?.stop(true);
      const isComplete = await store.close();
      unlock();
      log(isComplete ? 'stopped; everything written is on disk' : `stopped with writes failing (${store.writeStatus().failure}): what was not yet written is lost`);
    })());
  try {
    app.listen({ port: config.port, hostname: config.host, websocket: stream.websocket, reusePort: false, development: false, idleTimeout: 30 });
  } catch (err) {
    await stop();
    throw listenFailure(config.host, config.port, err);
  }
  server = app.server as unknown as Server<ConnData>;
  store.watchDisk(DISK_CHECK_MS);
  store.startRetention(config.retain, RETENTION_EVERY_MS);
  hub.attach(server as unknown as Server<unknown>);
  stream.start();
  const port = server.port!;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  log(`mds ${VERSION} serving REST on http://${shownHost}:${port}`);
  log(`streaming on ws://${shownHost}:${port}/?apiKey=<key>`);
  log(`data dir ${dataDir}`);
  if (devKey !== null) {
    log(`feed ${config.feed}; development API key (send as x-api-key): ${devKey}`);
    log(`try: curl -H 'x-api-key: ${devKey}' http://${shownHost}:${port}/crypto/quote/BTCUSD`);
  } else {
    log(`feed ${config.feed}; no development key: make keys with 'mds keys create --plan <plan> --data-dir ${dataDir}'`);
  }

  return { port, stop };
}

/** First start: history for every instrument; later starts: the gap since the last run. */
async function makeHistory(store: Store, config: ServeConfig, clock: Clock, log: Log): Promise<void> {
  const floorMinute = (ms: number) => ms - (ms % 60_000);
  const endMs = floorMinute(clock.nowMs());
  const started = performance.now();
  const isFirst = store.getMeta('historyDone') === undefined;
  const plan = { minuteDays: config.historyDays, years: config.historyYears };
  log(isFirst ? `first start: making ${config.historyDays} days of 1-minute and ${config.historyYears} years of daily history for ${ALL_INSTRUMENTS.length} instruments` : 'resuming: filling the gap since the last run');
  let done = 0;
  let minutes = 0;
  for (const spec of ALL_INSTRUMENTS) {
    for (const entry of historyEntries(store, spec)) {
      minutes += extendHistory(store, entry, spec, endMs, plan, config.seed);
    }
    done++;
    // Whole instruments per transaction: a kill leaves each one's history complete or absent.
    if (done % HISTORY_FLUSH_INSTRUMENTS === 0) {
      await store.flush();
      log(`  history ${done}/${ALL_INSTRUMENTS.length} instruments written`);
    }
  }
  await store.flush();
  // Making history takes seconds (a first start about 15): minutes that ended meanwhile get their
  // bars too, or the minutes before the feed's first tick would be a gap in every series.
  let coveredMs = endMs;
  for (let pass = 0; pass < 3 && floorMinute(clock.nowMs()) > coveredMs; pass++) {
    coveredMs = floorMinute(clock.nowMs());
    for (const spec of ALL_INSTRUMENTS) {
      for (const entry of historyEntries(store, spec)) minutes += extendHistory(store, entry, spec, coveredMs, plan, config.seed);
    }
    await store.flush();
  }
  if (isFirst) await store.putMeta('historyDone', { atMs: coveredMs, seed: config.seed });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(isFirst ? `history ready in ${seconds}s` : `gap filled (${minutes} minute bars) in ${seconds}s`);
}

/** The series the simulator's history covers for an instrument: its line and, for forex, the raw line. */
function historyEntries(store: Store, spec: (typeof ALL_INSTRUMENTS)[number]) {
  return [store.registry.resolve(spec.assetClass, spec.symbol), store.registry.bySymbolName(`${spec.symbol}.RAW`)].filter((e) => e !== undefined && e !== null);
}
