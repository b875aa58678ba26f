// What the REST layer counts for /metrics: requests by route template and status, the time each
// took from the gate to its answer, and the gate's refusals for a bad key (401) and over limit (429).
// Plain numbers in typed arrays, set on the request path and read only at scrape time.

/** Upper bounds of the latency buckets, in seconds: a quote takes tens of microseconds. */
export const LATENCY_BUCKETS_S = [0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1] as const;
/** The route label of a request no route matched: one label, whatever the path (bounded cardinality). */
export const UNMATCHED_ROUTE = '(unmatched)';
/** Distinct statuses kept apart; more (never seen) share the last slot, labelled `other`. */
const STATUS_SLOTS = 32;

/** One route's numbers. */
export interface RouteCounts {
  route: string;
  /** Requests by status slot (see `statuses`). */
  byStatus: Float64Array;
  /** Latency observations per bucket (not cumulative); the last slot is above the last bound. */
  buckets: Float64Array;
  sumS: number;
  /** Requests whose latency was taken. */
  timed: number;
}

export class RequestMetrics {
  private readonly routes = new Map<string, RouteCounts>();
  /** Templates split in segments, for naming the route of a request the gate refused before routing. */
  private templates: string[][] = [];
  /** Status code → slot + 1 (0: none yet); slot → status text. */
  private readonly slotOfStatus = new Uint8Array(1000);
  private readonly statusOfSlot: string[] = [];
  private current: Request | null = null;
  private startMs = 0;
  /** Gate refusals: no key, or a key that is unknown, revoked or malformed. */
  authFailures = 0;
  /** Gate refusals: the key's per-minute limit or quota, or the keyless limit of an address. */
  rateLimited = 0;

  /** The routes the app serves (Elysia's route list): a refused request is counted under the one its path matches. */
  setRoutes(paths: readonly string[]): void {
    this.templates = [...new Set(paths)].map((p) => p.split('/'));
  }

  /** A request reached the gate; its latency runs from here. */
  begin(request: Request): void {
    this.current = request;
    this.startMs = performance.now();
  }

  /**
   * A request answered by a handler or the error handler. Its latency is taken when the answer
   * follows its `begin` without another request between (every handler is synchronous); an
   * answer that does not is counted without one.
   */
  answered(route: string | undefined, status: number, request: Request): void {
    const counts = this.routes.get(route ?? UNMATCHED_ROUTE) ?? this.countsOf(route ?? UNMATCHED_ROUTE);
    counts.byStatus[this.slotOf(status)]!++;
    if (request !== this.current) return;
    this.current = null;
    const seconds = (performance.now() - this.startMs) / 1000;
    const buckets = counts.buckets;
    let i = 0;
    while (i < LATENCY_BUCKETS_S.length && seconds > LATENCY_BUCKETS_S[i]!) i++;
    buckets[i]!++;
    counts.sumS += seconds;
    counts.timed++;
  }

  /** A request the gate answered before routing (refused): its route is found from its path. */
  refused(request: Request, status: number): void {
    if (status === 401) this.authFailures++;
    else if (status === 429) this.rateLimited++;
    this.answered(this.routeOf(request.url), status, request);
  }

  /** Every route's numbers, for a scrape; `statuses[slot]` names a `byStatus` slot. */
  snapshot(): { routes: RouteCounts[]; statuses: readonly string[] } {
    return { routes: [...this.routes.values()], statuses: this.statusOfSlot };
  }

  /** The template a path matches (`/crypto/quote/:symbol`), or the unmatched label. */
  routeOf(url: string): string {
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const queryAt = url.indexOf('?', pathStart);
    const segments = (queryAt < 0 ? url.slice(pathStart) : url.slice(pathStart, queryAt)).split('/');
    for (const t of this.templates) {
      if (t.length !== segments.length) continue;
      let isMatch = true;
      for (let i = 0; i < t.length && isMatch; i++) isMatch = t[i]!.startsWith(':') ? segments[i] !== '' : t[i] === segments[i];
      if (isMatch) return t.join('/');
    }
    return UNMATCHED_ROUTE;
  }

  private countsOf(route: string): RouteCounts {
    let counts = this.routes.get(route);
    if (!counts) {
      counts = { route, byStatus: new Float64Array(STATUS_SLOTS), buckets: new Float64Array(LATENCY_BUCKETS_S.length + 1), sumS: 0, timed: 0 };
      this.routes.set(route, counts);
    }
    return counts;
  }

  private slotOf(status: number): number {
    const known = this.slotOfStatus[status];
    if (known !== undefined && known !== 0) return known - 1;
    const slot = Math.min(this.statusOfSlot.length, STATUS_SLOTS - 1);
    if (slot === this.statusOfSlot.length) this.statusOfSlot.push(slot === STATUS_SLOTS - 1 ? 'other' : String(status));
    if (status >= 0 && status < this.slotOfStatus.length) this.slotOfStatus[status] = slot + 1;
    return slot;
  }
}
