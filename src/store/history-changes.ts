// The notes of history written outside the live path (a bar or tick import, the simulator's gap
// filling, a fundamentals, bond, calendar or corporate-action import): which rows changed, by key range, written
// durably by whichever process made the change (`mds import` may be another process than the
// server). An ingest node publishes the rows each note names, as they then are, to its edges and
// removes the note once JetStream holds them; a note outlives a crash, and publishing one twice
// changes nothing. Other roles never read them: the server drops them at start.
import type { StoreDbs } from './env.ts';

/** What changed: bars of symbols (every timeframe, bars starting in [fromMs, toMs)), bond series, calendar events, fundamentals records. */
export type HistoryChange =
  | { kind: 'bars'; ranges: [symId: number, fromMs: number, toMs: number][] }
  | { kind: 'bonds'; symbols: string[] }
  | { kind: 'calendar'; ids: string[] }
  | { kind: 'fundamentals'; symbols: string[] }
  | { kind: 'actions'; symbols: string[] };

const PREFIX = 'historyChange:';
/** The first key after every note (`;` follows `:`). */
const END = 'historyChange;';
const NEXT_KEY = 'nextHistoryChange';

export interface NotedChange {
  key: string;
  change: HistoryChange;
}

export class HistoryChanges {
  private isNoting = true;

  constructor(private readonly dbs: StoreDbs) {}

  /** This process's writes leave no notes from now on (a server that publishes none: not an ingest node). */
  stopNoting(): void {
    this.isNoting = false;
  }

  /** Writes a note durably (its own transaction) before returning; an empty change writes nothing. */
  async note(change: HistoryChange): Promise<void> {
    if (!this.isNoting || isEmpty(change)) return;
    await this.dbs.root.transaction(() => {
      const n = (this.dbs.meta.get(NEXT_KEY) as number | undefined) ?? 1;
      this.dbs.meta.put(NEXT_KEY, n + 1);
      this.dbs.meta.put(`${PREFIX}${String(n).padStart(12, '0')}`, change);
    });
  }

  /** The notes not yet removed, oldest first. */
  pending(): NotedChange[] {
    const out: NotedChange[] = [];
    for (const { key, value } of this.dbs.meta.getRange({ start: PREFIX, end: END })) out.push({ key, change: value as HistoryChange });
    return out;
  }

  /** Removes a note durably (its rows reached every edge's stream). */
  async done(key: string): Promise<void> {
    await this.dbs.meta.remove(key);
  }

  /** Removes every note (a node that publishes none). */
  async clear(): Promise<number> {
    const keys = this.pending().map((n) => n.key);
    if (keys.length > 0) await this.dbs.root.transaction(() => keys.forEach((k) => this.dbs.meta.remove(k)));
    return keys.length;
  }
}

function isEmpty(c: HistoryChange): boolean {
  if (c.kind === 'bars') return c.ranges.length === 0;
  if (c.kind === 'calendar') return c.ids.length === 0;
  return c.symbols.length === 0;
}
