// Fixed-window request counters per bucket (a client address): one per server, shared by REST and
// the stream upgrade, so a client cannot double its guesses by switching between them.
import type { Clock } from '../clock.ts';

export interface TakeResult {
  allowed: boolean;
  remaining: number;
  /** When the current window ends (Unix ms). */
  resetMs: number;
}

export class FixedWindowLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Where `bucket` stands in the current window, without counting a request. */
  peek(bucket: string): TakeResult {
    const start = this.currentWindow();
    const used = this.counts.get(bucket) ?? 0;
    return { allowed: used < this.limit, remaining: Math.max(0, this.limit - used), resetMs: start + this.windowMs };
  }

  take(bucket: string): TakeResult {
    const start = this.currentWindow();
    const used = this.counts.get(bucket) ?? 0;
    const resetMs = start + this.windowMs;
    if (used >= this.limit) return { allowed: false, remaining: 0, resetMs };
    this.counts.set(bucket, used + 1);
    return { allowed: true, remaining: this.limit - used - 1, resetMs };
  }

  /** Start of the window the clock is in; a new window starts every bucket afresh. */
  private currentWindow(): number {
    const now = this.clock.nowMs();
    const start = now - (now % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts = new Map();
    }
    return start;
  }
}
