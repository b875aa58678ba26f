// Writes client/src/generated.ts from the route table: one TypeScript type per named schema, the
// params, query and 200 body of every route, a method per operationId, and the stream channels.
// The client package cannot import TypeBox's `Static` over our schemas, so the JSON schemas are
// printed as TS type text. Usage: bun scripts/gen-client.ts (a test fails when the file is stale).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TObject, TSchema } from '@sinclair/typebox';
import { ROUTE_TABLE, type RouteRow } from '../src/api/route-table/index.ts';
import { CHANNELS } from '../src/stream/protocol.ts';

export const GENERATED_PATH = join(import.meta.dir, '..', 'client', 'src', 'generated.ts');

/** A JSON schema as TypeBox writes it: the keywords the route table uses. */
interface Schema {
  $id?: string;
  type?: string;
  description?: string;
  const?: unknown;
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name));
const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
/** A literal in the repo's quote style. */
const lit = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value));
const list = (values: readonly string[]) => `[${values.map(lit).join(', ')}]`;
const doc = (text: string | undefined, indent: string) => (text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n` : '');

/** Prints schemas as TS types, naming the ones with an `$id` once each. */
class Emitter {
  readonly named = new Map<string, string>();

  type(schema: Schema, indent = ''): string {
    if (schema.$id !== undefined) {
      if (!this.named.has(schema.$id)) {
        this.named.set(schema.$id, ''); // placeholder: a schema that contains itself stays a name
        const { $id, ...rest } = schema;
        this.named.set($id, this.body(rest, ''));
      }
      return schema.$id;
    }
    return this.body(schema, indent);
  }

  private body(schema: Schema, indent: string): string {
    if (schema.const !== undefined) return lit(schema.const);
    if (schema.anyOf) return [...new Set(schema.anyOf.map((s) => this.wrap(s, indent)))].join(' | ');
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'number':
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array':
        return `${this.wrap(schema.items ?? {}, indent)}[]`;
      case 'object':
        return this.object(schema, indent);
      case undefined:
        return 'unknown';
      default:
        throw new Error(`gen-client: no TS type for schema type ${JSON.stringify(schema.type)}`);
    }
  }

  /** A member of a union or an array element: parenthesized when it is itself a union. */
  private wrap(schema: Schema, indent: string): string {
    const text = this.type(schema, indent);
    return schema.$id === undefined && schema.anyOf && schema.anyOf.length > 1 ? `(${text})` : text;
  }

  private object(schema: Schema, indent: string): string {
    const inner = `${indent}  `;
    const required = new Set(schema.required ?? []);
    const lines = Object.entries(schema.properties ?? {}).map(([name, prop]) => `${doc(prop.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${this.type(prop, inner)};`);
    const extra = [...Object.values(schema.patternProperties ?? {}), ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : [])];
    if (extra.length > 0) {
      // Named properties must fit the index signature: with both, the index says only `unknown`.
      const value = lines.length > 0 ? 'unknown' : [...new Set(extra.map((s) => this.wrap(s, inner)))].join(' | ');
      lines.push(`${inner}[key: string]: ${value};`);
    }
    return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
  }
}

interface Operation {
  row: RouteRow;
  pathParams: string[];
  queryParams: string[];
  argsType: string | null;
  argsOptional: boolean;
  response: string;
}

function operationOf(row: RouteRow, emitter: Emitter): Operation {
  const params = (row.params ?? null) as (TObject & Schema) | null;
  const query = (row.query ?? null) as (TObject & Schema) | null;
  const pathParams = Object.keys(params?.properties ?? {});
  const queryParams = Object.keys(query?.properties ?? {});
  const clash = pathParams.filter((p) => queryParams.includes(p));
  if (clash.length > 0) throw new Error(`gen-client: ${row.operationId} has ${clash.join(', ')} in both its path and its query: one args object cannot hold both`);
  // One args object per call: the path's parameters and the query's, side by side.
  const merged: Schema = {
    type: 'object',
    properties: { ...params?.properties, ...query?.properties },
    required: [...(params?.required ?? []), ...(query?.required ?? [])],
  };
  const argsType = pathParams.length + queryParams.length === 0 ? null : emitter.type(merged);
  return { row, pathParams, queryParams, argsType, argsOptional: (merged.required ?? []).length === 0, response: emitter.type(row.response as TSchema & Schema) };
}

/** The whole generated file. */
export function renderClientRoutes(): string {
  const emitter = new Emitter();
  const ops = ROUTE_TABLE.map((row) => operationOf(row, emitter));
  const out: string[] = [];
  out.push('// Generated by scripts/gen-client.ts from the route table (src/api/route-table): do not edit.');
  out.push('// The REST routes: their types, the table the client calls them through, and a method per');
  out.push('// operationId; and the stream channels.');
  out.push('');
  out.push('/** Per-call options. */');
  out.push('export interface RequestOptions {');
  out.push('  /** Aborts the request. */');
  out.push('  signal?: AbortSignal;');
  out.push('  /** Extra request headers. */');
  out.push('  headers?: Record<string, string>;');
  out.push('}');
  out.push('');
  for (const [name, body] of emitter.named) {
    out.push(body.startsWith('{') ? `export interface ${name} ${body}` : `export type ${name} = ${body};`);
    out.push('');
  }
  for (const op of ops) {
    if (op.argsType === null) continue;
    out.push(`${doc(`The arguments of ${op.row.operationId}: its path and query parameters.`, '')}export interface ${pascal(op.row.operationId)}Args ${op.argsType}`);
    out.push('');
  }
  out.push('/** Every REST route by operationId: its path, its arguments (path and query parameters together) and its 200 body. */');
  out.push('export interface Operations {');
  for (const op of ops) {
    out.push(doc(`${op.row.summary}. \`GET ${op.row.path}\``, '  ').trimEnd());
    out.push(`  ${op.row.operationId}: { path: ${lit(op.row.path)}; args: ${op.argsType === null ? 'Record<string, never>' : `${pascal(op.row.operationId)}Args`}; response: ${op.response} };`);
  }
  out.push('}');
  out.push('');
  out.push('/** What the client needs at run time per route: the path, which arguments go in it, and whether a 503 carries the 200 shape. */');
  out.push('export const OPERATIONS = {');
  for (const op of ops) {
    const fields = [`path: ${lit(op.row.path)}`, `pathParams: ${list(op.pathParams)}`];
    if (op.row.isOpen) fields.push('isOpen: true');
    if (op.row.unavailable) fields.push('bodyOn503: true');
    out.push(`  ${op.row.operationId}: { ${fields.join(', ')} },`);
  }
  out.push('} as const satisfies Record<keyof Operations, { path: string; pathParams: readonly string[]; isOpen?: true; bodyOn503?: true }>;');
  out.push('');
  out.push('export type OperationId = keyof Operations;');
  out.push('');
  out.push('/** One method per operationId; the client supplies `call`. */');
  out.push('export abstract class OperationMethods {');
  out.push('  protected abstract call<O extends OperationId>(operationId: O, args: Operations[O][\'args\'] | undefined, options: RequestOptions | undefined): Promise<Operations[O][\'response\']>;');
  for (const op of ops) {
    const id = op.row.operationId;
    out.push('');
    out.push(doc(`${op.row.summary}. \`GET ${op.row.path}\``, '  ').trimEnd());
    if (op.argsType === null) {
      out.push(`  ${id}(options?: RequestOptions): Promise<${op.response}> {`);
      out.push(`    return this.call('${id}', undefined, options);`);
    } else {
      out.push(`  ${id}(args${op.argsOptional ? '?' : ''}: ${pascal(id)}Args, options?: RequestOptions): Promise<${op.response}> {`);
      out.push(`    return this.call('${id}', args, options);`);
    }
    out.push('  }');
  }
  out.push('}');
  out.push('');
  out.push('/** The stream\'s channels: `<class>.quotes` and `<class>.trades`. */');
  out.push(`export const CHANNELS = ${list(CHANNELS)} as const;`);
  out.push('export type Channel = (typeof CHANNELS)[number];');
  out.push('');
  return out.join('\n');
}

if (import.meta.main) {
  writeFileSync(GENERATED_PATH, renderClientRoutes());
  console.log(`wrote ${GENERATED_PATH}`);
}
