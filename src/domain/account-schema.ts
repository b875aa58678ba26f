// The `GET /account` body: the calling key's own view of its plan and of its usage, the windows
// counted exactly as the gate counts them (and as the X-RateLimit-* headers report them).
import { Type as T, type Static } from '@sinclair/typebox';
import { ADDONS, PLAN_CLASSES } from './plans.ts';

const ms = (description: string) => T.Integer({ description });
const count = (description: string) => T.Integer({ minimum: 0, description });

export const AccountQuotaSchema = T.Object(
  {
    limit: count('calls allowed per quota window'),
    used: count('calls counted in the current window, this one included'),
    remaining: count('limit minus used, never below 0'),
    window_days: T.Integer({ minimum: 1, description: 'length of the window; windows restart every window_days from the key creation' }),
    window_start: ms('start of the current window, Unix ms'),
    resets_at: ms('end of the current window, when used starts again from 0, Unix ms'),
  },
  { $id: 'AccountQuota', additionalProperties: false },
);

export const AccountPerMinuteSchema = T.Object(
  {
    limit: count('calls allowed per UTC minute'),
    used: count('calls counted in the current minute, this one included'),
    remaining: count('limit minus used, never below 0'),
    resets_at: ms('start of the next UTC minute, Unix ms'),
  },
  { $id: 'AccountPerMinute', additionalProperties: false },
);

export const AccountSchema = T.Object(
  {
    key_id: T.String({ description: 'the public id of the key (`key_...`), or `dev` for the development key' }),
    plan: T.String(),
    description: T.String({ description: "the plan's description" }),
    classes: T.Array(T.Union(PLAN_CLASSES.map((c) => T.Literal(c))), { description: 'asset classes the plan includes' }),
    markets: T.Union([T.Array(T.String({ pattern: '^[A-Z]{2}$' })), T.Literal('all')], { description: 'stock markets enabled for the key, or all' }),
    addons: T.Array(T.Union(ADDONS.map((a) => T.Literal(a))), { description: 'add-ons enabled for the key' }),
    quota: T.Union([AccountQuotaSchema, T.Null()], { description: 'the quota window; null for an unmetered key (the development key)' }),
    per_minute: T.Union([AccountPerMinuteSchema, T.Null()], { description: 'the per-minute rate; null when the plan has none' }),
    stream: T.Object(
      {
        max_connections: count('WebSocket connections the key may hold at once'),
        max_subscriptions: count('subscriptions per connection'),
      },
      { additionalProperties: false },
    ),
    as_of: ms('service time of the answer, Unix ms (a client that reckons windows or charts by the server clock reads it here)'),
  },
  { $id: 'Account', additionalProperties: false },
);
export type AccountBody = Static<typeof AccountSchema>;
