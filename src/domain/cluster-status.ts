// What a node of a cluster (--role ingest or edge) reports of its replication, for /health and
// /metrics: the cluster code fills it, the API serializes it. Pure types.

/** The NATS connection: not made yet, up, lost and being made again, or closed (stopping). */
export type NatsLinkState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface IngestClusterStatus {
  role: 'ingest';
  nats: NatsLinkState;
  /**
   * The stream sequence of the newest message JetStream acked (0 before the first). Every message
   * up to it holds only ticks the store already had: read it, then flush the store, and a backup
   * taken after holds everything up to it (a snapshot's resume point for a new edge).
   */
  streamSeq: number;
  /** Messages stored by JetStream since start, and the ticks in them. */
  published: number;
  publishedTicks: number;
  /** Messages waiting to be sent or acked, and their bytes. */
  queued: number;
  queuedBytes: number;
  /** Messages and ticks dropped since start because NATS was away longer than the queue holds. */
  droppedMessages: number;
  droppedTicks: number;
  /** Why the last publish failed, while publishing fails. */
  publishError: string | null;
  /** Notes of history written outside the live path (imports, gap filling) not yet published to the edges. */
  historyPending: number;
  /** The latest store snapshot for new edges this node published, or null before the first. */
  snapshot: SnapshotStatus | null;
  /** Why the last snapshot failed, or null. */
  snapshotError: string | null;
  /** Why the node is degraded, or null. */
  reason: string | null;
}

/** A store snapshot in the NATS object store: what it covers, its size, how long it took. */
export interface SnapshotStatus {
  streamSeq: number;
  takenMs: number;
  bytes: number;
  seconds: number;
}

export interface EdgeClusterStatus {
  role: 'edge';
  nats: NatsLinkState;
  /** The last stream sequence applied (stored with the data it applied). */
  streamSeq: number;
  /** Messages in the stream after the newest applied, as of its delivery; null before the first. */
  lagMessages: number | null;
  /** Now minus the time the stream stored the newest message applied; null before the first. */
  lagMs: number | null;
  maxLagMs: number;
  /** Sealed minute bars of the ingest node that differ from the edge's own. */
  barMismatches: number;
  /** Ticks whose seq skipped ahead of the symbol's last: ticks this edge never got. */
  seqGaps: number;
  /** Stream messages that could not be applied (unknown symbol, unreadable payload). */
  skippedMessages: number;
  /** History messages (rows the ingest node wrote outside the live path) applied since start. */
  historyMessages: number;
  /** The snapshot this edge's store was made from (its first start), or null. */
  bootstrap: SnapshotStatus | null;
  /** Why this edge's history is partial (it started without a snapshot), or null when it is not. */
  partialHistory: string | null;
  reason: string | null;
}

export type ClusterStatus = IngestClusterStatus | EdgeClusterStatus;
