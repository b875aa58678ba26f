// The outline of the OpenAPI document `/openapi.json` serves: what a client reads first (version,
// paths, components). The document's full grammar is OpenAPI 3.1's; this only pins our promises.
import { Type as T } from '@sinclair/typebox';

export const OpenApiDocumentSchema = T.Object(
  {
    openapi: T.Literal('3.1.0'),
    info: T.Object({ title: T.String(), version: T.String(), description: T.Optional(T.String()) }),
    servers: T.Array(T.Object({ url: T.String(), description: T.Optional(T.String()) })),
    security: T.Array(T.Record(T.String(), T.Array(T.String()))),
    tags: T.Optional(T.Array(T.Object({ name: T.String(), description: T.Optional(T.String()) }))),
    paths: T.Record(T.String(), T.Object({ get: T.Object({ operationId: T.String(), summary: T.String(), responses: T.Record(T.String(), T.Unknown()) }) })),
    components: T.Object({ schemas: T.Record(T.String(), T.Unknown()), securitySchemes: T.Record(T.String(), T.Unknown()) }),
  },
  { $id: 'OpenApiDocument' },
);
