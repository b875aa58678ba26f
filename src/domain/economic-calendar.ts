// The economic calendar (issue 8; served with the fundamentals add-on): one event per scheduled
// release, its fields and their rules, the schemas of the route's page, and the parsing of one
// input record (CSV cells or an NDJSON object) into an event or a readable error. Pure rules.
import { Type as T, type Static } from '@sinclair/typebox';

/** Countries whose releases are covered; `EU` is the euro area (ECB decisions). */
export const CALENDAR_COUNTRIES = ['US', 'EU', 'DE', 'FR', 'IT', 'ES', 'GB'] as const;
export const IMPORTANCES = ['low', 'medium', 'high'] as const;
export type Importance = (typeof IMPORTANCES)[number];

export interface EconomicEvent {
  /** Stable id chosen by the publisher: a later record with the same id replaces the event. */
  id: string;
  country: string;
  event: string;
  category: string;
  importance: Importance;
  scheduledAtMs: number;
  /** Null until known. */
  actual: number | null;
  forecast: number | null;
  previous: number | null;
  /** `%`, `K`, `index`, ...; null when the figure has none. */
  unit: string | null;
}

const NumOrNull = T.Union([T.Number(), T.Null()]);

export const EconomicEventSchema = T.Object(
  {
    id: T.String(),
    country: T.String(),
    event: T.String(),
    category: T.String(),
    importance: T.Union(IMPORTANCES.map((i) => T.Literal(i))),
    /** Unix ms. */
    scheduled_at: T.Integer(),
    actual: NumOrNull,
    forecast: NumOrNull,
    previous: NumOrNull,
    unit: T.Union([T.String(), T.Null()]),
  },
  { $id: 'EconomicEvent', additionalProperties: false },
);
export type EconomicEventJson = Static<typeof EconomicEventSchema>;

export const EconomicCalendarPageSchema = T.Object(
  {
    from: T.String(),
    to: T.String(),
    count: T.Integer(),
    items: T.Array(EconomicEventSchema),
    /** Left out on the last page. */
    next_cursor: T.Optional(T.String()),
  },
  { $id: 'EconomicCalendarPage', additionalProperties: false },
);

export function toEventJson(e: EconomicEvent): EconomicEventJson {
  return { id: e.id, country: e.country, event: e.event, category: e.category, importance: e.importance, scheduled_at: e.scheduledAtMs, actual: e.actual, forecast: e.forecast, previous: e.previous, unit: e.unit };
}

export function isCalendarCountry(cc: string): boolean {
  return (CALENDAR_COUNTRIES as readonly string[]).includes(cc);
}

export const CALENDAR_COLUMNS = ['id', 'country', 'event', 'category', 'importance', 'scheduled_at', 'actual', 'forecast', 'previous', 'unit'] as const;
const REQUIRED = ['id', 'country', 'event', 'category', 'importance', 'scheduled_at'] as const;
const ID = /^[A-Za-z0-9._:-]{1,64}$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** ISO 8601 with a time and an explicit zone, so a release time is never read in the wrong zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export function isCalendarColumn(name: string): boolean {
  return (CALENDAR_COLUMNS as readonly string[]).includes(name);
}

type Parsed = { ok: true; event: EconomicEvent } | { ok: false; error: string };

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 30 ? `${text.slice(0, 30)}…` : text);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function text(name: string, value: unknown, max: number): string | { error: string } {
  if (typeof value !== 'string') return { error: `${name} must be text, got ${shown(value)}` };
  const t = value.trim();
  if (t.length > max) return { error: `${name} is longer than ${max} characters` };
  return t;
}

function figure(name: string, value: unknown): number | null | { error: string } {
  if (isEmpty(value)) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value.trim());
  return { error: `${name} must be a number or empty, got ${shown(value)}` };
}

function instant(value: unknown): number | { error: string } {
  const expected = 'scheduled_at must be Unix ms or an ISO 8601 time with its zone (2026-03-06T13:30:00Z)';
  let ms = NaN;
  if (typeof value === 'number') ms = Number.isInteger(value) ? value : NaN;
  else if (typeof value === 'string') {
    const t = value.trim();
    if (/^\d{1,15}$/.test(t)) ms = Number(t);
    else if (ISO_INSTANT.test(t)) ms = Date.parse(t);
  }
  if (Number.isNaN(ms)) return { error: `${expected}, got ${shown(value)}` };
  if (ms < Date.UTC(1970, 0, 2) || ms > Date.UTC(2100, 0, 1)) return { error: `scheduled_at ${shown(value)} is outside 1970 to 2100` };
  return ms;
}

/** One input record (keys are the column names) → an event, or what is wrong with it. */
export function parseEventInput(fields: Record<string, unknown>): Parsed {
  for (const name of Object.keys(fields)) if (!isCalendarColumn(name)) return { ok: false, error: `unknown field ${shown(name)}; the fields are ${CALENDAR_COLUMNS.join(', ')}` };
  for (const name of REQUIRED) if (isEmpty(fields[name])) return { ok: false, error: `${name} is missing` };
  const id = text('id', fields.id, 64);
  if (typeof id !== 'string') return { ok: false, error: id.error };
  if (!ID.test(id)) return { ok: false, error: `id ${shown(id)} must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', ':', '-'` };
  const country = text('country', fields.country, 2);
  if (typeof country !== 'string') return { ok: false, error: country.error };
  if (!isCalendarCountry(country.toUpperCase())) return { ok: false, error: `country ${shown(country)} is not covered; the calendar covers ${CALENDAR_COUNTRIES.join(', ')}` };
  const event = text('event', fields.event, 200);
  if (typeof event !== 'string') return { ok: false, error: event.error };
  const category = text('category', fields.category, 60);
  if (typeof category !== 'string') return { ok: false, error: category.error };
  const importance = text('importance', fields.importance, 10);
  if (typeof importance !== 'string') return { ok: false, error: importance.error };
  if (!(IMPORTANCES as readonly string[]).includes(importance.toLowerCase())) return { ok: false, error: `importance ${shown(importance)} must be low, medium or high` };
  const scheduledAtMs = instant(fields.scheduled_at);
  if (typeof scheduledAtMs !== 'number') return { ok: false, error: scheduledAtMs.error };
  const values: (number | null)[] = [];
  for (const name of ['actual', 'forecast', 'previous'] as const) {
    const v = figure(name, fields[name]);
    if (v !== null && typeof v === 'object') return { ok: false, error: v.error };
    values.push(v);
  }
  let unit: string | null = null;
  if (!isEmpty(fields.unit)) {
    const u = text('unit', fields.unit, 20);
    if (typeof u !== 'string') return { ok: false, error: u.error };
    unit = u;
  }
  return {
    ok: true,
    event: { id, country: country.toUpperCase(), event, category, importance: importance.toLowerCase() as Importance, scheduledAtMs, actual: values[0]!, forecast: values[1]!, previous: values[2]!, unit },
  };
}
