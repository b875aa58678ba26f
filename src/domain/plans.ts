// Plans and add-ons (spec: "Plans and access"): what each plan may use, its quota and rate. A
// built-in table that an operator can replace with `--plans FILE` (validated with this schema).
import { Type as T, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ASSET_CLASSES } from './asset-classes.ts';

export const ADDONS = ['fundamentals', 'bonds', 'overnight'] as const;
export type Addon = (typeof ADDONS)[number];

/** Asset classes a plan can grant; the overnight session is not one: it is US stocks plus an add-on (spec). */
export const PLAN_CLASSES = ASSET_CLASSES.filter((c) => c !== 'overnight');

/** What the general plans grant: every class but perpetual futures, which need the Perpetuals plan (spec). */
const GENERAL_CLASSES = PLAN_CLASSES.filter((c) => c !== 'perpetuals');

export const PlanSchema = T.Object(
  {
    name: T.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' }),
    description: T.String(),
    classes: T.Array(T.Union(PLAN_CLASSES.map((c) => T.Literal(c))), { uniqueItems: true }),
    /** Calls allowed per quota window; the window restarts every `quota_window_days` from key creation. */
    quota: T.Integer({ minimum: 1 }),
    quota_window_days: T.Integer({ minimum: 1, maximum: 366 }),
    /** Calls per minute, or null for no per-minute rate. */
    per_minute: T.Union([T.Integer({ minimum: 1 }), T.Null()]),
    stream_connections: T.Integer({ minimum: 0 }),
    stream_subscriptions: T.Integer({ minimum: 0 }),
    /**
     * Client frames a key may send per 10 s over all its stream connections, reconnects included;
     * omitted: 50 × stream_connections, at least 100 (streamBudgetOf).
     */
    stream_frames_per_10s: T.Optional(T.Integer({ minimum: 1 })),
    /** Stream upgrade attempts a key may make per minute; omitted: 5 × stream_connections, at least 10. */
    stream_connects_per_minute: T.Optional(T.Integer({ minimum: 1 })),
    /** Add-ons a key on this plan may be given. */
    addons: T.Array(T.Union(ADDONS.map((a) => T.Literal(a))), { uniqueItems: true }),
    /** Stock markets a key on this plan may enable (two-letter codes); omitted: every market. */
    markets: T.Optional(T.Array(T.String({ pattern: '^[A-Z]{2}$' }), { uniqueItems: true, minItems: 1 })),
  },
  { additionalProperties: false },
);
export type Plan = Static<typeof PlanSchema>;

export const PlansFileSchema = T.Object({ plans: T.Array(PlanSchema, { minItems: 1 }) }, { additionalProperties: false });

const ALL_ADDONS = [...ADDONS];

export const BUILT_IN_PLANS: readonly Plan[] = [
  { name: 'free', description: 'Crypto, forex and US stocks; 3,000 calls per 30 days; no card', classes: ['crypto', 'forex', 'stocks'], quota: 3000, quota_window_days: 30, per_minute: null, stream_connections: 2, stream_subscriptions: 50, stream_frames_per_10s: 100, stream_connects_per_minute: 10, addons: [], markets: ['US'] },
  { name: 'starter', description: 'Every asset class; 100,000 calls per 30 days, 300 per minute', classes: [...GENERAL_CLASSES], quota: 100_000, quota_window_days: 30, per_minute: 300, stream_connections: 10, stream_subscriptions: 500, stream_frames_per_10s: 500, stream_connects_per_minute: 50, addons: ALL_ADDONS },
  { name: 'pro', description: 'Every asset class; 1,000,000 calls per 30 days, 1,500 per minute', classes: [...GENERAL_CLASSES], quota: 1_000_000, quota_window_days: 30, per_minute: 1500, stream_connections: 50, stream_subscriptions: 2000, stream_frames_per_10s: 2500, stream_connects_per_minute: 250, addons: ALL_ADDONS },
  { name: 'business', description: 'Every asset class; 20,000,000 calls per 30 days, 10,000 per minute', classes: [...GENERAL_CLASSES], quota: 20_000_000, quota_window_days: 30, per_minute: 10_000, stream_connections: 500, stream_subscriptions: 10_000, stream_frames_per_10s: 25_000, stream_connects_per_minute: 2500, addons: ALL_ADDONS },
  { name: 'perpetuals', description: 'Perpetual futures composites plus crypto; 1,000,000 calls per 30 days', classes: ['perpetuals', 'crypto'], quota: 1_000_000, quota_window_days: 30, per_minute: 1500, stream_connections: 50, stream_subscriptions: 2000, stream_frames_per_10s: 2500, stream_connects_per_minute: 250, addons: [] },
];

/** A key's stream budget over all its connections and reconnects (the plan's, or the default for a plans file without it). */
export interface StreamBudget {
  framesPer10s: number;
  connectsPerMinute: number;
}

/**
 * The defaults scale with the connections a plan allows: all of them may reconnect at once (a
 * server restart) several times a minute, and each may send 50 frames per 10 s.
 */
export function streamBudgetOf(plan: Plan): StreamBudget {
  return {
    framesPer10s: plan.stream_frames_per_10s ?? Math.max(100, 50 * plan.stream_connections),
    connectsPerMinute: plan.stream_connects_per_minute ?? Math.max(10, 5 * plan.stream_connections),
  };
}

/** Whether the plan lets a key enable this stock market (spec: the free plan is US stocks only). */
export function planOffersMarket(plan: Plan, market: string): boolean {
  return plan.markets === undefined || plan.markets.includes(market);
}

/** For an error inside `classes` or `addons`, the values allowed there. */
function allowedAt(path: string): string {
  if (/\/classes\/\d+$/.test(path)) return ` (allowed classes: ${PLAN_CLASSES.join(', ')})`;
  if (/\/addons\/\d+$/.test(path)) return ` (allowed add-ons: ${ADDONS.join(', ')})`;
  return '';
}

/** Validates a plans file's parsed JSON; returns the plans or a list of readable problems. */
export function parsePlans(json: unknown): { plans: Plan[] } | { errors: string[] } {
  if (!Value.Check(PlansFileSchema, json)) {
    return { errors: [...Value.Errors(PlansFileSchema, json)].slice(0, 10).map((e) => `${e.path || '/'}: ${e.message}${allowedAt(e.path)}`) };
  }
  const plans = (json as { plans: Plan[] }).plans;
  const names = new Set<string>();
  for (const p of plans) {
    if (names.has(p.name)) return { errors: [`/plans: plan ${JSON.stringify(p.name)} appears twice`] };
    names.add(p.name);
  }
  return { plans };
}
