// `GET /calendar/economic` (issue 8; with the fundamentals add-on): the scheduled releases of a
// window of UTC dates, filtered by country and importance, ordered by time, paged like the
// fundamentals list by a signed cursor that resumes strictly after the last event served.
import { Elysia, t } from 'elysia';
import { addonDenied } from '../../domain/account.ts';
import { toEventJson, type EconomicEvent } from '../../domain/economic-calendar.ts';
import { parseCalendarQuery } from '../../domain/economic-calendar-params.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { accountOf } from '../plugins/gate.ts';
import { decodeCursor, encodeCursor } from '../queries/fundamentals-cursor.ts';

const DAY_MS = 86_400_000;
const Query = t.Object({
  from: t.Optional(t.String()),
  to: t.Optional(t.String()),
  country: t.Optional(t.String()),
  importance: t.Optional(t.String()),
  limit: t.Optional(t.String()),
  cursor: t.Optional(t.String()),
});

/** Cursor text: `cal:<scheduledAtMs>:<id>`. */
function positionOf(text: string): { scheduledAtMs: number; id: string } | null {
  const m = /^cal:(\d{1,15}):(.+)$/.exec(text);
  return m ? { scheduledAtMs: Number(m[1]), id: m[2]! } : null;
}

export function economicCalendarRoutes(deps: ApiDeps) {
  const { store, clock } = deps;
  let cursorKey: Uint8Array | null = null;
  const key = () => (cursorKey ??= store.fundamentals.cursorKey());

  return new Elysia({ prefix: '/calendar' }).get(
    '/economic',
    ({ query, request }) => {
      const denied = addonDenied(accountOf(request), 'fundamentals');
      if (denied) throw new ApiError('FORBIDDEN', denied);
      const nowMs = clock.nowMs();
      const q = parseCalendarQuery(query, nowMs - (nowMs % DAY_MS));
      let after: { scheduledAtMs: number; id: string } | null = null;
      if (q.cursor !== null) {
        const text = decodeCursor(key(), q.cursor);
        after = text === null ? null : positionOf(text);
        if (after === null) throw badRequest('invalid cursor: pass the next_cursor of the previous page unchanged, or omit cursor for the first page');
      }
      const accept = (e: EconomicEvent) => (q.countries === null || q.countries.has(e.country)) && (q.importances === null || q.importances.has(e.importance));
      const page = store.calendar.page(q.fromMs, q.toMs, after, q.limit, accept);
      const body: Record<string, unknown> = { from: q.from, to: q.to, count: page.items.length, items: page.items.map(toEventJson) };
      if (page.hasMore && page.last) body.next_cursor = encodeCursor(key(), `cal:${page.last.scheduledAtMs}:${page.last.id}`);
      return JSON.stringify(body);
    },
    { query: Query },
  );
}
