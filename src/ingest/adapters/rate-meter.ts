// Messages per second over the last few whole seconds, for a feed's health report.

/** Messages per second over the last few whole seconds. */
export class RateMeter {
  private readonly buckets = new Float64Array(5);
  private second = 0;
  mark(nowMs: number): void {
    this.roll(nowMs);
    this.buckets[this.second % this.buckets.length]! += 1;
  }
  perSecond(nowMs: number): number {
    this.roll(nowMs);
    let sum = 0;
    // The current second is still filling: average over the full ones before it.
    for (let i = 1; i < this.buckets.length; i++) sum += this.buckets[(this.second - i + this.buckets.length * 2) % this.buckets.length]!;
    return sum / (this.buckets.length - 1);
  }
  private roll(nowMs: number): void {
    const s = Math.floor(nowMs / 1000);
    if (s === this.second) return;
    const steps = Math.min(s - this.second, this.buckets.length);
    for (let i = 1; i <= steps; i++) this.buckets[(s - steps + i) % this.buckets.length] = 0;
    this.second = s;
  }
}
