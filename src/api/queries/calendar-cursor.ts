// The paging cursor of `/calendar/economic`: the last (time, id) served, bound to the query it
// pages (the window of dates and the filters) and signed like the fundamentals cursor, so a forged
// cursor, or one reused with another window or filters (which would silently skip or repeat
// events), is refused rather than honoured.
import type { CalendarQuery } from '../../domain/economic-calendar-params.ts';
import { decodeCursor, encodeCursor } from './fundamentals-cursor.ts';

/** The query a cursor pages, in one canonical text: `from:to:countries:importances` (`*` for all). */
export interface CalendarScope {
  from: string;
  to: string;
  countries: string;
  importances: string;
}

export interface CalendarPosition {
  scheduledAtMs: number;
  id: string;
}

function listText(values: ReadonlySet<string> | null): string {
  return values === null ? '*' : [...values].sort().join(',');
}

export function scopeOf(q: Pick<CalendarQuery, 'from' | 'to' | 'countries' | 'importances'>): CalendarScope {
  return { from: q.from, to: q.to, countries: listText(q.countries), importances: listText(q.importances) };
}

export function isSameScope(a: CalendarScope, b: CalendarScope): boolean {
  return a.from === b.from && a.to === b.to && a.countries === b.countries && a.importances === b.importances;
}

/** The scope as the query parameters that ask for it, for messages. */
export function scopeParams(s: CalendarScope): string {
  const filters = [s.countries === '*' ? '' : `&country=${s.countries}`, s.importances === '*' ? '' : `&importance=${s.importances}`].join('');
  return `from=${s.from}&to=${s.to}${filters}`;
}

export function encodeCalendarCursor(key: Uint8Array, scope: CalendarScope, after: CalendarPosition): string {
  return encodeCursor(key, `cal:${scope.from}:${scope.to}:${scope.countries}:${scope.importances}:${after.scheduledAtMs}:${after.id}`);
}

// Ids may hold ':', so the id comes last and takes the rest.
const CURSOR_TEXT = /^cal:(\d{4}-\d{2}-\d{2}):(\d{4}-\d{2}-\d{2}):(\*|[A-Z,]{2,40}):(\*|[a-z,]{3,30}):(\d{1,15}):(.+)$/;

/** The scope and position of a cursor made by this data dir, or null. */
export function decodeCalendarCursor(key: Uint8Array, cursor: string): { scope: CalendarScope; after: CalendarPosition } | null {
  const text = decodeCursor(key, cursor);
  const m = text === null ? null : CURSOR_TEXT.exec(text);
  if (!m) return null;
  return { scope: { from: m[1]!, to: m[2]!, countries: m[3]!, importances: m[4]! }, after: { scheduledAtMs: Number(m[5]), id: m[6]! } };
}
