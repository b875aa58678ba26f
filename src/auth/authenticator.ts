// Who is calling and how much they may: resolves a presented key to an account (stored keys by
// hash, plus the development key), picks up key changes made by `mds keys` within a second (and
// tells listeners, so open stream connections follow them), and charges each call against the
// plan's quota window and per-minute rate. Counting is exact: the event loop is the only writer;
// on a cluster node the calls of stored keys are taken from a QuotaBackend instead.
import { timingSafeEqual } from 'node:crypto';
import type { Account, KeyRecord } from '../domain/account.ts';
import { ADDONS, PLAN_CLASSES, type Plan } from '../domain/plans.ts';
import { DAY_MS, MINUTE_MS } from '../domain/timeframes.ts';
import type { Clock } from '../clock.ts';
import { hashSecret, usageKey, type Store } from '../store/index.ts';
import { FixedWindowLimiter } from './rate-limit.ts';
import type { QuotaBackend } from './quota-backend.ts';

export const DEV_KEY_ID = 'dev';
/** Quotas at least this large are not persisted (the development key). */
const UNMETERED = 1e12;

/** Requests per minute per client address for requests without a valid key (REST and stream upgrades together). */
export const ANONYMOUS_PER_MINUTE = 120;

/** PLAN_MISSING: a stored key whose plan the server's plans table lacks (an operator's --plans file); `message` names it. */
export type AuthResult = { ok: true; account: Account } | { ok: false; code: 'INVALID_KEY' | 'REVOKED_KEY' | 'PLAN_MISSING'; message?: string };

export interface Charge {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the reported window ends (Unix ms). */
  resetMs: number;
  /**
   * Cluster node only, with `allowed` false: nothing left of this node's lease and a new one under
   * way; charge again once it settles (nothing was counted).
   */
  pending?: Promise<void>;
  /** Cluster node only, with `allowed` false: nothing left here and the quota service out of reach (503). */
  unavailable?: true;
}

/** One window of a key's calls as the clock stands: the quota window or the current minute. */
export interface WindowUsage {
  limit: number;
  /** Calls counted in the window so far. */
  used: number;
  /** When the window began and when it ends (Unix ms). */
  startMs: number;
  resetMs: number;
}

/** Both windows of a key; null where the plan does not limit (an unmetered quota, no per-minute rate). */
export interface Usage {
  quota: WindowUsage | null;
  perMinute: WindowUsage | null;
}

export interface AuthenticatorOptions {
  store: Store;
  clock: Clock;
  plans: readonly Plan[];
  devKey: string | null;
  devPerMinute: number;
  /**
   * Where stored keys' calls are counted when several nodes serve them (src/cluster); absent in a
   * single process. The development key is always counted here, per node.
   */
  quota?: QuotaBackend;
}

export class Authenticator {
  private plans: Map<string, Plan>;
  private readonly devHash: Buffer | null;
  private readonly devAccount: Account;
  private cache = new Map<string, AuthResult>();
  /** Each key's windows and counts as of its last call (by account id): see KeyCounters. */
  private readonly counters = new Map<string, KeyCounters>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly listeners: (() => void)[] = [];
  /**
   * Requests without a valid key, per client address: one limiter for REST and the stream's
   * upgrade alike (a flood of guessed keys gets 429s on either).
   */
  readonly anonymous: FixedWindowLimiter;

  constructor(private readonly opts: AuthenticatorOptions) {
    this.anonymous = new FixedWindowLimiter(ANONYMOUS_PER_MINUTE, MINUTE_MS, opts.clock);
    this.plans = new Map(opts.plans.map((p) => [p.name, p]));
    this.devHash = opts.devKey === null ? null : Buffer.from(hashSecret(opts.devKey), 'hex');
    const devPlan: Plan = {
      name: 'development',
      description: 'the development key: every class, market and add-on',
      classes: [...PLAN_CLASSES],
      quota: UNMETERED,
      quota_window_days: 30,
      per_minute: opts.devPerMinute,
      stream_connections: 2000,
      stream_subscriptions: 1000,
      addons: [...ADDONS],
    };
    this.devAccount = { id: DEV_KEY_ID, plan: devPlan, markets: 'all', addons: new Set(ADDONS), createdMs: 0 };
  }

  planNamed(name: string): Plan | undefined {
    return this.plans.get(name);
  }

  /** Polls for key changes made by other processes. */
  start(pollMs = 500): void {
    this.timer ??= setInterval(() => {
      if (this.opts.store.accounts.refresh()) this.keysChanged();
    }, pollMs);
  }

  /**
   * Keys were changed in this process (a cluster edge applying what the ingest node published):
   * forget resolved keys and tell the listeners, as the poll does for changes of other processes.
   */
  keysChanged(): void {
    this.cache = new Map();
    for (const listener of this.listeners) listener();
  }

  /** Replaces the plans table (a cluster edge takes the ingest node's); keys resolve anew. */
  replacePlans(plans: readonly Plan[]): void {
    this.plans = new Map(plans.map((p) => [p.name, p]));
    this.keysChanged();
  }

  /** Calls `listener` after each change of the stored keys (create, update, revoke) has been picked up. */
  onKeysChanged(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Stored keys whose plan is not in this server's plans table, for a warning at start. */
  keysWithoutPlan(): { id: string; plan: string }[] {
    return this.opts.store.accounts.list().filter((r) => r.revokedMs === null && !this.plans.has(r.plan)).map((r) => ({ id: r.id, plan: r.plan }));
  }

  /** What an account's key resolves to now (after a key change): by id, without the secret. */
  reresolve(account: Account): AuthResult {
    if (account.id === DEV_KEY_ID) return { ok: true, account };
    const record = this.opts.store.accounts.byId(account.id);
    return record ? this.fromRecord(record) : { ok: false, code: 'INVALID_KEY' };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  authenticate(secret: string): AuthResult {
    const cached = this.cache.get(secret);
    if (cached) return cached;
    const result = this.resolve(secret);
    // Only known keys are cached, so guessed keys cannot grow the map.
    if (result.ok || result.code !== 'INVALID_KEY') this.cache.set(secret, result);
    return result;
  }

  private resolve(secret: string): AuthResult {
    if (secret.length === 0 || secret.length > 256) return { ok: false, code: 'INVALID_KEY' };
    const hash = hashSecret(secret);
    if (this.devHash && timingSafeEqual(Buffer.from(hash, 'hex'), this.devHash)) return { ok: true, account: this.devAccount };
    const record = this.opts.store.accounts.byHash(hash);
    return record ? this.fromRecord(record) : { ok: false, code: 'INVALID_KEY' };
  }

  private fromRecord(record: KeyRecord): AuthResult {
    if (record.revokedMs !== null) return { ok: false, code: 'REVOKED_KEY' };
    const plan = this.plans.get(record.plan);
    if (!plan) return { ok: false, code: 'PLAN_MISSING', message: planMissingMessage(record.plan) };
    return { ok: true, account: toAccount(record, plan) };
  }

  /** Counts one call if the plan allows it; says which window binds for the headers. */
  charge(account: Account): Charge {
    return this.standing(account, true);
  }

  /** Where the key stands, for the headers of an answer that is not counted (a refused stream upgrade). */
  peek(account: Account): Charge {
    return this.standing(account, false);
  }

  /**
   * Where both of the key's windows stand, counting nothing (`GET /account`; the gate has already
   * charged that call). The quota window is null for an unmetered key, the minute for a plan
   * without a per-minute rate.
   */
  usage(account: Account): Usage {
    const { quota, minute, metered } = this.windowsOf(account, account.id === DEV_KEY_ID ? undefined : this.opts.quota);
    return { quota: metered ? quota : null, perMinute: minute };
  }

  private standing(account: Account, counts: boolean): Charge {
    const leases = this.opts.quota;
    if (leases !== undefined && account.id !== DEV_KEY_ID) return this.leasedStanding(account, counts, leases);
    // The hot path of every request: no window objects, one Charge.
    const c = this.countersOf(account, this.opts.clock.nowMs());
    // A metered key's count is the store's (what `mds keys` shows), read by its prebuilt key.
    if (c.metered) c.quotaUsed = this.opts.store.accounts.usageAt(c.usageKey);
    const plan = account.plan;
    const quotaLimit = plan.quota;
    const minuteLimit = plan.per_minute;
    const quotaAllowed = c.quotaUsed < quotaLimit;
    const minuteAllowed = minuteLimit === null || c.minuteCount < minuteLimit;
    const allowed = quotaAllowed && minuteAllowed;
    if (allowed && counts) {
      if (c.metered) this.opts.store.accounts.addUsageAt(c.usageKey);
      c.quotaUsed++;
      if (minuteLimit !== null) c.minuteCount++;
    }
    // Report the window closest to running out (the one that answers the next 429).
    if (minuteLimit !== null && (!minuteAllowed || (quotaAllowed && minuteLimit - c.minuteCount < quotaLimit - c.quotaUsed))) {
      return { allowed, limit: minuteLimit, remaining: Math.max(0, minuteLimit - c.minuteCount), resetMs: c.minuteStartMs + MINUTE_MS };
    }
    return { allowed, limit: quotaLimit, remaining: Math.max(0, quotaLimit - c.quotaUsed), resetMs: c.quotaResetMs };
  }

  /**
   * The key's counters with their windows moved to where `nowMs` falls: a new quota window reads
   * its count from the store (zero for an unmetered key), a new minute starts from zero.
   */
  private countersOf(account: Account, nowMs: number): KeyCounters {
    let c = this.counters.get(account.id);
    if (c === undefined) this.counters.set(account.id, (c = new KeyCounters()));
    if (nowMs >= c.quotaResetMs || nowMs < c.quotaStartMs || c.account !== account) {
      const { start, end } = quotaWindowAt(account, nowMs);
      c.account = account;
      c.metered = account.plan.quota < UNMETERED;
      c.quotaStartMs = start;
      c.quotaResetMs = end;
      c.usageKey = usageKey(account.id, start);
      c.quotaUsed = 0;
    }
    if (nowMs >= c.minuteStartMs + MINUTE_MS || nowMs < c.minuteStartMs) {
      c.minuteStartMs = nowMs - (nowMs % MINUTE_MS);
      c.minuteCount = 0;
    }
    return c;
  }

  /**
   * `standing` for a stored key on a cluster node: the calls are taken from the backend's leases.
   * Nothing is counted when the answer is a wait or a 503; `used` is then what the backend knows.
   */
  private leasedStanding(account: Account, counts: boolean, leases: QuotaBackend): Charge {
    const { quota, minute, metered } = this.windowsOf(account, leases);
    let outcome: ReturnType<QuotaBackend['tryTake']> = 'taken';
    if (counts) {
      outcome = leases.tryTake(account.id, metered ? quota : null, minute);
      if (outcome === 'taken') {
        // This node's own count too, for `mds keys list` on its data dir (the cluster's total is the backend's).
        if (metered) this.opts.store.accounts.addUsage(account.id, quota.startMs);
        quota.used++;
        if (minute !== null) minute.used++;
      }
    }
    // The window closest to running out (a used-up one first) answers the headers.
    const binding = minute !== null && (minute.used >= minute.limit || minute.limit - minute.used < quota.limit - quota.used) ? minute : quota;
    const allowed = counts ? outcome === 'taken' : quota.used < quota.limit && (minute === null || minute.used < minute.limit);
    const charge: Charge = { allowed, limit: binding.limit, remaining: Math.max(0, binding.limit - binding.used), resetMs: binding.resetMs };
    if (outcome === 'unavailable') charge.unavailable = true;
    else if (typeof outcome !== 'string') charge.pending = outcome;
    return charge;
  }

  /**
   * The quota window and the minute the clock is in, with the calls counted in each so far: here,
   * or (a stored key on a cluster node) as the backend knows them.
   */
  private windowsOf(account: Account, leases?: QuotaBackend): { quota: WindowUsage; minute: WindowUsage | null; metered: boolean } {
    const now = this.opts.clock.nowMs();
    const { plan } = account;
    const { start: windowStart, end: windowEnd } = quotaWindowAt(account, now);
    const metered = plan.quota < UNMETERED;
    const used = !metered ? 0 : leases === undefined ? this.opts.store.accounts.usageOf(account.id, windowStart) : leases.usedOf(account.id, 'quota', windowStart);
    const quota: WindowUsage = { limit: plan.quota, used, startMs: windowStart, resetMs: windowEnd };
    let minute: WindowUsage | null = null;
    if (plan.per_minute !== null) {
      const startMs = now - (now % MINUTE_MS);
      let minuteUsed: number;
      if (leases !== undefined) minuteUsed = leases.usedOf(account.id, 'minute', startMs);
      else {
        const c = this.counters.get(account.id);
        minuteUsed = c !== undefined && c.minuteStartMs === startMs ? c.minuteCount : 0;
      }
      minute = { limit: plan.per_minute, used: minuteUsed, startMs, resetMs: startMs + MINUTE_MS };
    }
    return { quota, minute, metered };
  }
}

/** The key's quota window that `nowMs` falls in: every `quota_window_days` from the key's creation. */
function quotaWindowAt(account: Account, nowMs: number): { start: number; end: number } {
  const windowMs = account.plan.quota_window_days * DAY_MS;
  const start = account.createdMs + Math.floor((nowMs - account.createdMs) / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

/**
 * One key's call counts, kept between its calls so a request allocates no window objects: the
 * quota window it is in (and its count: the store's for a metered key, updated with it) and the
 * current minute's count. Moved to a new window on the first call in it (countersOf).
 */
class KeyCounters {
  /** The account the windows were computed for: a changed key (plan, creation) recomputes them. */
  account: Account | null = null;
  metered = false;
  quotaStartMs = 0;
  quotaResetMs = 0;
  quotaUsed = 0;
  /** The store's usage key of the quota window (`id|start`), built once per window. */
  usageKey = '';
  minuteStartMs = -MINUTE_MS;
  minuteCount = 0;
}

/** A valid key the server cannot serve: the operator's plans table lacks its plan (403, not 401: the key itself is right). */
export function planMissingMessage(plan: string): string {
  return `this API key's plan ${JSON.stringify(plan)} is not offered by this server (its plans table has no such plan): ask the operator`;
}

function toAccount(record: KeyRecord, plan: Plan): Account {
  return {
    id: record.id,
    plan,
    // A plan that limits stock markets (free: US) bounds the key's markets, whatever the key record says.
    markets: record.markets.includes('*') ? (plan.markets ? new Set(plan.markets) : 'all') : new Set(plan.markets ? record.markets.filter((m) => plan.markets!.includes(m)) : record.markets),
    addons: new Set(record.addons.filter((a) => plan.addons.includes(a))),
    createdMs: record.createdMs,
  };
}
