// `GET /calendar/economic` (issue 8; with the fundamentals add-on): the scheduled releases of a
// window of UTC dates, filtered by country and importance, ordered by time, paged like the
// fundamentals list by a signed cursor that resumes strictly after the last event served and is
// bound to the window and filters it pages.
import { Elysia, t } from 'elysia';
import { addonDenied } from '../../domain/account.ts';
import { toEventJson, type EconomicEvent } from '../../domain/economic-calendar.ts';
import { parseCalendarQuery } from '../../domain/economic-calendar-params.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { accountOf } from '../plugins/gate.ts';
import { decodeCalendarCursor, encodeCalendarCursor, isSameScope, scopeOf, scopeParams } from '../queries/calendar-cursor.ts';

const DAY_MS = 86_400_000;
const Query = t.Object({
  from: t.Optional(t.String()),
  to: t.Optional(t.String()),
  country: t.Optional(t.String()),
  importance: t.Optional(t.String()),
  limit: t.Optional(t.String()),
  cursor: t.Optional(t.String()),
});

export function economicCalendarRoutes(deps: ApiDeps) {
  const { store, clock } = deps;
  let cursorKey: Uint8Array | null = null;
  const key = () => (cursorKey ??= store.fundamentals.cursorKey());

  return new Elysia({ prefix: '/calendar' }).get(
    '/economic',
    ({ query, request }) => {
      const denied = addonDenied(accountOf(request), 'fundamentals');
      if (denied) throw new ApiError('FORBIDDEN', denied);
      const decoded = query.cursor === undefined ? null : decodeCalendarCursor(key(), query.cursor.trim());
      if (query.cursor !== undefined && decoded === null) throw badRequest('invalid cursor: pass the next_cursor of the previous page unchanged, or omit cursor for the first page');
      // With a cursor, an omitted `from` is the cursor's: a default window (from today) paged
      // across UTC midnight stays the window it started as.
      const nowMs = clock.nowMs();
      const q = parseCalendarQuery(query, decoded ? Date.parse(`${decoded.scope.from}T00:00:00Z`) : nowMs - (nowMs % DAY_MS));
      const scope = scopeOf(q);
      if (decoded && !isSameScope(decoded.scope, scope)) {
        throw badRequest(`cursor does not match this query: it pages ${scopeParams(decoded.scope)}; send those parameters with it, or omit cursor for the first page`);
      }
      const accept = (e: EconomicEvent) => (q.countries === null || q.countries.has(e.country)) && (q.importances === null || q.importances.has(e.importance));
      const page = store.calendar.page(q.fromMs, q.toMs, decoded?.after ?? null, q.limit, accept);
      const body: Record<string, unknown> = { from: q.from, to: q.to, count: page.items.length, items: page.items.map(toEventJson) };
      if (page.hasMore && page.last) body.next_cursor = encodeCalendarCursor(key(), scope, page.last);
      return JSON.stringify(body);
    },
    { query: Query },
  );
}
