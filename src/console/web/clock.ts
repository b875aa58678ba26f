// The server's time, not the browser's: chart windows, countdowns and ages are reckoned from the
// service clock (which an operator may run from another instant, and a browser's clock may be off).
// Set from GET /account's `as_of`; until then the browser's clock.

let offsetMs = 0;

export const now = (): number => Date.now() + offsetMs;

/** `serverMs` was the service time when the answer was made (the request's latency is ignored). */
export function syncClock(serverMs: number): void {
  if (Number.isFinite(serverMs)) offsetMs = serverMs - Date.now();
}
