// The `/health` body (ours: the spec asks only for liveness and readiness). Ready and not ready
// share this shape, so a load balancer or an operator reads the reason from the same fields.
import { Type as T, type Static } from '@sinclair/typebox';

export const FeedHealthSchema = T.Object(
  {
    id: T.String(),
    state: T.Union([T.Literal('connecting'), T.Literal('subscribing'), T.Literal('live'), T.Literal('stale'), T.Literal('backoff'), T.Literal('failed'), T.Literal('stopped')]),
    /** Epoch ms since the current connection has been live, or null while it is not. */
    connected_since: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
    /** Since the source was last heard from (any frame, WebSocket pings and pongs too), or null before. */
    last_message_age_ms: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
    messages_per_second: T.Number({ minimum: 0 }),
    /** Dials after the first, whether or not they opened. */
    reconnects: T.Integer({ minimum: 0 }),
    parse_errors: T.Integer({ minimum: 0 }),
    /** Messages the source numbers that arrived out of turn (0 for a source that does not number them). */
    sequence_gaps: T.Integer({ minimum: 0 }),
    instruments: T.Integer({ minimum: 0 }),
    /** Why the feed is not live, or null. */
    reason: T.Union([T.String(), T.Null()]),
    /** Venue errors for single instruments, by mds symbol; one clears when its instrument subscribes or ticks again. */
    instrument_errors: T.Record(T.String(), T.String()),
    /** Quotes and trades the feed produced since it started; null for a feed that does not count them. */
    ticks: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
    /** Quotes replaced by a newer quote of the same instrument before ingest, because the serving thread was behind. */
    conflated_quotes: T.Integer({ minimum: 0 }),
    /** Ticks dropped before ingest because the feed's hand-over queue was full. */
    dropped_ticks: T.Integer({ minimum: 0 }),
    /** The feed's corporate-actions fetch (a keyed stock feed's splits and dividends), or null for a feed without one. */
    corporate_actions: T.Union([
      T.Object(
        {
          /** pending until the first round ends; ok after a complete round; retrying while a failure is retried (the feed itself goes on). */
          state: T.Union([T.Literal('pending'), T.Literal('ok'), T.Literal('retrying')]),
          /** When the last complete round ended (Unix ms), or null before one did. */
          last_round_ms: T.Union([T.Integer(), T.Null()]),
          /** The failure being retried, or null. */
          failure: T.Union([T.String(), T.Null()]),
          /** When the next round or retry is due (Unix ms). */
          next_due_ms: T.Integer(),
          /** Actions stored new, and over an earlier version, since the start; rows skipped as bad. */
          added: T.Integer({ minimum: 0 }),
          replaced: T.Integer({ minimum: 0 }),
          bad_rows: T.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      T.Null(),
    ]),
  },
  { additionalProperties: false },
);

const NatsLinkSchema = T.Union([T.Literal('connecting'), T.Literal('connected'), T.Literal('reconnecting'), T.Literal('closed')]);

/** A store snapshot in the NATS object store, from which new edges start (docs/cluster.md). */
const SnapshotSchema = T.Object(
  {
    /** Every stream message up to this sequence is in the snapshot. */
    stream_seq: T.Integer({ minimum: 0 }),
    /** When the copy was taken (the ingest node's service clock, Unix ms). */
    taken_ms: T.Integer(),
    bytes: T.Integer({ minimum: 0 }),
    /** How long copying and uploading took (0 on an edge: not known there). */
    seconds: T.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** An ingest node (--role ingest): what it published to JetStream and what waits (docs/cluster.md). */
export const IngestClusterSchema = T.Object(
  {
    role: T.Literal('ingest'),
    /** The NATS connection: connecting (never connected yet), connected, reconnecting, closed. */
    nats: NatsLinkSchema,
    /** Stream sequence of the newest message JetStream acked (0 before the first). */
    stream_seq: T.Integer({ minimum: 0 }),
    /** Messages JetStream stored since start, and the ticks in them. */
    published: T.Integer({ minimum: 0 }),
    published_ticks: T.Integer({ minimum: 0 }),
    /** Messages waiting to be sent or acked (bounded while NATS is away), and their bytes. */
    queued: T.Integer({ minimum: 0 }),
    queued_bytes: T.Integer({ minimum: 0 }),
    /** Dropped since start because NATS was away longer than the queue holds: edges miss these ticks. */
    dropped_messages: T.Integer({ minimum: 0 }),
    dropped_ticks: T.Integer({ minimum: 0 }),
    /** Why publishing fails, while it does; null otherwise. */
    publish_error: T.Union([T.String(), T.Null()]),
    /** Changes of history written outside the live path (imports, gap filling) not yet in the stream for the edges. */
    history_pending: T.Integer({ minimum: 0 }),
    /** The latest store snapshot for new edges (--snapshot-every), or null before the first. */
    snapshot: T.Union([SnapshotSchema, T.Null()]),
    /** Why the last snapshot failed, or null. */
    snapshot_error: T.Union([T.String(), T.Null()]),
  },
  { additionalProperties: false },
);

/** An edge node (--role edge): where it stands in the ingest node's stream (docs/cluster.md). */
export const EdgeClusterSchema = T.Object(
  {
    role: T.Literal('edge'),
    nats: NatsLinkSchema,
    /** The last stream sequence applied; stored with the data, the next start resumes after it. */
    stream_seq: T.Integer({ minimum: 0 }),
    /** Messages in the stream after the newest applied (as of its delivery); null before the first. */
    lag_messages: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
    /** Now minus when the stream stored the newest message applied (the ingest node publishes every 500 ms); null before the first. */
    lag_ms: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
    /** Past this lag (--edge-max-lag-ms) the status is degraded. */
    max_lag_ms: T.Integer({ minimum: 0 }),
    /** Sealed minute bars of the ingest node that differ from this edge's own (0 when all are identical). */
    bar_mismatches: T.Integer({ minimum: 0 }),
    /** Ticks whose seq skipped ahead of the symbol's last applied one: ticks this edge never got. */
    seq_gaps: T.Integer({ minimum: 0 }),
    /** Stream messages that could not be applied (unknown symbol, unreadable payload). */
    skipped_messages: T.Integer({ minimum: 0 }),
    /** History messages (rows the ingest node imported or gap-filled) applied since start. */
    history_messages: T.Integer({ minimum: 0 }),
    /** The snapshot this edge's store was made from on its first start, or null. */
    bootstrap: T.Union([SnapshotSchema, T.Null()]),
    /** False when this edge started without the ingest node's history (no snapshot within --edge-bootstrap-timeout): the status is then degraded for good. */
    history_complete: T.Boolean(),
  },
  { additionalProperties: false },
);

/** The simulator's history build (src/domain/history-build.ts): the newest history first, while the server serves. */
export const HistoryBuildSchema = T.Object(
  {
    /** building: older history is still being made (ranges answer with what is there; /coverage shows the rest as pending); done. */
    state: T.Union([T.Literal('building'), T.Literal('done')]),
    /** Every series holds its history from here (Unix ms) to `to`. */
    built_from: T.Integer(),
    /** Where the build ends: the oldest bar it makes (Unix ms). */
    target_from: T.Integer(),
    /** The minute the history ends at: the first start (Unix ms). */
    to: T.Integer(),
    steps_done: T.Integer({ minimum: 0 }),
    steps_total: T.Integer({ minimum: 0 }),
    /** steps_done of steps_total, 0-100. */
    percent: T.Integer({ minimum: 0, maximum: 100 }),
    /** When the build began and ended (Unix ms, service clock); null while it runs. */
    started: T.Integer(),
    done: T.Union([T.Integer(), T.Null()]),
  },
  { additionalProperties: false },
);

export const HealthSchema = T.Object(
  {
    /** degraded: serving (200) with a problem an operator must see, e.g. writes failing or disk space low. */
    status: T.Union([T.Literal('ok'), T.Literal('degraded'), T.Literal('unavailable')]),
    version: T.String(),
    feed: T.String(),
    symbols: T.Integer({ minimum: 0 }),
    uptime_s: T.Integer({ minimum: 0 }),
    checks: T.Object(
      { store: T.Union([T.Literal('ok'), T.Literal('failed')]), feed: T.Union([T.Literal('ok'), T.Literal('stale'), T.Literal('off')]) },
      { additionalProperties: false },
    ),
    /** Since the feed's last tick (or since start, before its first); null without a feed. */
    last_tick_age_ms: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
    /** Why the service is not ready; null when it is. */
    reason: T.Union([T.String(), T.Null()]),
    /** Every running feed's report (src/domain/feed.ts FeedHealth); a failed feed is listed, the server goes on. */
    feeds: T.Array(FeedHealthSchema),
    /** The data dir's free space and whether writes to it succeed (docs/operations.md). */
    disk: T.Object(
      {
        /** ok, or low: under --min-free-disk. */
        space: T.Union([T.Literal('ok'), T.Literal('low')]),
        free_bytes: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
        min_free_bytes: T.Integer({ minimum: 0 }),
        /** ok, or failing: commits fail (reads go on; the store retries by itself). */
        writes: T.Union([T.Literal('ok'), T.Literal('failing')]),
        /** The failure's cause, e.g. "No space left on device"; null while writes work. */
        write_error: T.Union([T.String(), T.Null()]),
        /** Since when (Unix ms) writes fail; null while they work. */
        failing_since_ms: T.Union([T.Integer(), T.Null()]),
        /** Raw ticks held in memory for a commit (bounded). */
        unwritten_ticks: T.Integer({ minimum: 0 }),
        /** Raw ticks dropped unwritten since start while writes failed (oldest first; bars are never dropped). */
        dropped_ticks: T.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    /**
     * Only while the store holds part of a history import (docs/operations.md, Health): applying (being
     * applied now), resuming (cut short by a stop, being finished: degraded) or failed (cannot be
     * finished: degraded until the same file is imported again).
     */
    half_applied_imports: T.Optional(
      T.Array(
        T.Object(
          {
            id: T.Integer({ minimum: 1 }),
            source: T.String(),
            state: T.Union([T.Literal('applying'), T.Literal('resuming'), T.Literal('failed')]),
            /** Why it failed; null otherwise. */
            error: T.Union([T.String(), T.Null()]),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** With --role ingest or edge only: the node's replication over NATS JetStream; a problem makes the status degraded. */
    cluster: T.Optional(T.Union([IngestClusterSchema, EdgeClusterSchema])),
    /** When the simulator made the history (first start): the background build's progress; absent otherwise. */
    history: T.Optional(HistoryBuildSchema),
    /** With `--record DIR` only: the recording's directory and whether its writes succeed (docs/feeds.md, Record and replay). */
    recording: T.Optional(
      T.Object(
        {
          dir: T.String(),
          /** Records written since start. */
          records: T.Integer({ minimum: 0 }),
          /** Records lost since start because writes failed or did not keep up (the ticks themselves were served). */
          dropped_records: T.Integer({ minimum: 0 }),
          writes: T.Union([T.Literal('ok'), T.Literal('failing')]),
          write_error: T.Union([T.String(), T.Null()]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'Health', additionalProperties: false },
);
export type HealthBody = Static<typeof HealthSchema>;
