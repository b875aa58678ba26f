// The OpenAPI 3.1 document of the REST routes, generated once from the route table. TypeBox schemas
// are JSON Schema already: every schema with an `$id` becomes one component, referenced by `$ref`
// wherever it appears, so a Bar or a FundamentalsItem is described once.
import type { TObject, TSchema } from '@sinclair/typebox';
import { ErrorSchema } from '../domain/schemas.ts';
import { VERSION } from '../version.ts';
import { openApiPath, type ErrorStatus, type RouteRow } from './route-table/index.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'invalid request: the message says what was wrong and what is allowed',
  401: 'missing, invalid or revoked API key',
  403: "not enabled for the key's account (plan, stock market or add-on)",
  404: 'unknown symbol, or no value available yet (the message says which)',
  422: 'a parameter value that cannot be served (the Alpaca-compatible timeframe; a tick history window before the retained ticks)',
  429: 'rate limit or quota exceeded; Retry-After says when to come back',
  503: 'data cannot be retrieved temporarily',
};

const SECURITY_SCHEMES = {
  ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
  ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
} as const;

// Markdown (documentation viewers render it, /docs among them). The stream is no REST route, so it
// is described here: where it is, and where its frames are documented.
const DESCRIPTION = [
  'Read-only market data over REST: quotes, trades, snapshots and bars per asset class, market hours, fundamentals, bond yields and an economic calendar. Timestamps are Unix ms; a briefly missing value is null. Every response carries X-RateLimit-Limit and X-RateLimit-Remaining.',
  'Authorize with an API key: the `x-api-key` header or the `apiKey` query parameter (the header wins when both are sent). `/health`, `/openapi.json`, `/asyncapi.json`, `/docs` and `/console` need none; the compatibility routes take the key as their vendor does (see their tags).',
  '**WebSocket stream.** Live quotes and trades, on the same port: `ws://HOST:PORT/?apiKey=KEY`, or `wss://` when the server has TLS (JSON text frames; `&format=msgpack` for msgpack binary frames). Subscribe with `{"action":"subscribe","channels":["crypto.quotes"],"symbols":["BTCUSD"]}`; a resume with `since` replays by per-symbol `seq`. Its channels and frames are described by the AsyncAPI document [/asyncapi.json](/asyncapi.json), and in docs/stream.md.',
].join('\n\n');

/** Named schemas, collected while schemas are turned into JSON with `$ref`s to them. */
export class Components {
  readonly schemas: JsonObject = {};
  private readonly texts = new Map<string, string>();

  /** The schema as JSON, each named sub-schema (itself included) replaced by a `$ref`. */
  ref(schema: TSchema): Json {
    // JSON.stringify drops TypeBox's symbol-keyed metadata (Kind, Optional), leaving JSON Schema.
    return this.lift(JSON.parse(JSON.stringify(schema)) as Json);
  }

  private lift(node: Json): Json {
    if (Array.isArray(node)) return node.map((n) => this.lift(n));
    if (node === null || typeof node !== 'object') return node;
    const { $id, ...rest } = node;
    const body: JsonObject = {};
    for (const [k, v] of Object.entries(rest)) body[k] = this.lift(v);
    if (typeof $id !== 'string') return body;
    // `$id` is left out of the component: inside it, relative `$ref`s would resolve against it.
    const text = JSON.stringify(body);
    const known = this.texts.get($id);
    if (known !== undefined && known !== text) throw new Error(`two different schemas share the $id ${$id}`);
    this.texts.set($id, text);
    this.schemas[$id] = body;
    return { $ref: `#/components/schemas/${$id}` };
  }
}

function parametersOf(where: 'path' | 'query', object: TObject | undefined, components: Components): Json[] {
  if (!object) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    const param: JsonObject = { name, in: where, required: where === 'path' || required.has(name), schema: components.ref(rest as TSchema) };
    // Said once, on the parameter, where documentation viewers show it.
    if (typeof description === 'string') param.description = description;
    return param;
  });
}

const jsonContent = (schema: Json): JsonObject => ({ 'application/json': { schema } });

function operationOf(row: RouteRow, components: Components): JsonObject {
  const responses: JsonObject = { '200': { description: 'OK', content: jsonContent(components.ref(row.response)) } };
  for (const status of row.errors) responses[String(status)] = { description: ERROR_DESCRIPTIONS[status], content: jsonContent(components.ref(row.errorSchema ?? ErrorSchema)) };
  if (row.unavailable) responses['503'] = { description: 'not ready: the same fields, with the failed check and the reason', content: jsonContent(components.ref(row.unavailable)) };
  const operation: JsonObject = {
    operationId: row.operationId,
    summary: row.summary,
    tags: [row.tag],
    parameters: [...parametersOf('path', row.params, components), ...parametersOf('query', row.query, components)],
    responses,
  };
  // Open routes need no key; the others take the document's default (header or query key).
  if (row.isOpen) operation.security = [];
  return operation;
}

export function buildOpenApi(table: readonly RouteRow[]): JsonObject {
  const components = new Components();
  const paths: JsonObject = {};
  for (const row of table) paths[openApiPath(row.path)] = { get: operationOf(row, components) };
  const tags = [...new Set(table.map((r) => r.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'mds market data service',
      version: VERSION,
      description: DESCRIPTION,
    },
    servers: [{ url: '/', description: 'the server that serves this document' }],
    security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }],
    tags,
    paths,
    components: { schemas: components.schemas, securitySchemes: SECURITY_SCHEMES },
  };
}
