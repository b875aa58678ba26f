// What the REST layer reads from: the store, the bars in progress, and the clock. The bars in
// progress belong to the ingest pipeline; REST sees them only through this read-only face.
import type { Bar } from '../domain/bar.ts';
import type { Timeframe } from '../domain/timeframes.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/index.ts';
import type { Authenticator } from '../auth/authenticator.ts';

export interface BarsInProgress {
  barInProgress(symId: number, tf: Timeframe): Bar | null;
}

export interface ApiDeps {
  store: Store;
  bars: BarsInProgress;
  clock: Clock;
  /** Keys, plans, quotas. */
  auth: Authenticator;
  feed: string;
  version: string;
}

/** A bar is served by prev only this long after it closed (spec: "settle lag"). */
export const SETTLE_LAG_MS = 5_000;
