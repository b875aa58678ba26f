// Who is calling and how much they may: resolves a presented key to an account (stored keys by
// hash, plus the development key), picks up key changes made by `mds keys` within a second (and
// tells listeners, so open stream connections follow them), and charges each call against the
// plan's quota window and per-minute rate. Counting is exact: the event loop is the only writer.
import { timingSafeEqual } from 'node:crypto';
import type { Account, KeyRecord } from '../domain/account.ts';
import { ADDONS, PLAN_CLASSES, type Plan } from '../domain/plans.ts';
import { DAY_MS, MINUTE_MS } from '../domain/timeframes.ts';
import type { Clock } from '../clock.ts';
import { hashSecret, type Store } from '../store/index.ts';
import { FixedWindowLimiter } from './rate-limit.ts';

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
}

export interface AuthenticatorOptions {
  store: Store;
  clock: Clock;
  plans: readonly Plan[];
  devKey: string | null;
  devPerMinute: number;
}

export class Authenticator {
  private readonly plans: Map<string, Plan>;
  private readonly devHash: Buffer | null;
  private readonly devAccount: Account;
  private cache = new Map<string, AuthResult>();
  private readonly minutes = new Map<string, { startMs: number; count: number }>();
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
      if (!this.opts.store.accounts.refresh()) return;
      this.cache = new Map();
      for (const listener of this.listeners) listener();
    }, pollMs);
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

  private standing(account: Account, counts: boolean): Charge {
    const now = this.opts.clock.nowMs();
    const { plan } = account;
    const windowMs = plan.quota_window_days * DAY_MS;
    const windowStart = account.createdMs + Math.floor((now - account.createdMs) / windowMs) * windowMs;
    const metered = plan.quota < UNMETERED;
    const used = metered ? this.opts.store.accounts.usageOf(account.id, windowStart) : 0;
    const quota: Charge = { allowed: used < plan.quota, limit: plan.quota, remaining: Math.max(0, plan.quota - used), resetMs: windowStart + windowMs };
    let minute: Charge | null = null;
    let m: { startMs: number; count: number } | undefined;
    if (plan.per_minute !== null) {
      const startMs = now - (now % MINUTE_MS);
      m = this.minutes.get(account.id);
      if (!m || m.startMs !== startMs) this.minutes.set(account.id, (m = { startMs, count: 0 }));
      minute = { allowed: m.count < plan.per_minute, limit: plan.per_minute, remaining: Math.max(0, plan.per_minute - m.count), resetMs: startMs + MINUTE_MS };
    }
    const allowed = quota.allowed && (minute === null || minute.allowed);
    if (allowed && counts) {
      if (metered) this.opts.store.accounts.addUsage(account.id, windowStart);
      if (m) m.count++;
      quota.remaining--;
      if (minute) minute.remaining--;
    }
    // Report the window closest to running out (the one that answers the next 429).
    const binding = minute !== null && (!minute.allowed || (quota.allowed && minute.remaining < quota.remaining)) ? minute : quota;
    return { ...binding, allowed, remaining: Math.max(0, binding.remaining) };
  }
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
