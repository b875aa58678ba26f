// `GET /account`: the calling key's own view of its plan and usage, what a hosted vendor's account
// page shows. It reads and counts nothing itself: the gate has charged this call, so it is included.
import { Elysia } from 'elysia';
import type { Account } from '../../domain/account.ts';
import type { AccountBody } from '../../domain/account-schema.ts';
import { ADDONS } from '../../domain/plans.ts';
import type { ApiDeps } from '../deps.ts';
import { jsonResponse } from '../http.ts';
import { accountOf } from '../plugins/gate.ts';

export function accountRoutes(deps: ApiDeps) {
  return new Elysia().get('/account', ({ request }) => jsonResponse(JSON.stringify(accountBody(deps, accountOf(request)))));
}

/** The body for `account` as the clock stands, its windows as the gate counts them. */
export function accountBody(deps: Pick<ApiDeps, 'auth' | 'streamCaps' | 'clock'>, account: Account): AccountBody {
  const { plan } = account;
  const { quota, perMinute } = deps.auth.usage(account);
  const caps = deps.streamCaps;
  return {
    key_id: account.id,
    plan: plan.name,
    description: plan.description,
    classes: [...plan.classes],
    markets: account.markets === 'all' ? 'all' : [...account.markets].sort(),
    addons: ADDONS.filter((a) => account.addons.has(a)),
    quota:
      quota === null
        ? null
        : { limit: quota.limit, used: quota.used, remaining: Math.max(0, quota.limit - quota.used), window_days: plan.quota_window_days, window_start: quota.startMs, resets_at: quota.resetMs },
    per_minute: perMinute === null ? null : { limit: perMinute.limit, used: perMinute.used, remaining: Math.max(0, perMinute.limit - perMinute.used), resets_at: perMinute.resetMs },
    // As the stream's ready frame reports them: the plan's limits, within the server's caps.
    stream: {
      max_connections: caps ? Math.min(caps.maxConnectionsPerKey, plan.stream_connections) : plan.stream_connections,
      max_subscriptions: caps ? Math.min(caps.maxSubscriptions, plan.stream_subscriptions) : plan.stream_subscriptions,
    },
    as_of: deps.clock.nowMs(),
  };
}
