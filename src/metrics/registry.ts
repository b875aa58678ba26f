// The one home of /metrics: every metric mds exposes, named, explained and read from the parts that
// keep the numbers (REST, stream, ingest, feeds, store, caches, the process). The parts only count;
// this module turns their counts into Prometheus series at scrape time.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Histogram, Registry } from 'prom-client';
import { systemClock, type Clock } from '../clock.ts';
import type { FeedHealth, FeedState } from '../domain/feed.ts';
import type { ClusterStatus } from '../domain/cluster-status.ts';
import { barJsonCacheOf } from '../api/queries/bar-json-cache.ts';
import { rangeMemoStats } from '../api/range-body.ts';
import { LATENCY_BUCKETS_S, type RequestMetrics } from '../api/request-metrics.ts';
import type { Store } from '../store/index.ts';
import type { StreamCounts } from '../stream/connections.ts';
import { pulledCounter, pulledGauge, PulledHistogram, type Sample } from './pulled.ts';

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

const FEED_STATES: readonly FeedState[] = ['connecting', 'subscribing', 'live', 'stale', 'backoff', 'failed', 'stopped'];

/** The parts metrics are read from (each a read-only face of what serve runs). */
export interface MetricSources {
  /** Counted REST requests. */
  requests: RequestMetrics;
  stream: { readonly counts: StreamCounts; readonly connections: number; readonly subscriptions: number };
  /** The stream's fan-out of ticks and heartbeats. */
  hub: { readonly published: number; readonly publishedBytes: number };
  ingest: { readonly counts: { sourceQuotes: number; sourceTrades: number; quotes: number; trades: number }; lastTickMs(): number | null };
  feeds: { health(): FeedHealth[] };
  /** Whether a feed runs (the last tick's age is reported only then). */
  hasFeeds: boolean;
  store: Store;
  /** An ingest or edge node's replication (--role ingest or edge); absent with --role all. */
  cluster?: { status(): ClusterStatus };
  /** The service clock: ages are measured on it, as /health measures them. */
  clock: Clock;
  version: string;
}

export interface Metrics {
  /** The text exposition format. */
  text(): Promise<string>;
  contentType: string;
  /** Stops the event-loop delay sampler. */
  stop(): void;
}

const seconds = (ms: number) => ms / 1000;
const one = (value: number): Sample[] => [[{}, value]];

export function createMetrics(src: MetricSources): Metrics {
  const registry = new Registry();
  const reg = registry;

  // --- REST ---------------------------------------------------------------------------------
  pulledCounter(reg, { name: 'mds_http_requests_total', help: 'REST requests answered, by route template and HTTP status (unknown paths: route "(unmatched)")', labelNames: ['route', 'status'] }, function* () {
    const { routes, statuses } = src.requests.snapshot();
    for (const r of routes) for (let slot = 0; slot < statuses.length; slot++) if (r.byStatus[slot]! > 0) yield [{ route: r.route, status: statuses[slot]! }, r.byStatus[slot]!];
  });
  new PulledHistogram(reg, { name: 'mds_http_request_duration_seconds', help: 'Time from the gate to the answer of REST requests, by route template', labelNames: ['route'] }, LATENCY_BUCKETS_S, function* () {
    // Routes never timed are left out: a hundred routes at zero would be most of every scrape.
    for (const r of src.requests.snapshot().routes) if (r.timed > 0) yield { labels: { route: r.route }, buckets: r.buckets, sum: r.sumS };
  });
  pulledCounter(reg, { name: 'mds_http_auth_failures_total', help: 'REST requests refused with 401: no API key, or one unknown, revoked or malformed' }, () => one(src.requests.authFailures));
  pulledCounter(reg, { name: 'mds_http_rate_limited_total', help: "REST requests refused with 429: a key's per-minute limit or quota, or the keyless limit of an address" }, () => one(src.requests.rateLimited));

  // --- stream -------------------------------------------------------------------------------
  const sc = src.stream.counts;
  pulledGauge(reg, { name: 'mds_stream_connections', help: 'Open WebSocket stream connections' }, () => one(src.stream.connections));
  pulledGauge(reg, { name: 'mds_stream_subscriptions', help: 'Active channel × symbol subscriptions over all stream connections' }, () => one(src.stream.subscriptions));
  pulledCounter(reg, { name: 'mds_stream_connections_opened_total', help: 'Stream connections accepted' }, () => one(sc.opened));
  pulledCounter(reg, { name: 'mds_stream_connections_closed_total', help: 'Stream connections closed, by reason: normal, going_away, no_status, abnormal, other; evictions: slow_consumer (4008), flood (4029), key_invalid (4001)', labelNames: ['reason'] }, () =>
    [...sc.closed].map(([reason, n]): Sample => [{ reason }, n]),
  );
  pulledCounter(reg, { name: 'mds_stream_upgrades_refused_total', help: 'Stream connection attempts refused, by HTTP status (401 key, 429 limit, 400 bad request, 403 plan)', labelNames: ['status'] }, () =>
    [...sc.refused].map(([status, n]): Sample => [{ status: String(status) }, n]),
  );
  pulledCounter(reg, { name: 'mds_stream_conflations_total', help: 'Times a ?slow=conflate connection backed up and was held back to the newest quote of each line' }, () => one(sc.conflations));
  pulledCounter(reg, { name: 'mds_stream_lag_warnings_total', help: 'lag frames sent: a connection had half of where its slow-consumer policy acts unsent' }, () => one(sc.lagWarnings));
  pulledCounter(reg, { name: 'mds_stream_frames_received_total', help: 'Frames received from stream clients' }, () => one(sc.framesIn));
  pulledCounter(reg, { name: 'mds_stream_messages_sent_total', help: 'Frames sent to stream clients, one per receiving connection: fanout (ticks, heartbeats) or reply (ready, acknowledgements, errors, replays, snapshots)', labelNames: ['kind'] }, () => [
    [{ kind: 'fanout' }, src.hub.published],
    [{ kind: 'reply' }, sc.framesOut],
  ]);
  pulledCounter(reg, { name: 'mds_stream_sent_bytes_total', help: 'Payload bytes of the frames sent to stream clients, by kind as mds_stream_messages_sent_total', labelNames: ['kind'] }, () => [
    [{ kind: 'fanout' }, src.hub.publishedBytes],
    [{ kind: 'reply' }, sc.bytesOut],
  ]);

  // --- feeds and ingest ---------------------------------------------------------------------
  // One health read per scrape, shared by the feed metrics (a scrape collects them together).
  let feedHealth: { atMs: number; feeds: FeedHealth[] } | null = null;
  const feeds = () => {
    const nowMs = performance.now();
    if (feedHealth === null || nowMs - feedHealth.atMs > 100) feedHealth = { atMs: nowMs, feeds: src.feeds.health() };
    return feedHealth.feeds;
  };
  const perFeed = (value: (h: FeedHealth) => number | null | undefined) => () => feeds().flatMap((h): Sample[] => {
    const v = value(h);
    return v === null || v === undefined ? [] : [[{ feed: h.id }, v]];
  });
  pulledGauge(reg, { name: 'mds_feed_state', help: 'State of each feed: 1 for its current state, 0 for the others', labelNames: ['feed', 'state'] }, () =>
    feeds().flatMap((h) => FEED_STATES.map((state): Sample => [{ feed: h.id, state }, h.state === state ? 1 : 0])),
  );
  pulledGauge(reg, { name: 'mds_feed_up', help: 'Whether the feed is live (1) or not (0)', labelNames: ['feed'] }, perFeed((h) => (h.state === 'live' ? 1 : 0)));
  pulledGauge(reg, { name: 'mds_feed_messages_per_second', help: 'Messages per second the feed received over the last few seconds', labelNames: ['feed'] }, perFeed((h) => Math.max(0, h.messagesPerSecond)));
  pulledGauge(reg, { name: 'mds_feed_last_message_age_seconds', help: 'Seconds since the feed last received a message (absent before the first)', labelNames: ['feed'] }, perFeed((h) => (h.lastMessageMs === null ? null : Math.max(0, seconds(src.clock.nowMs() - h.lastMessageMs)))));
  pulledCounter(reg, { name: 'mds_feed_reconnects_total', help: 'Dials of the feed after the first since the server started, whether or not they opened', labelNames: ['feed'] }, perFeed((h) => h.reconnects));
  pulledCounter(reg, { name: 'mds_feed_parse_errors_total', help: 'Messages of the feed that could not be parsed', labelNames: ['feed'] }, perFeed((h) => h.parseErrors));
  pulledCounter(reg, { name: 'mds_feed_sequence_gaps_total', help: 'Messages the source numbers that arrived out of turn', labelNames: ['feed'] }, perFeed((h) => h.sequenceGaps ?? 0));
  pulledCounter(reg, { name: 'mds_feed_ticks_total', help: 'Quotes and trades the feed produced (feeds that count them)', labelNames: ['feed'] }, perFeed((h) => h.ticks));
  pulledCounter(reg, { name: 'mds_feed_dropped_ticks_total', help: "Ticks dropped before ingest because the feed's hand-over queue was full", labelNames: ['feed'] }, perFeed((h) => h.dropped ?? 0));
  pulledGauge(reg, { name: 'mds_feed_corporate_actions_failing', help: "Whether the feed's corporate-actions fetch is retrying a failure (1) or not (0); absent for a feed without one", labelNames: ['feed'] }, perFeed((h) => (h.corporateActions === undefined ? null : h.corporateActions.state === 'retrying' ? 1 : 0)));
  pulledCounter(reg, { name: 'mds_feed_conflated_quotes_total', help: 'Quotes replaced by a newer one of the same instrument before ingest', labelNames: ['feed'] }, perFeed((h) => h.conflated ?? 0));
  pulledGauge(reg, { name: 'mds_feed_instruments', help: 'Instruments the feed supplies', labelNames: ['feed'] }, perFeed((h) => h.instruments));
  pulledGauge(reg, { name: 'mds_feed_instrument_errors', help: 'Instruments of the feed the venue refused or dropped, until they subscribe or tick again', labelNames: ['feed'] }, perFeed((h) => Object.keys(h.instrumentErrors ?? {}).length));
  const ic = src.ingest.counts;
  pulledCounter(reg, { name: 'mds_ingest_source_ticks_total', help: 'Ticks the feeds handed to the ingest path, by kind, before consolidation', labelNames: ['kind'] }, () => [
    [{ kind: 'quote' }, ic.sourceQuotes],
    [{ kind: 'trade' }, ic.sourceTrades],
  ]);
  pulledCounter(reg, { name: 'mds_ingest_ticks_total', help: 'Consolidated ticks stored and published, by kind', labelNames: ['kind'] }, () => [
    [{ kind: 'quote' }, ic.quotes],
    [{ kind: 'trade' }, ic.trades],
  ]);
  pulledGauge(reg, { name: 'mds_ingest_last_tick_age_seconds', help: 'Seconds since the newest consolidated tick (absent without a feed; /health is unavailable past 30 s)' }, () => {
    if (!src.hasFeeds) return [];
    const last = src.ingest.lastTickMs();
    return last === null ? [] : one(Math.max(0, seconds(src.clock.nowMs() - last)));
  });

  // --- store ---------------------------------------------------------------------------------
  const flushSeconds = new Histogram({ name: 'mds_store_flush_duration_seconds', help: 'Time from a store flush to its commit', buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [reg] });
  const flushRecords = new Histogram({ name: 'mds_store_flush_records', help: 'Records written by one store flush', buckets: [1, 10, 100, 1000, 10_000, 100_000], registers: [reg] });
  let flushedBytes = 0;
  // A few dozen flushes a second at most: prom-client's own observe is cheap enough here.
  src.store.onFlush((f) => {
    flushSeconds.observe(seconds(f.durationMs));
    flushRecords.observe(f.records);
    flushedBytes += f.valueBytes;
  });
  pulledCounter(reg, { name: 'mds_store_flushed_value_bytes_total', help: 'Bytes of the binary values (ticks blocks, live records) store flushes wrote' }, () => one(flushedBytes));
  pulledGauge(reg, { name: 'mds_store_file_bytes', help: 'Size of the store file (mds.mdb) on disk' }, () => one(src.store.fileBytes()));
  pulledGauge(reg, { name: 'mds_store_disk_free_bytes', help: "Free space on the data dir's file system (absent when unknown)" }, () => {
    const free = src.store.diskStatus().freeBytes;
    return free === null ? [] : one(free);
  });
  pulledGauge(reg, { name: 'mds_store_writes_failing', help: 'Whether writes to the data dir fail (1) or succeed (0)' }, () => one(src.store.writeStatus().failure === null ? 0 : 1));
  pulledGauge(reg, { name: 'mds_store_unwritten_ticks', help: 'Raw ticks held in memory for a commit' }, () => one(src.store.writeStatus().unwrittenTicks));
  pulledCounter(reg, { name: 'mds_store_dropped_ticks_total', help: 'Raw ticks dropped unwritten while writes failed' }, () => one(src.store.writeStatus().droppedTicks));

  // --- cluster (--role ingest or edge) ------------------------------------------------------------
  const cluster = src.cluster;
  if (cluster !== undefined) {
    const ingest = () => {
      const c = cluster.status();
      return c.role === 'ingest' ? c : null;
    };
    const edge = () => {
      const c = cluster.status();
      return c.role === 'edge' ? c : null;
    };
    const when = <T>(read: () => T | null, value: (c: T) => number | null) => (): Sample[] => {
      const c = read();
      const v = c === null ? null : value(c);
      return v === null ? [] : one(v);
    };
    pulledGauge(reg, { name: 'mds_cluster_nats_connected', help: 'Whether the node is connected to NATS (1) or not (0)' }, () => one(cluster.status().nats === 'connected' ? 1 : 0));
    pulledGauge(reg, { name: 'mds_cluster_stream_sequence', help: 'Ingest: the newest stream sequence JetStream acked; edge: the last one applied' }, () => one(cluster.status().streamSeq));
    pulledCounter(reg, { name: 'mds_cluster_published_ticks_total', help: 'Ingest: ticks JetStream stored' }, when(ingest, (c) => c.publishedTicks));
    pulledGauge(reg, { name: 'mds_cluster_publish_queue_messages', help: 'Ingest: messages waiting to be sent to JetStream or acked' }, when(ingest, (c) => c.queued));
    pulledGauge(reg, { name: 'mds_cluster_publish_queue_bytes', help: 'Ingest: bytes of the messages waiting for JetStream' }, when(ingest, (c) => c.queuedBytes));
    pulledCounter(reg, { name: 'mds_cluster_dropped_ticks_total', help: 'Ingest: ticks dropped because NATS was away longer than the queue holds' }, when(ingest, (c) => c.droppedTicks));
    pulledGauge(reg, { name: 'mds_cluster_edge_lag_seconds', help: 'Edge: now minus when the stream stored the newest message applied (absent before the first)' }, when(edge, (c) => (c.lagMs === null ? null : seconds(c.lagMs))));
    pulledGauge(reg, { name: 'mds_cluster_edge_lag_messages', help: 'Edge: messages in the stream after the newest applied (absent before the first)' }, when(edge, (c) => c.lagMessages));
    pulledCounter(reg, { name: 'mds_cluster_bar_mismatches_total', help: "Edge: sealed minute bars of the ingest node that differ from the edge's own" }, when(edge, (c) => c.barMismatches));
    pulledCounter(reg, { name: 'mds_cluster_seq_gaps_total', help: 'Edge: ticks whose seq skipped ahead of the last applied (ticks the edge never got)' }, when(edge, (c) => c.seqGaps));
  }

  // --- caches --------------------------------------------------------------------------------
  pulledCounter(reg, { name: 'mds_cache_lookups_total', help: 'Lookups of the range caches by result: bar_json (encoded bar chunks: hit, extend, miss) and range_body (whole bodies: hit, miss)', labelNames: ['cache', 'result'] }, () => {
    const bars = barJsonCacheOf(src.store);
    const memo = rangeMemoStats(src.store);
    return [
      [{ cache: 'bar_json', result: 'hit' }, bars.hits],
      [{ cache: 'bar_json', result: 'extend' }, bars.extended],
      [{ cache: 'bar_json', result: 'miss' }, bars.misses],
      [{ cache: 'range_body', result: 'hit' }, memo.hits],
      [{ cache: 'range_body', result: 'miss' }, memo.misses],
    ];
  });
  pulledGauge(reg, { name: 'mds_cache_hit_ratio', help: 'Share of cache lookups answered without encoding, since start (bar_json counts an extended chunk as a miss)', labelNames: ['cache'] }, () => {
    const bars = barJsonCacheOf(src.store);
    const memo = rangeMemoStats(src.store);
    const ratio = (hits: number, all: number) => (all === 0 ? 0 : hits / all);
    return [
      [{ cache: 'bar_json' }, ratio(bars.hits, bars.hits + bars.extended + bars.misses)],
      [{ cache: 'range_body' }, ratio(memo.hits, memo.hits + memo.misses)],
    ];
  });
  pulledGauge(reg, { name: 'mds_cache_bytes', help: 'Bytes held by each range cache', labelNames: ['cache'] }, () => [
    [{ cache: 'bar_json' }, barJsonCacheOf(src.store).bytes],
    [{ cache: 'range_body' }, rangeMemoStats(src.store).bytes],
  ]);
  pulledGauge(reg, { name: 'mds_cache_entries', help: 'Entries held by each range cache', labelNames: ['cache'] }, () => [
    [{ cache: 'bar_json' }, barJsonCacheOf(src.store).size],
    [{ cache: 'range_body' }, rangeMemoStats(src.store).entries],
  ]);

  // --- process -------------------------------------------------------------------------------
  pulledGauge(reg, { name: 'mds_build_info', help: 'Always 1; the running version as a label', labelNames: ['version'] }, () => [[{ version: src.version }, 1]]);
  const startS = seconds(systemClock.nowMs()) - process.uptime();
  pulledGauge(reg, { name: 'mds_process_start_time_seconds', help: 'Start of the process, seconds since the Unix epoch' }, () => one(startS));
  pulledCounter(reg, { name: 'mds_process_cpu_seconds_total', help: 'CPU time of the process, user and system', labelNames: ['mode'] }, () => {
    const cpu = process.cpuUsage();
    return [
      [{ mode: 'user' }, cpu.user / 1e6],
      [{ mode: 'system' }, cpu.system / 1e6],
    ];
  });
  pulledGauge(reg, { name: 'mds_process_resident_memory_bytes', help: 'Resident memory of the process (RSS; LMDB pages read count here too)' }, () => one(process.memoryUsage.rss()));
  pulledGauge(reg, { name: 'mds_process_heap_bytes', help: 'JavaScript heap: used and total (the engine’s allocated heap)', labelNames: ['kind'] }, () => {
    const m = process.memoryUsage();
    return [
      [{ kind: 'used' }, m.heapUsed],
      [{ kind: 'total' }, m.heapTotal],
    ];
  });
  // Sampled every 10 ms; each scrape reports the window since the previous one, then starts anew.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  pulledGauge(reg, { name: 'mds_event_loop_lag_seconds', help: 'Event-loop delay since the previous scrape: p50, p99 and max; absent without samples', labelNames: ['stat'] }, () => {
    if (lag.count === 0) return [];
    const samples: Sample[] = [
      [{ stat: 'p50' }, lag.percentile(50) / 1e9],
      // The percentile is read from buckets and may round past the maximum.
      [{ stat: 'p99' }, Math.min(lag.percentile(99), lag.max) / 1e9],
      [{ stat: 'max' }, lag.max / 1e9],
    ];
    lag.reset();
    return samples;
  });

  return {
    text: () => registry.metrics(),
    contentType: METRICS_CONTENT_TYPE,
    stop: () => lag.disable(),
  };
}
