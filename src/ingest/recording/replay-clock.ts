// The service clock while a recording is replayed: it reads the recorded time of the replay's
// position, so everything that asks the time (sealing bars, dropping a stale source, /health, the
// REST routes) sees the moment the recording was made. After the end it runs on in real time.
import type { Clock } from '../../clock.ts';

export class ReplayClock implements Clock {
  private atMs: number;
  /** Real time (`real`) when `atMs` was reached. */
  private anchorRealMs: number;
  /** While waiting for the next record at speed N: time flows at N× up to that record's time. */
  private flowUntilMs = NaN;
  private speed = 1;
  private isFinished = false;

  constructor(
    /** The recording's first time: the service starts there. */
    startMs: number,
    /** Real time, for the flow between records and after the end. */
    private readonly real: Clock,
  ) {
    this.atMs = startMs;
    this.anchorRealMs = real.nowMs();
  }

  nowMs(): number {
    if (this.isFinished) return this.atMs + (this.real.nowMs() - this.anchorRealMs);
    if (Number.isNaN(this.flowUntilMs)) return this.atMs;
    return Math.min(this.flowUntilMs, this.atMs + (this.real.nowMs() - this.anchorRealMs) * this.speed);
  }

  /** The replay reached a record recorded at `atMs`: the time is exactly what it was then. */
  step(atMs: number): void {
    this.atMs = atMs;
    this.anchorRealMs = this.real.nowMs();
    this.flowUntilMs = NaN;
  }

  /** While the replay waits for its next record, time flows at `speed`× real time up to `untilMs`. */
  flow(untilMs: number, speed: number): void {
    this.atMs = this.nowMs();
    this.anchorRealMs = this.real.nowMs();
    this.flowUntilMs = untilMs;
    this.speed = speed;
  }

  /** The replay ended: from here the clock runs in real time. */
  finish(): void {
    this.atMs = this.nowMs();
    this.anchorRealMs = this.real.nowMs();
    this.flowUntilMs = NaN;
    this.isFinished = true;
  }
}
