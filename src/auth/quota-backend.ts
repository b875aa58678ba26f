// Where a key's calls are counted when several nodes serve the same keys (src/cluster leases them
// from NATS): the Authenticator asks it instead of its own counters. A single process (role all)
// has none, and its counting path does not change.

/** One of a key's windows as the clock stands: the quota window or the current minute. */
export interface CountedWindow {
  limit: number;
  startMs: number;
  /** When the window ends (Unix ms). */
  resetMs: number;
}

/**
 * What taking one call gives: taken; refused (the window is used up across every node: 429);
 * unavailable (nothing left here and no way to get more now: 503); or a lease under way, to
 * await before asking again (the only asynchronous answer, and a rare one).
 */
export type TakeOutcome = 'taken' | 'refused' | 'unavailable' | Promise<void>;

export type WindowKind = 'quota' | 'minute';

export interface QuotaBackend {
  /**
   * Takes one call from both windows (null: the plan does not limit it) or from neither,
   * synchronously, from what this node holds.
   */
  tryTake(keyId: string, quota: CountedWindow | null, minute: CountedWindow | null): TakeOutcome;
  /** Calls counted against a window as this node knows it, for `/account` and the X-RateLimit-* headers. */
  usedOf(keyId: string, kind: WindowKind, startMs: number): number;
}
