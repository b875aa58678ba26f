// GET /health: liveness and readiness in one answer. Ready means the store can be read and, when
// the simulator feeds the service, it has ticked recently; not ready is a 503 with the same JSON
// shape and the reason, so a load balancer or an operator sees why. Degraded is ready (200) with a
// reason: writes to the data dir fail, its free space is under the threshold, the store holds part
// of a history import that a stop cut short or that failed midway, or (a cluster node) NATS is away
// or an edge is behind the stream.
import type { CorporateActionsHealth, FeedHealth } from '../domain/feed.ts';
import type { HealthBody } from '../domain/health-schema.ts';
import { HISTORY_BUILD_META, type HistoryBuildRecord } from '../domain/history-build.ts';
import type { ClusterStatus, SnapshotStatus } from '../domain/cluster-status.ts';
import { formatBytes, lowDiskText, type HalfAppliedImport } from '../store/index.ts';
import type { ApiDeps } from './deps.ts';
import { jsonResponse } from './http.ts';

/** A feed silent this long is not alive (the simulator ticks every instrument several times a second; crypto never closes). */
export const FEED_STALE_MS = 30_000;

function storeProblem(deps: ApiDeps): string | null {
  try {
    // A read through LMDB (an absent key still walks the tree), cheap enough for every probe.
    deps.store.getMeta('health-probe');
    return null;
  } catch (err) {
    return `the store cannot be read: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function feedBody(h: FeedHealth, nowMs: number): HealthBody['feeds'][number] {
  return {
    id: h.id,
    state: h.state,
    connected_since: h.connectedSinceMs === null ? null : Math.round(h.connectedSinceMs),
    last_message_age_ms: h.lastMessageMs === null ? null : Math.max(0, Math.round(nowMs - h.lastMessageMs)),
    messages_per_second: Math.max(0, h.messagesPerSecond),
    reconnects: h.reconnects,
    parse_errors: h.parseErrors,
    sequence_gaps: h.sequenceGaps ?? 0,
    instruments: h.instruments,
    reason: h.reason,
    instrument_errors: h.instrumentErrors ?? {},
    ticks: h.ticks ?? null,
    conflated_quotes: h.conflated ?? 0,
    dropped_ticks: h.dropped ?? 0,
    corporate_actions: corporateActionsBody(h.corporateActions),
  };
}

function corporateActionsBody(c: CorporateActionsHealth | undefined): HealthBody['feeds'][number]['corporate_actions'] {
  if (c === undefined) return null;
  return { state: c.state, last_round_ms: c.lastRoundMs === null ? null : Math.round(c.lastRoundMs), failure: c.failure, next_due_ms: Math.round(c.nextDueMs), added: c.added, replaced: c.replaced, bad_rows: c.badRows };
}

export function healthBody(deps: ApiDeps, startedMs: number): HealthBody {
  const nowMs = deps.clock.nowMs();
  const storeReason = storeProblem(deps);
  const activity = deps.feedActivity;
  const lastTickAgeMs = activity ? Math.max(0, nowMs - (activity.lastTickMs() ?? startedMs)) : null;
  const isFeedStale = lastTickAgeMs !== null && lastTickAgeMs > FEED_STALE_MS;
  const feedReason = isFeedStale ? `the ${deps.feed} feed has not ticked for ${Math.round(lastTickAgeMs / 1000)} s` : null;
  const unavailable = storeReason ?? feedReason;
  const disk = diskBody(deps);
  const cluster = deps.cluster?.status();
  const halfApplied = storeReason === null ? deps.store.imports.halfApplied() : [];
  const reason = unavailable ?? disk.reason ?? importsReason(halfApplied) ?? cluster?.reason ?? null;
  let symbols = 0;
  if (storeReason === null) symbols = deps.store.registry.size;
  const body: HealthBody = {
    status: unavailable !== null ? 'unavailable' : reason !== null ? 'degraded' : 'ok',
    version: deps.version,
    feed: deps.feed,
    symbols,
    // An edge's clock moves to its ingest node's once the stream says what that is: never below 0.
    uptime_s: Math.max(0, Math.round((nowMs - startedMs) / 1000)),
    checks: { store: storeReason === null ? 'ok' : 'failed', feed: activity ? (isFeedStale ? 'stale' : 'ok') : 'off' },
    last_tick_age_ms: lastTickAgeMs,
    reason,
    feeds: (deps.feeds?.health() ?? []).map((h) => feedBody(h, nowMs)),
    disk: disk.body,
  };
  if (halfApplied.length > 0) body.half_applied_imports = halfApplied.map((h) => ({ ...h }));
  if (cluster !== undefined) body.cluster = clusterBody(cluster);
  // Recording is a side line: its failures are reported here and logged, the status does not change.
  const history = storeReason === null ? deps.store.getMeta<HistoryBuildRecord>(HISTORY_BUILD_META) : undefined;
  if (history !== undefined) body.history = historyBody(history);
  const rec = deps.recording?.status();
  if (rec) body.recording = { dir: rec.dir, records: rec.records, dropped_records: rec.dropped, writes: rec.failure === null ? 'ok' : 'failing', write_error: rec.failure };
  return body;
}

/** A store holding part of an import a stop cut short, or one that failed midway, is degraded until it is whole. */
function importsReason(halfApplied: readonly HalfAppliedImport[]): string | null {
  const failed = halfApplied.find((h) => h.state === 'failed');
  if (failed) return `history import ${failed.id} (${failed.source}) is half-applied: applying it failed (${failed.error}); import the file again to complete it`;
  const resuming = halfApplied.find((h) => h.state === 'resuming');
  if (resuming) return `history import ${resuming.id} (${resuming.source}) is half-applied: a stop cut it short; finishing it from its staging file`;
  return null;
}

function historyBody(h: HistoryBuildRecord): NonNullable<HealthBody['history']> {
  const done = h.doneMs !== null;
  return {
    state: done ? 'done' : 'building',
    built_from: done ? h.targetFromMs : h.builtFromMs,
    target_from: h.targetFromMs,
    to: h.endMs,
    steps_done: h.stepsDone,
    steps_total: h.stepsTotal,
    percent: h.stepsTotal === 0 ? 100 : Math.floor((h.stepsDone * 100) / h.stepsTotal),
    started: Math.round(h.startedMs),
    done: h.doneMs === null ? null : Math.round(h.doneMs),
  };
}

function clusterBody(c: ClusterStatus): NonNullable<HealthBody['cluster']> {
  if (c.role === 'ingest') {
    return {
      role: 'ingest',
      nats: c.nats,
      stream_seq: c.streamSeq,
      published: c.published,
      published_ticks: c.publishedTicks,
      queued: c.queued,
      queued_bytes: c.queuedBytes,
      dropped_messages: c.droppedMessages,
      dropped_ticks: c.droppedTicks,
      publish_error: c.publishError,
      history_pending: c.historyPending,
      snapshot: snapshotBody(c.snapshot),
      snapshot_error: c.snapshotError,
    };
  }
  return {
    role: 'edge',
    nats: c.nats,
    stream_seq: c.streamSeq,
    lag_messages: c.lagMessages,
    lag_ms: c.lagMs,
    max_lag_ms: c.maxLagMs,
    bar_mismatches: c.barMismatches,
    seq_gaps: c.seqGaps,
    skipped_messages: c.skippedMessages,
    history_messages: c.historyMessages,
    bootstrap: snapshotBody(c.bootstrap),
    history_complete: c.partialHistory === null,
  };
}

function snapshotBody(s: SnapshotStatus | null) {
  return s === null ? null : { stream_seq: s.streamSeq, taken_ms: s.takenMs, bytes: s.bytes, seconds: Math.round(s.seconds * 10) / 10 };
}

/** The disk part of the body, and why it degrades the service (write failure first), or null. */
function diskBody(deps: ApiDeps): { body: HealthBody['disk']; reason: string | null } {
  const space = deps.store.diskStatus();
  const writes = deps.store.writeStatus();
  const since = writes.failingSinceMs === null || Number.isNaN(writes.failingSinceMs) ? null : writes.failingSinceMs;
  let reason: string | null = null;
  if (writes.failure !== null) {
    reason = `writes to the data dir fail (${writes.failure}, ${formatBytes(space.freeBytes)} free): serving what is stored, retrying by itself; ${writes.droppedTicks} raw ticks dropped so far`;
  } else if (space.isLow) {
    reason = lowDiskText(space.freeBytes, space.minFreeBytes);
  }
  return {
    body: {
      space: space.isLow ? 'low' : 'ok',
      free_bytes: space.freeBytes,
      min_free_bytes: space.minFreeBytes,
      writes: writes.failure === null ? 'ok' : 'failing',
      write_error: writes.failure,
      failing_since_ms: since,
      unwritten_ticks: writes.unwrittenTicks,
      dropped_ticks: writes.droppedTicks,
    },
    reason,
  };
}

export function healthResponse(deps: ApiDeps, startedMs: number): Response {
  const body = healthBody(deps, startedMs);
  return jsonResponse(JSON.stringify(body), body.status === 'unavailable' ? 503 : 200);
}
