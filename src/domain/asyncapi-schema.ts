// The outline of the AsyncAPI document `/asyncapi.json` serves: what a client reads first (version,
// server, channel, operations, components). The full grammar is AsyncAPI 3.0's; this pins our promises.
import { Type as T } from '@sinclair/typebox';

export const AsyncApiDocumentSchema = T.Object(
  {
    asyncapi: T.Literal('3.0.0'),
    info: T.Object({ title: T.String(), version: T.String(), description: T.Optional(T.String()) }),
    defaultContentType: T.Optional(T.String()),
    servers: T.Record(T.String(), T.Object({ host: T.String(), protocol: T.String(), pathname: T.Optional(T.String()), security: T.Array(T.Unknown()) })),
    channels: T.Record(T.String(), T.Object({ address: T.String(), messages: T.Record(T.String(), T.Unknown()) })),
    operations: T.Record(T.String(), T.Object({ action: T.Union([T.Literal('send'), T.Literal('receive')]), channel: T.Object({ $ref: T.String() }), messages: T.Array(T.Object({ $ref: T.String() })) })),
    components: T.Object({ schemas: T.Record(T.String(), T.Unknown()), messages: T.Record(T.String(), T.Unknown()), securitySchemes: T.Record(T.String(), T.Unknown()) }),
  },
  { $id: 'AsyncApiDocument' },
);
