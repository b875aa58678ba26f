// A tool's bad arguments, said as an agent can act on them: which argument, what it was, and what
// is allowed (every value of an enum, the range of a number, the format of a date), instead of
// TypeBox's `/multiplier: Expected union value`.
import type { TObject, TSchema } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** The values of a union of literals (`anyOf` of `const`s), or null when it is not one. */
export function allowedValues(schema: TSchema): (string | number | boolean)[] | null {
  const members = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!members || !members.every((m) => 'const' in m)) return null;
  return members.map((m) => (m as unknown as { const: string | number | boolean }).const);
}

const range = (min: unknown, max: unknown) => (typeof min === 'number' && typeof max === 'number' ? ` from ${min} to ${max}` : typeof min === 'number' ? ` of at least ${min}` : typeof max === 'number' ? ` of at most ${max}` : '');

/** What a schema allows, as a phrase: "one of 1, 4, 5, 15", "an integer from 1 to 1000", "a date as YYYY-MM-DD". */
export function allowedPhrase(schema: TSchema): string {
  const values = allowedValues(schema);
  if (values) return `one of ${values.map((v) => (typeof v === 'string' ? v : String(v))).join(', ')}`;
  const s = schema as { type?: string; minimum?: number; maximum?: number; minLength?: number; maxLength?: number; pattern?: string; minItems?: number; maxItems?: number; items?: TSchema };
  switch (s.type) {
    case 'integer':
      return `an integer${range(s.minimum, s.maximum)}`;
    case 'number':
      return `a number${range(s.minimum, s.maximum)}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return `a list of ${s.minItems ?? 0} to ${s.maxItems ?? 'any number of'} items, each ${s.items ? allowedPhrase(s.items) : 'any value'}`;
    case 'string':
      if (s.pattern === DATE_PATTERN) return 'a date as YYYY-MM-DD';
      // Other patterns are the description's to explain (a market code, COUNTRY:TENOR).
      return s.maxLength === undefined ? 'text' : `text of ${s.minLength ?? 0} to ${s.maxLength} characters`;
    default:
      return 'a JSON value';
  }
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/** One sentence per wrong argument, in the schema's order; empty when the arguments are good. */
export function argumentProblems(schema: TObject, input: Record<string, unknown>): string[] {
  if (Value.Check(schema, input)) return [];
  const names = Object.keys(schema.properties);
  const required = new Set(schema.required ?? []);
  const byName = new Map<string, ValueError>();
  for (const e of Value.Errors(schema, input)) {
    const name = e.path.split('/')[1] ?? '';
    if (!byName.has(name)) byName.set(name, e);
  }
  const problems: string[] = [];
  for (const [name, e] of byName) {
    const prop = schema.properties[name];
    const about = prop?.description ? ` (${prop.description})` : '';
    if (e.type === ValueErrorType.ObjectAdditionalProperties || prop === undefined) {
      problems.push(`${shown(name)} is not an argument of this tool; its arguments are ${names.map((n) => (required.has(n) ? `${n} (required)` : n)).join(', ')}`);
    } else if (e.type === ValueErrorType.ObjectRequiredProperty || input[name] === undefined) {
      problems.push(`${name} is required: ${allowedPhrase(prop)}${about}`);
    } else {
      problems.push(`${name} must be ${allowedPhrase(prop)}, not ${shown(input[name])}${about}`);
    }
  }
  // Names the schema orders (class before symbol) come first; unknown ones last.
  const order = (p: string) => {
    const i = names.findIndex((n) => p.startsWith(`${n} `));
    return i < 0 ? names.length : i;
  };
  return problems.sort((a, b) => order(a) - order(b));
}
