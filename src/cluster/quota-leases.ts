// Quotas exact across the nodes of a cluster: each key's calls in a window are leased in blocks
// from one counter in NATS KV (`q.<keyId>.<windowStart>`, `m.<keyId>.<minuteStart>`; the value is
// the calls leased to every node so far, raised by compare-and-set on the entry's revision), and a
// node serves only from the blocks it holds: the counter never passes the limit, so no key is
// served more than its limit in total. Taking a call is synchronous; the next block is leased in
// the background before this one runs out, and blocks shrink near the limit so the nodes can use
// up the last calls between them. A clean stop gives back what is left; a crash loses it.
import { Kvm, type KV } from '@nats-io/kv';
import { jetstream, JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { CountedWindow, QuotaBackend, TakeOutcome, WindowKind } from '../auth/quota-backend.ts';
import { DAY_MS, MINUTE_MS } from '../domain/timeframes.ts';
import type { Clock } from '../clock.ts';
import type { LineLog } from '../log.ts';
import { MINUTES_BUCKET, QUOTA_BUCKET } from './nats.ts';

/** A block is at most this share of the window's limit: what a crashed node can cost a key (free: 94 of 3,000). */
export const BLOCK_SHARES = 32;
/** ... and at most this share of what is left, so near the limit every node still gets some. */
export const TAIL_SHARES = 8;
/** The next block is leased once this node holds no more than a quarter of the last one. */
const PREFETCH_QUARTERS = 4;
/** KV requests (reads, compare-and-set) wait this long before the lease counts as failed. */
export const KV_TIMEOUT_MS = 2000;
/** After a failed lease, calls that find no block are answered 503 at once for this long. */
const RETRY_AFTER_FAILURE_MS = 1000;
/** A counter found used up is looked at again (for calls other nodes gave back) at most this often. */
export const RECHECK_MS = 1000;
/** Compare-and-set conflicts in a row (other nodes leasing the same counter) before a lease fails. */
const CAS_ATTEMPTS = 64;
/** Quota counters outlive the longest quota window a plan may have (366 days). */
const QUOTA_TTL_MS = 400 * DAY_MS;
/** Minute counters are gone a few minutes after their minute. */
const MINUTE_TTL_MS = 5 * MINUTE_MS;

/** Calls to lease next from a counter at `leased` of `limit`: 0 once it is used up. */
export function blockSize(limit: number, leased: number): number {
  const left = limit - leased;
  if (left <= 0) return 0;
  return Math.max(1, Math.min(Math.ceil(limit / BLOCK_SHARES), Math.floor(left / TAIL_SHARES)));
}

/** One key's window as this node leases it. */
class Counter {
  /** Calls leased to this node in all, and served from them. */
  granted = 0;
  used = 0;
  /** The shared counter (calls leased to every node) and its revision as last read or written; 0: no entry. */
  leased = 0;
  revision = 0;
  /** Whether `leased` and `revision` come from a read or write (false: read before the next write). */
  known = false;
  lastBlock = 0;
  lease: Promise<void> | null = null;
  /** When the shared counter was last read or written (service clock). */
  checkedAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    readonly kv: KV,
    readonly kvKey: string,
    readonly startMs: number,
    readonly endMs: number,
    public limit: number,
  ) {}

  /** Calls this node may still serve without asking anyone. */
  get held(): number {
    return this.granted - this.used;
  }

  get isUsedUp(): boolean {
    return this.known && this.leased >= this.limit;
  }
}

interface KeyCounters {
  quota: Counter | null;
  minute: Counter | null;
}

/** What a counter lets a call do now, short of taking it. */
type CounterState = 'ready' | 'refused' | 'unavailable' | Promise<void>;

export interface QuotaLeasesOptions {
  nc: NatsConnection;
  quota: KV;
  minutes: KV;
  clock: Clock;
  log: LineLog;
  /** How often a used-up counter is read again (tests: 0). */
  recheckMs?: number;
}

export class QuotaLeases implements QuotaBackend {
  private readonly keys = new Map<string, KeyCounters>();
  private connected = true;
  private stopped = false;
  private failedAtMs: number | null = null;
  private readonly recheckMs: number;

  constructor(private readonly opts: QuotaLeasesOptions) {
    this.recheckMs = opts.recheckMs ?? RECHECK_MS;
    void this.followConnection();
  }

  tryTake(keyId: string, quota: CountedWindow | null, minute: CountedWindow | null): TakeOutcome {
    let counters = this.keys.get(keyId);
    if (counters === undefined) this.keys.set(keyId, (counters = { quota: null, minute: null }));
    const q = quota === null ? null : this.counterOf(counters, 'quota', keyId, quota);
    const m = minute === null ? null : this.counterOf(counters, 'minute', keyId, minute);
    if ((q === null || q.held > 0) && (m === null || m.held > 0)) {
      if (q !== null) this.take(q);
      if (m !== null) this.take(m);
      return 'taken';
    }
    // One window (at least) has nothing here: a used-up window refuses at once, whatever the other.
    const qs: CounterState = q === null ? 'ready' : this.stateOf(q);
    const ms: CounterState = m === null ? 'ready' : this.stateOf(m);
    if (qs === 'refused' || ms === 'refused') return 'refused';
    if (qs === 'unavailable' || ms === 'unavailable') return 'unavailable';
    return typeof qs !== 'string' ? qs : (ms as Promise<void>);
  }

  usedOf(keyId: string, kind: WindowKind, startMs: number): number {
    const counters = this.keys.get(keyId);
    const c = counters === undefined ? null : kind === 'quota' ? counters.quota : counters.minute;
    // Leased by every node as last seen, less what this node still holds: what may have been served.
    return c === null || c.startMs !== startMs ? 0 : c.leased - c.held;
  }

  /** What this node holds now, per key (tests, and the stop's log line). */
  heldCalls(): number {
    let n = 0;
    for (const { quota, minute } of this.keys.values()) n += (quota?.held ?? 0) + (minute?.held ?? 0);
    return n;
  }

  /**
   * Stops leasing and gives back the calls this node holds in windows still running, so other
   * nodes can serve them. Without NATS they are lost for their window (never over-served).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const counters = [...this.keys.values()].flatMap(({ quota, minute }) => [quota, minute]).filter((c): c is Counter => c !== null);
    // A lease under way is waited for: what it brings is given back with the rest.
    await Promise.all(counters.map((c) => c.lease));
    const now = this.opts.clock.nowMs();
    const open = counters.filter((c) => c.held > 0 && c.endMs > now);
    const held = open.reduce((n, c) => n + c.held, 0);
    if (held === 0) return;
    if (!this.connected) {
      this.opts.log(`warning: quota leases: ${held} unused calls of ${open.length} key windows not given back (NATS unreachable): they count as used until their windows end`);
      return;
    }
    const back = await Promise.all(open.map((c) => this.giveBack(c).catch(() => 0)));
    const given = back.reduce((n, k) => n + k, 0);
    this.opts.log(`quota leases: gave back ${given} unused calls of ${open.length} key windows${given < held ? ` (${held - given} could not be: they count as used until their windows end)` : ''}`);
  }

  private counterOf(counters: KeyCounters, kind: WindowKind, keyId: string, window: CountedWindow): Counter {
    let c = kind === 'quota' ? counters.quota : counters.minute;
    if (c !== null && c.startMs === window.startMs) {
      // A plan changed under the key: its limit from now on.
      c.limit = window.limit;
      return c;
    }
    // A new window: the last one's unused calls lapse with it.
    c = kind === 'quota' ? new Counter(this.opts.quota, `q.${keyId}.${window.startMs}`, window.startMs, window.resetMs, window.limit) : new Counter(this.opts.minutes, `m.${keyId}.${window.startMs}`, window.startMs, window.resetMs, window.limit);
    if (kind === 'quota') counters.quota = c;
    else counters.minute = c;
    return c;
  }

  private take(c: Counter): void {
    c.used++;
    if (c.held * PREFETCH_QUARTERS <= c.lastBlock && c.lease === null && !c.isUsedUp && this.canLease()) this.startLease(c);
  }

  private stateOf(c: Counter): CounterState {
    if (c.held > 0) return 'ready';
    if (c.lease !== null) return c.lease;
    if (c.isUsedUp) {
      // Calls other nodes gave back are found by reading the counter again, now and then.
      if (this.canLease() && this.opts.clock.nowMs() - c.checkedAtMs >= this.recheckMs) {
        c.known = false;
        this.startLease(c);
      }
      return 'refused';
    }
    return this.canLease() ? this.startLease(c) : 'unavailable';
  }

  private canLease(): boolean {
    return !this.stopped && this.connected && (this.failedAtMs === null || this.opts.clock.nowMs() - this.failedAtMs >= RETRY_AFTER_FAILURE_MS);
  }

  /** Leases the next block in the background; the promise (never rejected) settles when it is here or has failed. */
  private startLease(c: Counter): Promise<void> {
    const lease = this.leaseBlock(c)
      .then(
        () => {
          this.failedAtMs = null;
        },
        (err: unknown) => {
          if (this.failedAtMs === null) this.opts.log(`warning: quota leases: cannot lease calls from NATS (${err instanceof Error ? err.message : String(err)}): keys with nothing left on this node are answered 503 until it can`);
          this.failedAtMs = this.opts.clock.nowMs();
        },
      )
      .then(() => {
        c.lease = null;
      });
    c.lease = lease;
    return lease;
  }

  private async leaseBlock(c: Counter): Promise<void> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      if (!c.known) await this.read(c);
      const n = blockSize(c.limit, c.leased);
      c.checkedAtMs = this.opts.clock.nowMs();
      if (n === 0) return;
      const revision = await this.compareAndSet(c, c.leased + n);
      if (revision === null) continue;
      c.revision = revision;
      c.leased += n;
      c.granted += n;
      c.lastBlock = n;
      return;
    }
    throw new Error(`${CAS_ATTEMPTS} compare-and-set conflicts in a row on ${c.kvKey}`);
  }

  /** Returns the calls `c` holds to the shared counter; resolves to how many. */
  private async giveBack(c: Counter): Promise<number> {
    c.known = false;
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      if (!c.known) await this.read(c);
      const back = Math.min(c.held, c.leased);
      if (back === 0) return 0;
      const revision = await this.compareAndSet(c, c.leased - back);
      if (revision === null) continue;
      c.revision = revision;
      c.leased -= back;
      c.granted -= back;
      return back;
    }
    return 0;
  }

  private async read(c: Counter): Promise<void> {
    const entry = await c.kv.get(c.kvKey);
    if (entry === null || entry.operation !== 'PUT') {
      c.leased = 0;
      c.revision = entry?.revision ?? 0;
    } else {
      const value = Number(entry.string());
      if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${c.kvKey} holds ${JSON.stringify(entry.string().slice(0, 20))}, not a count of calls`);
      c.leased = value;
      c.revision = entry.revision;
    }
    c.known = true;
  }

  /** Writes `value` if the entry is still at the revision last seen: its new revision, or null (read again). */
  private async compareAndSet(c: Counter, value: number): Promise<number | null> {
    try {
      return await c.kv.put(c.kvKey, String(value), { previousSeq: c.revision });
    } catch (err) {
      if (err instanceof JetStreamApiError && (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)) {
        c.known = false;
        return null;
      }
      throw err;
    }
  }

  /** Calls that find no block are answered 503 at once while NATS is away, not after a timeout. */
  private async followConnection(): Promise<void> {
    for await (const status of this.opts.nc.status()) {
      if (status.type === 'disconnect') {
        if (this.connected && !this.stopped) this.opts.log(`warning: quota leases: NATS unreachable: keys are served from the calls this node holds (${this.heldCalls()}), then answered 503 until it is back`);
        this.connected = false;
      } else if (status.type === 'reconnect') {
        if (!this.connected && !this.stopped) this.opts.log('quota leases: NATS reachable again');
        this.connected = true;
        this.failedAtMs = null;
      }
    }
  }
}

/** The quota buckets (made if missing) and a node's leases over them. */
export async function openQuotaLeases(nc: NatsConnection, clock: Clock, log: LineLog, recheckMs?: number): Promise<QuotaLeases> {
  const kvm = new Kvm(jetstream(nc, { timeout: KV_TIMEOUT_MS }));
  const quota = await kvm.create(QUOTA_BUCKET, { history: 1, ttl: QUOTA_TTL_MS });
  const minutes = await kvm.create(MINUTES_BUCKET, { history: 1, ttl: MINUTE_TTL_MS });
  return new QuotaLeases({ nc, quota, minutes, clock, log, ...(recheckMs !== undefined && { recheckMs }) });
}
