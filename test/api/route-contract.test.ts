// The route table is the contract: every row's examples answer 200 over real HTTP with a body its
// response schema accepts, its error example answers a declared status with the error body, the
// table and the app's registered routes are the same set, and /openapi.json describes them all.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { createApp } from '../../src/api/app.ts';
import type { ApiDeps } from '../../src/api/deps.ts';
import { DOCS_ASSETS_PREFIX, DOCS_PATH } from '../../src/api/routes/docs.ts';
import { CONSOLE_ASSETS_PREFIX, CONSOLE_PATH } from '../../src/console/paths.ts';
import { openApiPath, ROUTE_TABLE, type RouteRow } from '../../src/api/route-table/index.ts';
import { ErrorSchema } from '../../src/domain/schemas.ts';
import { startServer, type TestServer } from '../support/server.ts';

const checks = new Map<TSchema, TypeCheck<TSchema>>();
function checkerOf(schema: TSchema): TypeCheck<TSchema> {
  let check = checks.get(schema);
  if (!check) checks.set(schema, (check = TypeCompiler.Compile(schema)));
  return check;
}

/** What the schema rejects in `value`, one line per error (empty when it fits). */
function mismatches(schema: TSchema, value: unknown): string[] {
  return [...checkerOf(schema).Errors(value)].slice(0, 12).map((e) => `${e.path || '/'}: ${e.message} (got ${JSON.stringify(e.value)?.slice(0, 80)})`);
}

/** The path parameters of `path` under the row's template, or null when it does not match. */
function matchTemplate(template: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = template.replace(/:([A-Za-z_]+)/g, (_, name: string) => (names.push(name), '([^/]+)'));
  const m = new RegExp(`^${source}$`).exec(path);
  if (!m) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(m[i + 1]!)]));
}

const examples = ROUTE_TABLE.flatMap((row) => row.examples.map((example) => ({ row, example, label: `${example} (${row.path})` })));
const errorExamples = ROUTE_TABLE.flatMap((row) => (row.errorExample ? [{ row, ex: row.errorExample, label: `${row.errorExample.path} → ${row.errorExample.status}` }] : []));

describe('route table examples', () => {
  test.each(examples)('$label fits the row: its path matches the template, params and query fit their schemas', ({ row, example }) => {
    const url = new URL(example, 'http://x');
    const params = matchTemplate(row.path, url.pathname);
    expect(params).not.toBeNull();
    // Values travel as text: converted where the schema wants numbers, as a client generator would send them.
    if (row.params) expect(mismatches(row.params, Value.Convert(row.params, params))).toEqual([]);
    else expect(params).toEqual({});
    const query = Object.fromEntries(url.searchParams);
    if (row.query) expect(mismatches(row.query, Value.Convert(row.query, query))).toEqual([]);
    else expect(query).toEqual({});
  });

  test('every row has a unique path and operationId', () => {
    expect(new Set(ROUTE_TABLE.map((r) => r.path)).size).toBe(ROUTE_TABLE.length);
    expect(new Set(ROUTE_TABLE.map((r) => r.operationId)).size).toBe(ROUTE_TABLE.length);
  });
});

describe('the table and the app register the same routes', () => {
  // Registering routes reads no dependency: a stand-in with the fields createApp touches is enough.
  const deps = { clock: { nowMs: () => 0 }, store: {}, auth: {} } as unknown as ApiDeps;
  const app = createApp(deps);
  // A prefixed group's root registers as `/markets/`; it answers `/markets` as well.
  // The docs and console pages are HTML, not JSON routes of the table (and not in /openapi.json):
  // test/api/docs-page.test.ts and test/api/console-page.test.ts cover them.
  const pages = [DOCS_PATH, CONSOLE_PATH];
  const pageAssets = [DOCS_ASSETS_PREFIX, CONSOLE_ASSETS_PREFIX];
  const served = app.routes
    .filter((r) => !pages.includes(r.path) && !pageAssets.some((prefix) => r.path.startsWith(prefix)))
    .map((r) => `${r.method} ${r.path.length > 1 ? r.path.replace(/\/$/, '') : r.path}`)
    .sort();
  const tabled = ROUTE_TABLE.map((r) => `${r.method} ${r.path}`).sort();

  test('every registered route has a row', () => {
    expect(served.filter((r) => !tabled.includes(r))).toEqual([]);
  });

  test('every row is a registered route', () => {
    expect(tabled.filter((r) => !served.includes(r))).toEqual([]);
  });
});

let server: TestServer;
beforeAll(async () => {
  // The default test clock: Wednesday 15:30 UTC, US and Europe in session, two days of history.
  server = await startServer();
});
afterAll(async () => {
  await server[Symbol.asyncDispose]();
});

describe('every row answers its examples over HTTP', () => {
  test.each(examples)('$label answers 200 with a body its response schema accepts', async ({ row, example }) => {
    const res = await server.get(example, row.isOpen ? { key: null } : {});
    const body = await res.json();
    expect({ status: res.status, body: res.status === 200 ? null : body }).toEqual({ status: 200, body: null });
    expect(res.headers.get('content-type')).toStartWith('application/json');
    expect(mismatches(row.response, body)).toEqual([]);
  });
});

describe('error examples answer a declared status with the error body', () => {
  test.each(errorExamples)('$label', async ({ row, ex }) => {
    const res = await server.get(ex.path, ex.withoutKey ? { key: null } : {});
    const body = (await res.json()) as { status: number; request_id: string };
    expect(res.status).toBe(ex.status);
    expect(row.errors).toContain(ex.status);
    expect(mismatches(row.errorSchema ?? ErrorSchema, body)).toEqual([]);
    // The native body repeats the status and the request id; a vendor body has its own (src/api/compat).
    if (!row.errorSchema) expect({ status: body.status, requestId: body.request_id }).toEqual({ status: res.status, requestId: res.headers.get('x-request-id')! });
  });

  test('every class answers an unknown symbol on quote, trade and snapshot with a 404 error body', () => {
    const unknownSymbolRows = ROUTE_TABLE.filter((r) => /\/(quote|trade\/last|snapshot)\/:symbol$/.test(r.path));
    expect(unknownSymbolRows.length).toBeGreaterThan(0);
    expect(unknownSymbolRows.filter((r) => r.errorExample?.status !== 404).map((r) => r.path)).toEqual([]);
  });
});

/** Every `$ref` in a JSON document. */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
}

describe('GET /openapi.json', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await server.get('/openapi.json', { key: null });
    expect(res.status).toBe(200);
    doc = await res.json();
  });

  test('is an OpenAPI 3.1 document of interface version 1.0.0 with both API key schemes', () => {
    expect({ openapi: doc.openapi, version: doc.info.version, schemes: doc.components.securitySchemes }).toEqual({
      openapi: '3.1.0',
      version: '1.0.0',
      schemes: { ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' }, ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' } },
    });
    expect(doc.servers.length).toBeGreaterThan(0);
  });

  test('has exactly the table paths, each with its path parameters declared', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(ROUTE_TABLE.map((r) => openApiPath(r.path)).sort());
    const undeclared = ROUTE_TABLE.flatMap((r: RouteRow) => {
      const declared = new Set(doc.paths[openApiPath(r.path)].get.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name));
      return [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!).filter((name) => !declared.has(name)).map((name) => `${r.path} ${name}`);
    });
    expect(undeclared).toEqual([]);
  });

  test('every $ref resolves to a component schema', () => {
    const refs = [...new Set(refsIn(doc))];
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((ref) => !ref.startsWith('#/components/schemas/') || doc.components.schemas[ref.slice('#/components/schemas/'.length)] === undefined)).toEqual([]);
  });

  test('declares each row error status with the error body, and open routes need no key', () => {
    const problems = ROUTE_TABLE.flatMap((r) => {
      const op = doc.paths[openApiPath(r.path)].get;
      const errorRef = `#/components/schemas/${(r.errorSchema ?? ErrorSchema).$id}`;
      const wrong = r.errors.filter((s) => op.responses[String(s)]?.content['application/json'].schema.$ref !== errorRef).map((s) => `${r.path} ${s}`);
      return r.isOpen && JSON.stringify(op.security) !== '[]' ? [...wrong, `${r.path} asks for a key`] : wrong;
    });
    expect(problems).toEqual([]);
  });
});
