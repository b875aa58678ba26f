// Reconnect delays: exponential with full jitter, so many clients dropped at once (a server
// restart) do not come back in lockstep.

export interface BackoffOptions {
  /** The first retry's ceiling, ms (default 250). */
  initialDelayMs?: number;
  /** The largest delay, ms (default 30 000). */
  maxDelayMs?: number;
  /** Growth per failed attempt (default 2). */
  factor?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = { initialDelayMs: 250, maxDelayMs: 30_000, factor: 2 };

/**
 * The delay before retry number `attempt` (0 for the first): a uniform draw between half the
 * ceiling and the ceiling, where the ceiling is initial × factor^attempt capped at the maximum.
 * (Half, not zero, as the floor: a burst of failures still spaces its retries.)
 */
export function backoffDelayMs(attempt: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  const { initialDelayMs, maxDelayMs, factor } = { ...DEFAULT_BACKOFF, ...options };
  const ceiling = Math.min(maxDelayMs, initialDelayMs * factor ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
