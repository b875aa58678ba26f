// Who is calling and how much they may: resolves a presented key to an account (stored keys by
// hash, plus the development key), picks up key changes made by `mds keys` within a second, and
// charges each call against the plan's quota window and per-minute rate. Counting is exact: the
// event loop is the only writer.
import { timingSafeEqual } from 'node:crypto';
import type { Account, KeyRecord } from '../domain/account.ts';
import { ADDONS, PLAN_CLASSES, type Plan } from '../domain/plans.ts';
import { DAY_MS, MINUTE_MS } from '../domain/timeframes.ts';
import type { Clock } from '../clock.ts';
import { hashSecret, type Store } from '../store/index.ts';

export const DEV_KEY_ID = 'dev';
/** Quotas at least this large are not persisted (the development key). */
const UNMETERED = 1e12;

export type AuthResult = { ok: true; account: Account } | { ok: false; code: 'INVALID_KEY' | 'REVOKED_KEY' };

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

  constructor(private readonly opts: AuthenticatorOptions) {
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
      if (this.opts.store.accounts.refresh()) this.cache = new Map();
    }, pollMs);
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
    if (result.ok || result.code === 'REVOKED_KEY') this.cache.set(secret, result);
    return result;
  }

  private resolve(secret: string): AuthResult {
    if (secret.length === 0 || secret.length > 256) return { ok: false, code: 'INVALID_KEY' };
    const hash = hashSecret(secret);
    if (this.devHash && timingSafeEqual(Buffer.from(hash, 'hex'), this.devHash)) return { ok: true, account: this.devAccount };
    const record = this.opts.store.accounts.byHash(hash);
    if (!record) return { ok: false, code: 'INVALID_KEY' };
    if (record.revokedMs !== null) return { ok: false, code: 'REVOKED_KEY' };
    const plan = this.plans.get(record.plan);
    if (!plan) return { ok: false, code: 'INVALID_KEY' };
    return { ok: true, account: toAccount(record, plan) };
  }

  /** Counts one call if the plan allows it; says which window binds for the headers. */
  charge(account: Account): Charge {
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
    if (allowed) {
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

function toAccount(record: KeyRecord, plan: Plan): Account {
  return {
    id: record.id,
    plan,
    markets: record.markets.includes('*') ? 'all' : new Set(record.markets),
    addons: new Set(record.addons.filter((a) => plan.addons.includes(a))),
    createdMs: record.createdMs,
  };
}
