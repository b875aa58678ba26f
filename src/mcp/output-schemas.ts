// Output schemas of the tools (MCP `outputSchema`): the route table's own 200 schemas, as plain
// JSON Schema. MCP wants an object at the top, and clients compile each tool's schema on its own
// (the SDK's Ajv), so TypeBox's `$id`s, shared across schemas, are dropped, and a union of shapes
// (one per class) becomes `{type: 'object', anyOf: [...]}`.
import type { TSchema } from '@sinclair/typebox';

/** A JSON Schema whose top is an object, as MCP's `outputSchema` must be. */
export type OutputSchema = { type: 'object'; [k: string]: unknown };

/** A copy without `$id` (at any depth) and without TypeBox's symbol keys. */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value))) as Record<string, unknown>;
}

/** The distinct shapes of `schemas`, a top-level union opened into its members. */
function members(schemas: readonly TSchema[]): Record<string, unknown>[] {
  const seen = new Map<string, Record<string, unknown>>();
  for (const s of schemas) {
    const p = plain(s);
    const parts = Array.isArray(p.anyOf) ? (p.anyOf as Record<string, unknown>[]) : [p];
    for (const part of parts) seen.set(JSON.stringify(part), part);
  }
  return [...seen.values()];
}

/** One object schema that any of `schemas` satisfies. */
export function outputSchemaOf(...schemas: TSchema[]): OutputSchema {
  const all = members(schemas);
  if (all.length === 1 && all[0]!.type === 'object') return all[0] as OutputSchema;
  return { type: 'object', anyOf: all };
}

/** An object with one array property whose items are any of `itemSchemas` (get_quotes' `{quotes: [...]}`). */
export function listOutputSchema(property: string, itemSchemas: TSchema[], description: string): OutputSchema {
  const items = members(itemSchemas);
  return {
    type: 'object',
    properties: { [property]: { type: 'array', description, items: items.length === 1 ? items[0] : { anyOf: items } } },
    required: [property],
    additionalProperties: false,
  };
}
