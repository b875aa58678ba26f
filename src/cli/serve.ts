// `mds serve`: opens the store, seeds the registry, makes the recent history, starts the feed,
// serves REST on one port and makes (or resumes) the older history in the background; stops
// cleanly on SIGTERM/SIGINT with everything flushed.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { OffsetClock, shiftedClock, systemClock, type Clock } from '../clock.ts';
import { asLogger, createLogger, type LineLog, type Logger } from '../log.ts';
import { keylessCryptoOn, UsageError, type ServeConfig } from '../config.ts';
import { HISTORY_BUILD_META } from '../domain/history-build.ts';
import type { Server } from 'bun';
import { createApp, type NativeRoute } from '../api/app.ts';
import { Authenticator } from '../auth/authenticator.ts';
import { clientAddress, trustedProxies } from '../auth/client-address.ts';
import { loadPlans } from './plans-file.ts';
import { createStream, type ConnData } from '../stream/connections.ts';
import { StreamHub } from '../stream/hub.ts';
import { compatStreamRoutes } from '../stream/compat/routes.ts';
import { Pipeline } from '../ingest/pipeline.ts';
import { createMcpHandler } from '../mcp/http.ts';
import { createKeyRefusal } from '../api/plugins/gate.ts';
import { ImportWatcher } from '../ingest/importers/history/import-watcher.ts';
import { alignmentFor } from '../market/bar-alignment.ts';
import { FeedSet } from '../ingest/feeds.ts';
import { LiveRecorder } from '../ingest/live-record.ts';
import { ALL_INSTRUMENTS } from '../ingest/reference/catalog.ts';
import { seedRegistry } from '../ingest/reference/seed-registry.ts';
import { isFirstStart } from '../ingest/simulator/backfill.ts';
import { SimFeed } from '../ingest/simulator/sim-feed.ts';
import { VENUE_PROTOCOLS } from '../ingest/adapters/registry.ts';
import { createVenueFeed } from '../ingest/adapters/venue-feed.ts';
import { actionsSyncFor, withCorporateActions } from '../ingest/actions-sync.ts';
import type { Feed } from '../domain/feed.ts';
import { planVenueFeeds, readFeedsFile } from './feeds-file.ts';
import { planReplay, prepareRecordDir } from './record-replay.ts';
import { Recorder } from '../ingest/recording/recorder.ts';
import { freeBytesAt, isCommitFailure, Store } from '../store/index.ts';
import { refuseFullDisk, START_MIN_FREE_BYTES } from './full-disk.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { checkListenHost, listenFailure } from './listen-address.ts';
import { VERSION } from '../version.ts';
import { RequestMetrics } from '../api/request-metrics.ts';
import type { Metrics } from '../metrics/registry.ts';
import { mainPortMetrics, serveMetricsPort } from '../metrics/endpoint.ts';
import type { EdgeBootstrap } from '../cluster/edge-bootstrap.ts';
import { describePair, readTlsPair, TlsFileError, type TlsPair } from './tls-pair.ts';
import { Listeners } from './listeners.ts';
import { tlsReloader } from './tls-reload.ts';

export type Log = LineLog;
/** How often free disk space is checked, and retention applied, in the background. */
const DISK_CHECK_MS = 10_000;
const RETENTION_EVERY_MS = 3_600_000;
/** A replay at max speed waits while more raw ticks than this wait for their commit (well under the store's drop bound). */
const REPLAY_MAX_UNWRITTEN_TICKS = 65_536;
/** How long a cluster node waits at start for its keys and quota buckets before it serves anyway. */
const ACCOUNTS_WAIT_MS = 3_000;

export interface RunningServer {
  port: number;
  /** The port of --metrics-port once listening, or null without one. */
  metricsPort: number | null;
  /**
   * Re-reads --tls-cert and --tls-key (on SIGHUP) and serves them to new connections; open ones
   * keep theirs. false, with the reason logged, when they cannot serve: the old pair stays.
   */
  reloadTls(): boolean;
  stop(): Promise<void>;
}

export interface ServeExtras {
  /** Feeds run besides those of --feed (embedding, tests): registered, backfilled and started like them. */
  feeds?: readonly Feed[];
}

/**
 * `log`: the logger every part logs through; by default lines on stdout in --log-format from
 * --log-level up. Tests and embedders may give a sentence sink instead.
 */
/** What a cluster node (--role ingest or edge) runs besides the rest of serve. */
async function loadClusterCode() {
  const [node, accounts, bootstrap] = await Promise.all([import('../cluster/cluster-node.ts'), import('../cluster/accounts.ts'), import('../cluster/edge-bootstrap.ts')]);
  return { planClusterNode: node.planClusterNode, linkedAccounts: accounts.linkedAccounts, bootstrapEdge: bootstrap.bootstrapEdge, adoptBootstrap: bootstrap.adoptBootstrap };
}

export async function serve(config: ServeConfig, log?: Logger | Log, extras: ServeExtras = {}): Promise<RunningServer> {
  const dataDir = resolve(config.dataDir);
  // Lines are timed by the service clock, known once the replay (if any) is planned.
  let serviceClock: Clock = systemClock;
  const logger = log === undefined ? createLogger({ clock: { nowMs: () => serviceClock.nowMs() }, format: config.logFormat, level: config.logLevel, write: (line) => process.stdout.write(`${line}\n`) }) : asLogger(log);
  // The parts that log sentences: the level and fields come from how each starts.
  const logLine = logger.lineLogger();
  // Everything an operator can get wrong is checked before the data dir is touched.
  const plans = loadPlans(config.plansFile);
  const replay = planReplay(config, systemClock, logLine);
  const feedIds = config.feed === 'none' || replay !== null ? [] : config.feed.split(',');
  const venuePlans = planVenueFeeds(feedIds, config.feedsFile === null ? null : readFeedsFile(config.feedsFile), VENUE_PROTOCOLS, process.env, config.feedsFile === null ? undefined : `feeds file ${config.feedsFile}`);
  const recordDir = config.record === null ? null : prepareRecordDir(config.record);
  // The cluster's code and the NATS client (some 90 modules) are loaded only on a cluster node.
  const clusterCode = config.role === 'all' ? null : await loadClusterCode();
  const clusterPlan = clusterCode?.planClusterNode(config) ?? null;
  await checkListenHost(config.host);
  let tls: TlsPair | null = null;
  if (config.tlsCert !== null && config.tlsKey !== null) {
    try {
      tls = readTlsPair(config.tlsCert, config.tlsKey);
    } catch (err) {
      throw err instanceof TlsFileError ? new UsageError(err.message) : err;
    }
  }
  refuseFullDisk(dataDir, freeBytesAt(dataDir));
  const unlock = lockDataDir(dataDir);
  // An edge's clock follows its ingest node's (set from the stream); --clock-start is where it starts.
  const edgeClock = config.role === 'edge' ? new OffsetClock(config.clockStartMs === null ? 0 : config.clockStartMs - systemClock.nowMs()) : null;
  const clock = replay?.clock ?? edgeClock ?? (config.clockStartMs === null ? systemClock : shiftedClock(config.clockStartMs));
  serviceClock = clock;
  // A new edge (no store yet) waits, bootstrapping on its port, for the ingest node's latest snapshot.
  let boot: EdgeBootstrap | null;
  try {
    boot = clusterCode === null ? null : await clusterCode.bootstrapEdge(config, dataDir, VERSION, logLine, tls);
  } catch (err) {
    unlock();
    throw listenFailure(config.host, config.port, err);
  }
  const store = Store.open({ dataDir, ringCapacity: config.ringCapacity, minFreeBytes: config.minFreeDiskBytes, nowMs: () => clock.nowMs(), log: logLine });
  if (boot !== null) await clusterCode!.adoptBootstrap(store, boot);
  // Only an ingest node publishes the notes of history written outside the live path.
  if (config.role !== 'ingest') {
    store.historyChanges.stopNoting();
    await store.historyChanges.clear();
  }
  // A snapshot taken during the ingest node's first-start build carries its progress record; the
  // edge builds nothing (the rest arrives through the stream), so /health and /coverage leave it out.
  if (config.role === 'edge') await store.deleteMeta(HISTORY_BUILD_META);
  let devKey: string | null = null;
  const feeds = new FeedSet(store, logLine);
  try {
    seedRegistry(store, ALL_INSTRUMENTS);
    devKey = config.noDevKey ? null : (config.devKey ?? store.getMeta<string>('devKey') ?? null);
    if (devKey === null && !config.noDevKey) {
      devKey = `mds_dev_${randomBytes(18).toString('base64url')}`;
      await store.putMeta('devKey', devKey);
    }
    // Feeds are registered first (the registry learns their instruments), then their recent history
    // is made, then the ingest path opens: it resumes the bars in progress the history leaves behind.
    if (feedIds.includes('sim')) feeds.add(new SimFeed(store, clock, { seed: config.seed, simRate: config.simRate, historyDays: config.historyDays, historyYears: config.historyYears }, logLine));
    for (const { protocol, settings } of venuePlans) {
      try {
        const feed = createVenueFeed(protocol, settings, { log: logLine });
        // A keyed stock upstream also fetches its symbols' splits and dividends (docs/feeds.md).
        const actions = actionsSyncFor(protocol, settings, { store, clock, log: logLine });
        feeds.add(actions === null ? feed : withCorporateActions(feed, actions));
      } catch (err) {
        logger.error(`feed ${protocol.id} cannot be made: ${err instanceof Error ? err.message : String(err)}; the server goes on without it`, { feed: protocol.id });
      }
    }
    if (replay !== null) feeds.add(replay.feed);
    for (const feed of extras.feeds ?? []) feeds.add(feed);
    await feeds.backfill({ endMs: clock.nowMs() - (clock.nowMs() % 60_000), isFirstStart: isFirstStart(store) });
    // A backfill that failed on a full disk failed its feed only: the start is refused as a full disk.
    if (store.writeStatus().failure !== null || (freeBytesAt(dataDir) ?? Infinity) < START_MIN_FREE_BYTES) throw new Error('the history could not be written');
  } catch (err) {
    // A disk that fills while the history is written: refuse as a full disk at start, not a crash.
    const failure = store.writeStatus().failure;
    const isFull = (freeBytesAt(dataDir) ?? Infinity) < START_MIN_FREE_BYTES;
    if (!isCommitFailure(err) && failure === null && !isFull) throw err;
    await store.close();
    unlock();
    refuseFullDisk(dataDir, freeBytesAt(dataDir), failure ?? err);
  }
  const recorder = recordDir === null ? null : new Recorder({ dir: recordDir, clock, log: logLine });
  const pipeline = new Pipeline(store, clock, recorder === null ? { log: logLine } : { log: logLine, onSweep: (nowMs) => recorder.sweep(nowMs) });
  // Before any feed starts: an ingest node publishes every tick its path makes, the first included.
  const cluster = clusterPlan?.start({ store, dataDir, clock, pipeline, edgeClock, log: logLine }) ?? null;
  // A replay runs the recorded sweeps that seal bars, and starts the timed ones at its end.
  replay?.feed.drive(pipeline, () => {
    const w = store.writeStatus();
    return w.failure === null && w.unwrittenTicks > REPLAY_MAX_UNWRITTEN_TICKS;
  });
  feeds.start(pipeline, recorder ?? undefined);
  recorder?.start();
  // An edge seals bars at the ingest node's sweeps, never on its own timer.
  if (replay === null && config.role !== 'edge') pipeline.start();
  if (recordDir !== null) logger.info(`recording every feed's ticks to ${recordDir} (hourly files)`);
  // History imports staged by `mds import` while this server runs are applied here, between requests.
  const imports = new ImportWatcher(store, clock, {
    seriesChanged: (entry) => {
      if (pipeline.hasLine(entry.id)) pipeline.bars.track(entry.id, alignmentFor(entry));
    },
    pause: () => new Promise((resolve) => setImmediate(resolve)),
  }, logLine);
  void imports.start();
  // When each feed is live, for the coverage report.
  const liveRecorder = new LiveRecorder(store, clock, feeds, logLine);
  liveRecorder.start();

  // A cluster node takes keys and plans from the ingest node and leases its calls (src/cluster/accounts.ts)
  // over the node's NATS link; its stored keys get 503 until the buckets are open.
  const accounts = cluster === null || clusterCode === null || config.role === 'all' ? null : clusterCode.linkedAccounts(cluster.link, { role: config.role, clock, plans, log: logLine });
  const auth = new Authenticator({ store, clock, plans, devKey, devPerMinute: config.rateLimitPerMinute, quota: accounts?.quota });
  auth.start();
  // Reachable NATS: the keys and buckets are ready before the port opens. Unreachable: serve meanwhile.
  await accounts?.start(auth, store, ACCOUNTS_WAIT_MS);
  const hub = new StreamHub(clock);
  // Keys whose plan this server's table lacks answer 403 naming the plan; say so now, not at the first call.
  for (const { id, plan } of auth.keysWithoutPlan()) logger.warn(`key ${id} has plan ${JSON.stringify(plan)}, which the plans table does not have: its calls get 403 until the plan is added or the key updated`);
  // The per-address limits count clients: behind trusted proxies (--trust-proxy), the forwarded address.
  const trust = trustedProxies(config.trustProxy);
  let listeners: Listeners | null = null;
  // Any listener answers for a request of another (the address is the request's socket's).
  const peerAddress = (req: Request) => clientAddress(listeners?.current.requestIP(req)?.address, req.headers.get('x-forwarded-for'), trust);
  const stream = createStream({ store, clock, hub, auth, log: logLine, limits: { heartbeatMs: config.heartbeatMs, slowConsumerBytes: config.slowConsumerBytes }, clientAddress: peerAddress });
  pipeline.subscribe(hub);
  pipeline.subscribeBars(hub);
  // One port. `/` with a WebSocket handshake is the stream; every REST route is the app's, each
  // registered in Bun's native router by listen().
  const root: NativeRoute = (req, srv) => (req.headers.get('upgrade')?.toLowerCase() === 'websocket' ? stream.upgrade(req, srv) : app.fetch(req));
  // The Massive/Alpaca dialects' stream paths (their connections run on the native stream's code).
  const compatStream = compatStreamRoutes(hub, stream, (req) => app.fetch(req));
  // MCP for AI agents on the same port: the key is checked as REST checks it, and every tool call
  // is the REST calls it mirrors, made in-process as that key (same plans, quotas, messages).
  const mcp = createMcpHandler({
    refuse: createKeyRefusal(auth, clock, peerAddress),
    rest: (key, path) => Promise.resolve(app.handle(new Request(`http://mds.local${path}`, { headers: { 'x-api-key': key } }))),
  });
  // Metrics are counted only when they are served somewhere (no hook on the request path otherwise).
  const requests = config.metricsPort !== null || config.metricsToken !== null ? new RequestMetrics() : undefined;
  // prom-client (with its dependencies, some 90 modules) is loaded only when metrics are served.
  const metrics: Metrics | null = requests === undefined ? null : (await import('../metrics/registry.ts')).createMetrics({ requests, stream, hub, ingest: pipeline, feeds, hasFeeds: feeds.size > 0, store, cluster: cluster ?? undefined, clock, version: VERSION });
  const metricsRoute = mainPortMetrics(metrics, config.metricsToken, config.metricsPort !== null);
  const app = createApp({ store, bars: pipeline.bars, composites: pipeline, clock, auth, feed: config.feed, feedActivity: feeds.size > 0 ? (replay?.feed.activity(pipeline) ?? pipeline) : undefined, feeds, recording: recorder ?? undefined, cluster: cluster ?? undefined, version: VERSION, streamCaps: stream.limits }, logger, { nativeRoutes: { '/': root, '/mcp': mcp, '/metrics': metricsRoute, ...compatStream }, peerAddress, requests, keylessCrypto: keylessCryptoOn(config), tls: tls !== null });
  let metricsServer: Server<undefined> | null = null;
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      liveRecorder.stop();
      await feeds.stop();
      await imports.stop();
      pipeline.stop();
      // Unused leased calls go back while NATS is still connected; then the link closes.
      await accounts?.stop();
      await cluster?.stop();
      await recorder?.close();
      stream.stop();
      auth.stop();
      await metricsServer?.stop(true);
      metrics?.stop();
      await listeners?.stop();
      const isComplete = await store.close();
      unlock();
      if (isComplete) logger.info('stopped; everything written is on disk');
      else logger.error(`stopped with writes failing (${store.writeStatus().failure}): what was not yet written is lost`);
    })());
  const listen = (port: number, pair: TlsPair | null): Server<ConnData> => {
    app.listen({ port, hostname: config.host, websocket: stream.websocket, reusePort: config.reusePort, development: false, idleTimeout: 30, ...(pair === null ? {} : { tls: { cert: pair.cert, key: pair.key } }) });
    return app.server as unknown as Server<ConnData>;
  };
  try {
    await boot?.release();
    listeners = new Listeners(listen(boot?.port ?? config.port, tls));
  } catch (err) {
    await stop();
    throw listenFailure(config.host, config.port, err);
  }
  const server = listeners.current;
  if (metrics !== null && config.metricsPort !== null) {
    try {
      metricsServer = serveMetricsPort(metrics, config.host, config.metricsPort);
    } catch (err) {
      await stop();
      throw listenFailure(config.host, config.metricsPort, err);
    }
  }
  store.watchDisk(DISK_CHECK_MS);
  // An edge's retention cutoffs wait until its clock follows its ingest node's (a shifted or replayed one).
  void (cluster?.clockSynced ?? Promise.resolve()).then(() => {
    if (stopping === null) store.startRetention(config.retain, RETENTION_EVERY_MS);
  });
  // `mds import` warns about history this retention would remove.
  void store.putMeta('retention', config.retain);
  hub.attach(listeners);
  stream.start();
  // Older history is made while the server serves: the port is open and live data flows meanwhile.
  feeds.backfillInBackground();
  const port = server.port!;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const [http, ws] = tls === null ? ['http', 'ws'] : ['https', 'wss'];
  logger.info(`mds ${VERSION} serving REST on ${http}://${shownHost}:${port}`);
  // Not `?apiKey=<key>`: no log line holds that text, so an operator can alert on it.
  logger.info(`streaming on ${ws}://${shownHost}:${port}/ (the key as the x-api-key header or the apiKey query parameter)`);
  if (tls !== null) logger.info(`TLS: ${describePair(tls, systemClock.nowMs())} (SIGHUP re-reads ${config.tlsCert} and ${config.tlsKey})`);
  if (metricsServer !== null) logger.info(`metrics on http://${shownHost}:${metricsServer.port}/metrics (open to anyone who can reach this port)`);
  if (config.metricsToken !== null) logger.info(`metrics on ${http}://${shownHost}:${port}/metrics for the metrics token (Authorization: Bearer)`);
  if (trust !== null) logger.info(`per-address limits read X-Forwarded-For from the proxies ${config.trustProxy.join(', ')} (--trust-proxy)`);
  logger.info(`data dir ${dataDir}`);
  if (devKey !== null) {
    logger.info(`feed ${config.feed}; development API key (send as x-api-key): ${devKey}`);
    logger.info(`try: curl -H 'x-api-key: ${devKey}' ${http}://${shownHost}:${port}/crypto/quote/BTCUSD`);
  } else {
    logger.info(`feed ${config.feed}; no development key: make keys with 'mds keys create --plan <plan> --data-dir ${dataDir}'`);
  }

  const reloadTls =
    tls === null || config.tlsCert === null || config.tlsKey === null
      ? () => {
          logger.warn('TLS reload asked for, but the server runs without --tls-cert and --tls-key: nothing to reload');
          return false;
        }
      : tlsReloader({ certFile: config.tlsCert, keyFile: config.tlsKey, served: tls, listeners, port, listen, log: logger, nowMs: () => systemClock.nowMs() });

  return { port, metricsPort: metricsServer?.port ?? null, reloadTls: () => stopping === null && reloadTls(), stop };
}
