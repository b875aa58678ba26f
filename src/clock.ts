// The only place that reads the system time. Everything else asks a Clock, so tests can run the
// service at a chosen instant (settle lags, sessions, previous bars) without waiting.

export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock that starts at `startMs` and then advances in real time (for `--clock-start`). */
export function shiftedClock(startMs: number): Clock {
  const offset = startMs - Date.now();
  return { nowMs: () => Date.now() + offset };
}

/**
 * A clock that advances in real time at an offset that may be moved: an edge node's, which follows
 * its ingest node's service clock (as each sweep from it tells) so both agree on "now".
 */
export class OffsetClock implements Clock {
  constructor(public offsetMs = 0) {}
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
}

/** A clock that moves only when told to (unit tests). */
export class ManualClock implements Clock {
  constructor(private current: number) {}
  nowMs(): number {
    return this.current;
  }
  set(tsMs: number): void {
    this.current = tsMs;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
