// The `/health` body (ours: the spec asks only for liveness and readiness). Ready and not ready
// share this shape, so a load balancer or an operator reads the reason from the same fields.
import { Type as T, type Static } from '@sinclair/typebox';

export const HealthSchema = T.Object(
  {
    status: T.Union([T.Literal('ok'), T.Literal('unavailable')]),
    version: T.String(),
    feed: T.String(),
    symbols: T.Integer({ minimum: 0 }),
    uptime_s: T.Integer({ minimum: 0 }),
    checks: T.Object(
      { store: T.Union([T.Literal('ok'), T.Literal('failed')]), feed: T.Union([T.Literal('ok'), T.Literal('stale'), T.Literal('off')]) },
      { additionalProperties: false },
    ),
    /** Since the feed's last tick (or since start, before its first); null without a feed. */
    last_tick_age_ms: T.Union([T.Integer({ minimum: 0 }), T.Null()]),
    /** Why the service is not ready; null when it is. */
    reason: T.Union([T.String(), T.Null()]),
  },
  { $id: 'Health', additionalProperties: false },
);
export type HealthBody = Static<typeof HealthSchema>;
