// The Massive-compatible indicator bodies (/v1/indicators/...), for /openapi.json and the route
// contract test. Field names are the vendor's.
import { Type as T } from '@sinclair/typebox';
import { MassiveBarSchema } from './schemas.ts';

const underlying = T.Object({ url: T.String(), aggregates: T.Optional(T.Array(MassiveBarSchema)) });

export const MassiveIndicatorSchema = T.Object(
  {
    results: T.Object({ underlying, values: T.Array(T.Object({ timestamp: T.Integer(), value: T.Number() })) }),
    status: T.Literal('OK'),
    request_id: T.String(),
    next_url: T.Optional(T.String()),
  },
  { $id: 'MassiveIndicator' },
);

export const MassiveMacdSchema = T.Object(
  {
    results: T.Object({ underlying, values: T.Array(T.Object({ timestamp: T.Integer(), value: T.Number(), signal: T.Number(), histogram: T.Number() })) }),
    status: T.Literal('OK'),
    request_id: T.String(),
    next_url: T.Optional(T.String()),
  },
  { $id: 'MassiveMacd' },
);
