// `--role ingest`: history written outside the live path (imports, the simulator's gap filling)
// reaches the edges through the same ordered stream as the live ticks. Whoever wrote it left a
// note of the key ranges it changed (store/history-changes.ts); this reads the rows of each note
// as the store now holds them, publishes them on `mds.history.<kind>`, and removes the note once
// JetStream acked them all. The unit is the changed rows' final state, not the operation: an edge
// writes them as they are (replacing its own), so applying one twice, or late, changes nothing,
// and a note left by a crash is simply published again at the next start.
import { TIMEFRAMES } from '../domain/timeframes.ts';
import { barStartOf } from '../ingest/importers/history/replicated-bars.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import { BAR_FIELDS, type HistoryChange, type Store } from '../store/index.ts';
import { HISTORY_SUBJECT_PREFIX } from './nats.ts';
import { encodeHistory, type HistoryBarsPayload, type HistoryBondsPayload, type HistoryCalendarPayload, type HistoryFundamentalsPayload, type HistoryActionsPayload } from './payloads.ts';

/** Bars per message: 10,000 × 48 bytes, well under NATS's 1 MiB payload limit. */
const BARS_PER_MESSAGE = 10_000;
/** Rows per message of the other kinds. */
const ROWS_PER_MESSAGE = 2_000;
/** How often the notes are looked at. */
const POLL_MS = 500;
/** A bar sealed by a sweep this long after its end (the bar builder's grace): a range is published once sealed. */
const SEAL_GRACE_MS = 1500;
const BYTES_PER_BAR = BAR_FIELDS * 8;

export type HistoryMessage = [subject: string, data: Uint8Array];

export interface HistorySink {
  /** Whether the stream can take messages now (connected). */
  ready(): boolean;
  /** Sends the messages in stream order after what is queued; resolves true once JetStream acked them all. */
  publish(messages: HistoryMessage[]): Promise<boolean>;
  /** The newest sweep time of the ingest path: bars ending a grace before it are sealed. */
  lastSweepMs(): number;
}

export class HistoryPublisher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Notes published since start, and the messages they took. */
  published = 0;
  messages = 0;

  constructor(
    private readonly store: Store,
    private readonly sink: HistorySink,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.schedule();
  }

  /** Notes not yet published. */
  pending(): number {
    return this.store.historyChanges.pending().length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.publishNoted().catch((err: unknown) => this.log(`warning: publishing imported history to the edges failed (${err instanceof Error ? err.message : String(err)}); trying again`));
      void this.running.finally(() => {
        this.running = null;
        this.schedule();
      });
    }, POLL_MS);
  }

  /** Publishes every note that is ready now, oldest first (the timer calls it; so may a test). */
  async publishNoted(): Promise<void> {
    for (const { key, change } of this.store.historyChanges.pending()) {
      if (this.stopped || !this.sink.ready()) return;
      // Bars of a range still open here (the minute in progress at a restart) wait until sealed.
      if (change.kind === 'bars' && change.ranges.some(([, , toMs]) => toMs > this.sink.lastSweepMs() - SEAL_GRACE_MS)) continue;
      const messages = this.messagesOf(change);
      if (!(await this.sink.publish(messages))) return;
      await this.store.historyChanges.done(key);
      this.published++;
      this.messages += messages.length;
      this.log(`history for the edges: ${describe(change)} published (${messages.length} messages)`);
    }
  }

  private messagesOf(change: HistoryChange): HistoryMessage[] {
    if (change.kind === 'bars') return change.ranges.flatMap(([symId, fromMs, toMs]) => this.barMessages(symId, fromMs, toMs));
    if (change.kind === 'bonds') {
      const rows: [string, string, number, string][] = [];
      for (const symbol of change.symbols) {
        for (let offset = 0; ; offset += ROWS_PER_MESSAGE) {
          const page = this.store.bonds.history(symbol, '0000-01-01', '9999-12-31', { offset, limit: ROWS_PER_MESSAGE, sort: 'asc' });
          for (const p of page.points) rows.push([symbol, p.date, p.yieldPct, p.source]);
          if (offset + ROWS_PER_MESSAGE >= page.total) break;
        }
      }
      return chunks(rows).map((observations) => [`${HISTORY_SUBJECT_PREFIX}.bonds`, encodeHistory<HistoryBondsPayload>({ observations })]);
    }
    if (change.kind === 'actions') {
      const splits = change.symbols.flatMap((symbol) => this.store.corporateActions.of(symbol).splits);
      const dividends = change.symbols.flatMap((symbol) => this.store.corporateActions.of(symbol).dividends);
      return [...chunks(splits).map((part) => ({ splits: part, dividends: [] })), ...chunks(dividends).map((part) => ({ splits: [], dividends: part }))].map((payload) => [`${HISTORY_SUBJECT_PREFIX}.actions`, encodeHistory<HistoryActionsPayload>(payload)]);
    }
    if (change.kind === 'calendar') {
      const events = change.ids.map((id) => this.store.calendar.get(id)).filter((e) => e !== undefined);
      return chunks(events).map((part) => [`${HISTORY_SUBJECT_PREFIX}.calendar`, encodeHistory<HistoryCalendarPayload>({ events: part })]);
    }
    const items: HistoryFundamentalsPayload['items'] = [];
    for (const symbol of change.symbols) {
      const record = this.store.fundamentals.get(symbol);
      const json = this.store.fundamentals.json(symbol);
      if (record !== undefined && json !== undefined) items.push({ record, json: json.toString('utf8') });
    }
    return chunks(items).map((part) => [`${HISTORY_SUBJECT_PREFIX}.fundamentals`, encodeHistory<HistoryFundamentalsPayload>({ items: part })]);
  }

  /** Every timeframe's completed bars touching [fromMs, toMs): a coarser bar from the start of the one holding fromMs. */
  private barMessages(symId: number, fromMs: number, toMs: number): HistoryMessage[] {
    const entry = this.store.registry.get(symId);
    if (entry === undefined) return [];
    const { id: _id, ...rest } = entry as SymbolEntry;
    const out: HistoryMessage[] = [];
    for (const tf of TIMEFRAMES) {
      const slice = this.store.barsInRange(symId, tf, barStartOf(entry, fromMs, tf), toMs);
      for (let at = 0; at < slice.count; at += BARS_PER_MESSAGE) {
        const n = Math.min(BARS_PER_MESSAGE, slice.count - at);
        const bytes = new Uint8Array(slice.data.buffer, slice.data.byteOffset + at * BYTES_PER_BAR, n * BYTES_PER_BAR);
        out.push([`${HISTORY_SUBJECT_PREFIX}.bars`, encodeHistory<HistoryBarsPayload>({ entry: rest, tf, bars: bytes.slice() })]);
      }
    }
    return out;
  }
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < rows.length; at += ROWS_PER_MESSAGE) out.push(rows.slice(at, at + ROWS_PER_MESSAGE));
  return out;
}

function describe(c: HistoryChange): string {
  if (c.kind === 'bars') return `bars of ${c.ranges.length} series`;
  if (c.kind === 'calendar') return `${c.ids.length} calendar events`;
  return `${c.kind} of ${c.symbols.length} symbols`;
}
