// What the REST layer reads from: the store, the bars in progress, and the clock. The bars in
// progress belong to the ingest pipeline; REST sees them only through this read-only face.
import type { Bar } from '../domain/bar.ts';
import type { Timeframe } from '../domain/timeframes.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/index.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { FeedHealth } from '../domain/feed.ts';
import type { ClusterStatus } from '../domain/cluster-status.ts';

export interface BarsInProgress {
  barInProgress(symId: number, tf: Timeframe): Bar | null;
}

/** A perpetual composite as of an instant; `tsMs` is the newest quote time among the sources that count. */
export interface CompositeView {
  tsMs: number;
  bid: number;
  ask: number;
  bidSize: number | null;
  askSize: number | null;
  sourceCount: number;
}

/** The perpetual composites, read-only: they belong to the ingest side, which feeds them. */
export interface Composites {
  /** The composite with the sources judged live at `nowMs`, or null when none is. */
  compositeAt(symId: number, nowMs: number): CompositeView | null;
  /** The last trade that passed the composite's rules, with the sources that counted then. */
  lastTrade(symId: number): { tsMs: number; price: number; size: number | null; sourceCount: number } | null;
}

/** When the feed last delivered a tick, for the health check; the ingest side keeps it. */
export interface FeedActivity {
  /** Service-clock time of the newest consolidated tick, or null before the first. */
  lastTickMs(): number | null;
}

export interface ApiDeps {
  store: Store;
  bars: BarsInProgress;
  /** Perpetual futures composites; absent where no composite feed runs (their routes then answer 503). */
  composites?: Composites;
  clock: Clock;
  /** Keys, plans, quotas. */
  auth: Authenticator;
  feed: string;
  /** Present when a live feed runs: /health is not ready once it falls silent. */
  feedActivity?: FeedActivity;
  /** The running feeds' own reports, listed by /health; absent: none listed. */
  feeds?: { health(): FeedHealth[] };
  /** The recorder of `--record DIR`, reported by /health; absent without one. */
  recording?: { status(): RecordingStatus };
  /** An ingest or edge node's replication over NATS (src/cluster), reported by /health; absent with --role all. */
  cluster?: { status(): ClusterStatus };
  version: string;
  /**
   * The stream's own caps per key (src/stream/connections.ts): a plan's stream limits apply up to
   * them. Absent (no stream): /account shows the plan's limits as they are.
   */
  streamCaps?: { maxConnectionsPerKey: number; maxSubscriptions: number };
}

/** What the recorder reports (src/ingest/recording/recorder.ts). */
export interface RecordingStatus {
  dir: string;
  records: number;
  dropped: number;
  failure: string | null;
}

/** A bar is served by prev only this long after it closed (spec: "settle lag"). */
export const SETTLE_LAG_MS = 5_000;
