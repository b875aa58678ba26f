// Economic-calendar events keyed [scheduledAtMs, id] (ordered-binary), so a window is one range
// read in time order and a page resumes strictly after the last (time, id) served; beside it an
// index id → scheduled time, so an update to an event (an actual arriving, a revision, a new time)
// replaces it by id without duplicates. Writes are one synchronous transaction.
import type { EconomicEvent } from '../domain/economic-calendar.ts';
import type { StoreDbs } from './env.ts';

/** Stored: the event plus who wrote it (the simulator leaves imported events alone). */
export interface StoredEvent extends EconomicEvent {
  origin: 'import' | 'sim';
}

export interface CalendarWriteSummary {
  added: number;
  updated: number;
  unchanged: number;
}

export interface CalendarPage {
  items: EconomicEvent[];
  /** Position of the last item served, or null for an empty page. */
  last: { scheduledAtMs: number; id: string } | null;
  hasMore: boolean;
}

function sameEvent(a: StoredEvent, b: StoredEvent): boolean {
  return (
    a.origin === b.origin &&
    a.country === b.country &&
    a.event === b.event &&
    a.category === b.category &&
    a.importance === b.importance &&
    a.scheduledAtMs === b.scheduledAtMs &&
    a.actual === b.actual &&
    a.forecast === b.forecast &&
    a.previous === b.previous &&
    a.unit === b.unit
  );
}

export class EconomicCalendarStore {
  constructor(private readonly dbs: StoreDbs) {}

  get(id: string): StoredEvent | undefined {
    const at = this.dbs.calendarIds.get(id) as number | undefined;
    return at === undefined ? undefined : (this.dbs.calendar.get([at, id]) as StoredEvent | undefined);
  }

  /**
   * Inserts or replaces events by id in one transaction. `keep(stored, next)` may refuse a
   * replacement (the simulator does not overwrite imported events). A later duplicate id wins.
   */
  upsert(events: Iterable<StoredEvent>, keep: (stored: StoredEvent) => boolean = () => false): CalendarWriteSummary {
    const summary: CalendarWriteSummary = { added: 0, updated: 0, unchanged: 0 };
    this.dbs.root.transactionSync(() => {
      for (const next of events) {
        const before = this.get(next.id);
        if (before && keep(before)) continue;
        if (before && sameEvent(before, next)) {
          summary.unchanged++;
          continue;
        }
        if (before) {
          summary.updated++;
          if (before.scheduledAtMs !== next.scheduledAtMs) this.dbs.calendar.removeSync([before.scheduledAtMs, next.id]);
        } else summary.added++;
        this.dbs.calendar.putSync([next.scheduledAtMs, next.id], next);
        this.dbs.calendarIds.putSync(next.id, next.scheduledAtMs);
      }
    });
    return summary;
  }

  /** Up to `limit` events with fromMs ≤ time < toMs passing `accept`, in (time, id) order, after `after`. */
  page(fromMs: number, toMs: number, after: { scheduledAtMs: number; id: string } | null, limit: number, accept: (e: EconomicEvent) => boolean): CalendarPage {
    const items: EconomicEvent[] = [];
    let last: CalendarPage['last'] = null;
    let hasMore = false;
    const start = after && after.scheduledAtMs >= fromMs ? [after.scheduledAtMs, after.id] : [fromMs];
    for (const { key, value } of this.dbs.calendar.getRange({ start, end: [toMs] })) {
      if (after && key[0] === after.scheduledAtMs && key[1] === after.id) continue;
      const stored = value as StoredEvent;
      if (!accept(stored)) continue;
      if (items.length === limit) {
        hasMore = true;
        break;
      }
      const { origin: _origin, ...event } = stored;
      items.push(event);
      last = { scheduledAtMs: stored.scheduledAtMs, id: stored.id };
    }
    return { items, last, hasMore };
  }
}
