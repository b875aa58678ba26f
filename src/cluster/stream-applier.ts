// How an edge applies one message of the ingest node's stream, with no NATS in sight (tests feed it
// straight from a StreamWriter): ticks through the ingest path's replicated entry points under the
// ingest node's seq (a seq the store already has is a no-op), sweeps at the ingest node's instants
// (so the bar builder seals the same bars), registry entries of symbols the edge lacks. The ingest
// node's sealed bars are compared with the edge's own, and a difference is counted. History the
// ingest node wrote outside the live path (history-publisher.ts) is written as it comes: its rows
// replace the edge's, and the bars in progress are folded again from the minutes.
import type { AssetClass } from '../domain/asset-classes.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import { resumeSeries } from '../ingest/importers/history/replicated-bars.ts';
import { TIMEFRAMES, type Timeframe } from '../domain/timeframes.ts';
import type { FundamentalsRecord } from '../domain/fundamentals.ts';
import { BAR_FIELDS, type Store, type StoredEvent } from '../store/index.ts';
import type { Dividend, Split } from '../domain/corporate-actions.ts';
import { BAR_SUBJECT_PREFIX, HISTORY_SUBJECT_PREFIX, SWEEP_SUBJECT, SYMBOL_SUBJECT_PREFIX, TICK_SUBJECT_PREFIX } from './nats.ts';
import { decodePayload, QUOTE, STATUS, TRADE, type BarPayload, type HistoryBarsPayload, type HistoryBondsPayload, type HistoryCalendarPayload, type HistoryFundamentalsPayload, type HistoryActionsPayload, type SweepPayload, type SymbolPayload, type TickBatchPayload } from './payloads.ts';

/** Bars seen on one side only, waiting for the other, before the oldest are forgotten. */
const MAX_UNMATCHED_BARS = 50_000;

type BarValues = [number, number, number, number, number, number | null];

export class StreamApplier {
  /** The ingest node's service clock minus its wall clock, from its newest sweep (null before one). */
  clockOffsetMs: number | null = null;
  barMismatches = 0;
  /** Ticks whose seq skipped ahead of the symbol's last: ticks never applied here. */
  seqGaps = 0;
  /** Ticks applied, and ticks whose seq the store had already (a message applied again). */
  appliedTicks = 0;
  repeatedTicks = 0;
  /** Messages that could not be applied, whole or in part (unknown symbol, unreadable payload). */
  skippedMessages = 0;
  /** History messages applied. */
  historyMessages = 0;
  private readonly symIds = new Map<string, Map<string, number>>();
  /** Per symbol: bars starting at or before this were not seen whole here (the edge joined, or a gap). */
  private readonly compareAfterMs: number[] = [];
  private readonly unmatched = new Map<string, { isOwn: boolean; bar: BarValues }>();
  private readonly warned = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store,
    private readonly pipeline: Pipeline,
    private readonly log: (line: string) => void,
  ) {
    this.unsubscribe = pipeline.subscribeBars({ onMinuteBar: (entry, minute) => this.matchBar(entry.id, minute, true) });
  }

  /** Applies one message; one that cannot be is skipped, counted and logged (once per cause). */
  apply(subject: string, data: Uint8Array): void {
    try {
      if (subject === SWEEP_SUBJECT) this.applySweep(decodePayload<SweepPayload>(data));
      else if (subject.startsWith(TICK_SUBJECT_PREFIX)) this.applyTicks(decodePayload<TickBatchPayload>(data));
      else if (subject.startsWith(BAR_SUBJECT_PREFIX)) this.applyBar(decodePayload<BarPayload>(data));
      else if (subject.startsWith(SYMBOL_SUBJECT_PREFIX)) this.applySymbol(decodePayload<SymbolPayload>(data));
      else if (subject.startsWith(HISTORY_SUBJECT_PREFIX)) this.applyHistory(subject.slice(HISTORY_SUBJECT_PREFIX.length + 1), data);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.skippedMessages++;
      this.warnOnce(`message:${message}`, `error: edge: a stream message on ${subject} cannot be applied (${message}); skipped`);
    }
  }

  close(): void {
    this.unsubscribe();
  }

  private applySweep(p: SweepPayload): void {
    this.clockOffsetMs = p.t - p.w;
    this.pipeline.sweep(p.t);
  }

  private applyTicks(p: TickBatchPayload): void {
    const t = p.ticks;
    const byClass = this.symbolsOf(p.class);
    for (let i = 0; i < t.length; ) {
      const kind = t[i];
      const symbol = t[i + 1] as string;
      const symId = byClass.get(symbol) ?? this.resolve(p.class, symbol, byClass);
      const seq = t[i + 2] as number;
      const tsMs = t[i + 3] as number;
      if (kind === QUOTE) {
        if (symId >= 0) {
          const last = this.store.latest(symId)?.quoteSeq ?? 0;
          const isNew = this.pipeline.applyQuote(symId, seq, tsMs, t[i + 4] as number, t[i + 5] as number, t[i + 6] as number | null, t[i + 7] as number | null, t[i + 8] as number | null);
          this.counted(isNew, symId, symbol, last, seq, tsMs);
        }
        i += 9;
      } else if (kind === TRADE) {
        if (symId >= 0) {
          const last = this.store.latest(symId)?.tradeSeq ?? 0;
          const isNew = this.pipeline.applyTrade(symId, seq, tsMs, t[i + 4] as number, t[i + 5] as number | null, t[i + 6] as number | null);
          this.counted(isNew, symId, symbol, last, seq, tsMs);
        }
        i += 7;
      } else if (kind === STATUS) {
        if (symId >= 0) this.pipeline.applyStatus(symId, t[i + 2] === 1, t[i + 3] as number, t[i + 4] as number);
        i += 5;
      } else throw new Error(`unknown tick kind ${JSON.stringify(kind)}`);
    }
  }

  private counted(isNew: boolean, symId: number, symbol: string, last: number, seq: number, tsMs: number): void {
    if (!isNew) {
      this.repeatedTicks++;
      return;
    }
    this.appliedTicks++;
    if (seq === last + 1) return;
    // Ticks before this one never came here: bars of its minute are not compared.
    if (tsMs > (this.compareAfterMs[symId] ?? -Infinity)) this.compareAfterMs[symId] = tsMs;
    if (last === 0) return;
    this.seqGaps++;
    this.warnOnce(`gap:${symId}`, `warning: edge: ${symbol} jumped from seq ${last} to ${seq}: this edge never got the ticks between`);
  }

  private applyBar(p: BarPayload): void {
    const byClass = this.symbolsOf(p.class);
    const symId = byClass.get(p.symbol) ?? this.resolve(p.class, p.symbol, byClass);
    if (symId < 0) return;
    const [t, o, h, l, c, v] = p.bar;
    this.matchBar(symId, { t, o, h, l, c, v }, false);
  }

  private applyHistory(kind: string, data: Uint8Array): void {
    if (kind === 'bars') this.applyHistoryBars(decodePayload<HistoryBarsPayload>(data));
    else if (kind === 'bonds') this.store.bonds.put(decodePayload<HistoryBondsPayload>(data).observations.map(([symbol, date, yieldPct, source]) => ({ symbol, date, yieldPct, source })));
    else if (kind === 'calendar') this.store.calendar.upsert(decodePayload<HistoryCalendarPayload>(data).events as StoredEvent[]);
    else if (kind === 'actions') {
      const actions = decodePayload<HistoryActionsPayload>(data);
      this.store.corporateActions.put(actions.splits as Split[], actions.dividends as Dividend[]);
    }
    else if (kind === 'fundamentals') {
      const items = decodePayload<HistoryFundamentalsPayload>(data).items.map((i) => ({ symbol: (i.record as FundamentalsRecord).symbol, record: i.record as FundamentalsRecord, json: i.json }));
      this.store.fundamentals.update(items, (_, item) => ({ record: item.record, json: item.json }));
    }
    else throw new Error(`unknown history kind ${JSON.stringify(kind)}`);
    this.historyMessages++;
  }

  /** The ingest node's completed bars of one timeframe: they replace the edge's, short of its bar in progress. */
  private applyHistoryBars(p: HistoryBarsPayload): void {
    if (!(TIMEFRAMES as readonly string[]).includes(p.tf)) throw new Error(`unknown timeframe ${JSON.stringify(p.tf)}`);
    const tf = p.tf as Timeframe;
    this.applySymbol({ v: p.v, entry: p.entry });
    const entry = this.store.registry.resolve(p.entry.assetClass, p.entry.symbol);
    if (entry === undefined) return;
    // A copy of its own, aligned for reading as doubles (a decoded bin is a view into the message).
    const records = new Float64Array(new Uint8Array(p.bars).buffer);
    let n = records.length / BAR_FIELDS;
    const open = this.store.openBar(entry.id, tf);
    while (n > 0 && open !== undefined && records[(n - 1) * BAR_FIELDS]! >= open.t) n--;
    if (n > 0) this.store.mergeBars(entry.id, tf, records, n, 'replace');
    resumeSeries(this.store, entry, this.pipeline.hasLine(entry.id) ? this.pipeline.bars : null, tf === '1m');
  }

  /** A registry entry of the ingest node: learned when this edge lacks the symbol (a venue's instrument). */
  private applySymbol(p: SymbolPayload): void {
    const e = p.entry;
    if (this.store.registry.resolve(e.assetClass, e.symbol) !== undefined) return;
    this.store.registry.upsert([e]);
    const entry = this.store.registry.resolve(e.assetClass, e.symbol);
    if (entry === undefined) return;
    this.pipeline.addLine(entry);
    this.symbolsOf(e.assetClass).set(e.symbol, entry.id);
    this.log(`edge: learned ${e.assetClass} ${e.symbol} (${e.name}) from the ingest node`);
  }

  private symbolsOf(assetClass: AssetClass): Map<string, number> {
    let m = this.symIds.get(assetClass);
    if (m === undefined) {
      m = new Map();
      this.symIds.set(assetClass, m);
    }
    return m;
  }

  /** The symbol's id, with a line in the ingest path; -1 (remembered) for a symbol this edge does not know. */
  private resolve(assetClass: AssetClass, symbol: string, byClass: Map<string, number>): number {
    const entry: SymbolEntry | undefined = this.store.registry.resolve(assetClass, symbol);
    if (entry === undefined) {
      this.skippedMessages++;
      this.warnOnce(`unknown:${assetClass}:${symbol}`, `error: edge: ${assetClass} ${symbol} is not in this edge's registry and its entry was not in the stream; its ticks are skipped`);
      return -1;
    }
    if (!this.pipeline.hasLine(entry.id)) this.pipeline.addLine(entry);
    byClass.set(symbol, entry.id);
    return entry.id;
  }

  /** Compares the ingest node's sealed bar with the edge's own for the same minute, whichever comes first. */
  private matchBar(symId: number, bar: Readonly<Bar>, isOwn: boolean): void {
    if (bar.t <= (this.compareAfterMs[symId] ?? -Infinity)) return;
    const key = `${symId}:${bar.t}`;
    const values: BarValues = [bar.t, bar.o, bar.h, bar.l, bar.c, bar.v];
    const other = this.unmatched.get(key);
    if (other === undefined || other.isOwn === isOwn) {
      this.unmatched.set(key, { isOwn, bar: values });
      if (this.unmatched.size > MAX_UNMATCHED_BARS) this.unmatched.delete(this.unmatched.keys().next().value!);
      return;
    }
    this.unmatched.delete(key);
    if (values.every((x, i) => x === other.bar[i])) return;
    this.barMismatches++;
    const [own, theirs] = isOwn ? [values, other.bar] : [other.bar, values];
    const symbol = this.store.registry.get(symId)?.symbol ?? String(symId);
    this.warnOnce('bar-mismatch', `error: edge: the ${symbol} minute bar at ${new Date(bar.t).toISOString()} differs from the ingest node's (edge ${JSON.stringify(own)}, ingest ${JSON.stringify(theirs)}); further differences are counted in /health`);
  }

  private warnOnce(key: string, line: string): void {
    if (this.warned.has(key)) return;
    if (this.warned.size < 1000) this.warned.add(key);
    this.log(line);
  }
}
