// The feeds a server runs, in front of the one ingest path: learns each feed's instruments into
// the registry, gives each feed (and each named part of one) its sink, runs backfills, starts and
// stops them, and collects their health. A feed that throws or rejects is marked failed and the
// others go on: no feed can take the server down.
import type { BackfillRequest, Feed, FeedHealth, FeedInstrument, FeedSink } from '../domain/feed.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import { expectedSymbolFormat, symbolPattern } from '../domain/symbols.ts';
import { getMarket } from '../market/index.ts';
import type { Store } from '../store/index.ts';
import type { Pipeline } from './pipeline.ts';

/** A feed's sink: instrument indexes to symbol ids, its source index, and its named parts' sinks. */
class SourceSink implements FeedSink {
  private readonly parts = new Map<string, SourceSink>();

  constructor(
    private readonly pipeline: Pipeline,
    private readonly sourceIndex: number,
    /** By instrument index; -1 where the instrument is not served. */
    private readonly symIds: Int32Array,
  ) {}

  quote(instrument: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    const symId = this.symIds[instrument];
    if (symId === undefined || symId < 0) return;
    this.pipeline.quote(symId, this.sourceIndex, tsMs, bid, ask, bidSize, askSize);
  }

  trade(instrument: number, tsMs: number, price: number, size: number | null): void {
    const symId = this.symIds[instrument];
    if (symId === undefined || symId < 0) return;
    this.pipeline.trade(symId, this.sourceIndex, tsMs, price, size);
  }

  stale(instrument: number): void {
    const symId = this.symIds[instrument];
    if (symId === undefined || symId < 0) return;
    this.pipeline.dropSource(symId, this.sourceIndex);
  }

  source(name: string): FeedSink {
    let part = this.parts.get(name);
    if (!part) {
      part = new SourceSink(this.pipeline, this.pipeline.sourceIndex(name), this.symIds);
      this.parts.set(name, part);
    }
    return part;
  }
}

/** Something in front of every feed's sink (the recorder): wraps the sink each feed is started with. */
export interface SinkTap {
  tap(feedId: string, instruments: readonly FeedInstrument[], sink: FeedSink): FeedSink;
}

interface Running {
  feed: Feed;
  instruments: readonly FeedInstrument[];
  symIds: Int32Array;
  /** Set when start, stop, backfill or health threw: the feed is reported failed with it. */
  failure: string | null;
}

export class FeedSet {
  private readonly feeds: Running[] = [];

  constructor(
    private readonly store: Store,
    private readonly log: (line: string) => void,
  ) {}

  get ids(): string[] {
    return this.feeds.map((r) => r.feed.id);
  }

  get size(): number {
    return this.feeds.length;
  }

  /**
   * Registers a feed: each instrument it declares is served from now on. One the registry lacks is
   * learned when the feed gives its name and decimals; without them it is skipped (logged).
   */
  add(feed: Feed): void {
    if (this.feeds.some((r) => r.feed.id === feed.id)) throw new Error(`feed ${feed.id} is registered twice`);
    let failure: string | null = null;
    let instruments: readonly FeedInstrument[] = [];
    try {
      instruments = feed.instruments();
    } catch (err) {
      failure = `its instruments could not be read: ${messageOf(err)}`;
    }
    const symIds = new Int32Array(instruments.length).fill(-1);
    instruments.forEach((inst, i) => {
      const entry = this.entryFor(feed.id, inst);
      if (entry !== null) symIds[i] = entry.id;
    });
    this.feeds.push({ feed, instruments, symIds, failure });
  }

  /** Runs every feed's history backfill, one after the other; a failing backfill fails its feed only. */
  async backfill(request: BackfillRequest): Promise<void> {
    for (const r of this.feeds) {
      if (r.failure !== null || !r.feed.backfill) continue;
      try {
        await r.feed.backfill(request);
      } catch (err) {
        this.fail(r, `history backfill failed: ${messageOf(err)}`);
      }
    }
  }

  /**
   * Starts every feed's older history in the background (after `start`, once the server serves):
   * live data goes on meanwhile, and a build that fails is logged, its feed stays live.
   */
  backfillInBackground(): void {
    for (const r of this.feeds) {
      if (r.failure !== null || !r.feed.backfillOlder) continue;
      const feed = r.feed;
      void Promise.resolve()
        .then(() => feed.backfillOlder!())
        .catch((err: unknown) => this.log(`error: feed ${feed.id}: background history build failed: ${messageOf(err)}; live data goes on, the rest of the history is made at the next start`));
    }
  }

  /**
   * Starts every feed into the ingest path (made after the backfills: it resumes the bars they
   * leave in progress). A start that throws or rejects marks that feed failed; the others go on.
   * With a `tap` (the recorder), each feed is handed its sink through it, in this same order.
   */
  start(pipeline: Pipeline, tap?: SinkTap): void {
    for (const r of this.feeds) {
      for (const symId of r.symIds) {
        const entry = symId >= 0 ? this.store.registry.get(symId) : undefined;
        if (entry) pipeline.addLine(entry);
      }
    }
    for (const r of this.feeds) {
      // The feed's own id is its source (a feed with parts names the others through `sink.source`).
      const own = new SourceSink(pipeline, pipeline.sourceIndex(r.feed.id), r.symIds);
      const sink = tap ? tap.tap(r.feed.id, r.instruments, own) : own;
      if (r.failure !== null) continue;
      try {
        const started = r.feed.start(sink);
        if (started instanceof Promise) started.catch((err: unknown) => this.fail(r, `start failed: ${messageOf(err)}`));
      } catch (err) {
        this.fail(r, `start failed: ${messageOf(err)}`);
      }
    }
  }

  async stop(): Promise<void> {
    for (const r of this.feeds) {
      try {
        await r.feed.stop();
      } catch (err) {
        this.log(`error: feed ${r.feed.id}: stop failed: ${messageOf(err)}`);
      }
    }
  }

  /** The symbol ids each feed supplies (those the registry serves), by feed id. */
  supplied(): Map<string, number[]> {
    return new Map(this.feeds.map((r) => [r.feed.id, [...r.symIds].filter((id) => id >= 0)]));
  }

  /** Every feed's own report; a failed feed (or one whose report throws) is reported failed with the reason. */
  health(): FeedHealth[] {
    return this.feeds.map((r) => {
      let report: FeedHealth | null = null;
      try {
        if (r.failure === null) report = r.feed.health();
      } catch (err) {
        r.failure = `its health report failed: ${messageOf(err)}`;
      }
      if (report !== null) return report;
      return { id: r.feed.id, state: 'failed', connectedSinceMs: null, lastMessageMs: null, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: r.symIds.length, reason: r.failure };
    });
  }

  private fail(r: Running, reason: string): void {
    r.failure = reason;
    this.log(`error: feed ${r.feed.id} failed: ${reason}; the server goes on with what it has`);
    try {
      const stopped = r.feed.stop();
      if (stopped instanceof Promise) stopped.catch(() => {});
    } catch {
      // A feed that failed to start may fail to stop too; it is already out.
    }
  }

  private entryFor(feedId: string, inst: FeedInstrument): SymbolEntry | null {
    const known = this.store.registry.resolve(inst.assetClass, inst.symbol);
    if (known) return known;
    if (inst.name === undefined || inst.decimals === undefined || !Number.isInteger(inst.decimals) || inst.decimals < 0 || inst.decimals > 12) {
      this.log(`feed ${feedId}: ${inst.assetClass} ${inst.symbol} is not in the catalog and the feed gives no name and decimals for it; not served`);
      return null;
    }
    if (!new RegExp(`^(?:${symbolPattern(inst.assetClass)})$`).test(inst.symbol)) {
      this.log(`feed ${feedId}: ${inst.assetClass} ${JSON.stringify(inst.symbol)} is not a valid symbol (${expectedSymbolFormat(inst.assetClass)}); not served`);
      return null;
    }
    // A stock's market is its symbol's prefix (`US:ZZTX` trades on US sessions), as for the
    // catalog's stocks: its bars follow that market's sessions, and keys limited to markets see it
    // as theirs. A prefix without a calendar here would leave its bars on UTC days: not served.
    let market: string | null = null;
    let baseSymbol: string | null = null;
    if (inst.assetClass === 'stocks') {
      const prefix = inst.symbol.slice(0, inst.symbol.indexOf(':'));
      if (getMarket(prefix) === undefined) {
        this.log(`feed ${feedId}: stocks ${inst.symbol} names the market ${prefix}, which has no calendar on this server (GET /markets lists them); not served`);
        return null;
      }
      market = prefix;
      baseSymbol = inst.symbol.slice(prefix.length + 1);
    }
    this.store.registry.upsert([{ symbol: inst.symbol, assetClass: inst.assetClass, name: inst.name, market, baseSymbol, aliases: [], listed: true, decimals: inst.decimals }]);
    this.log(`feed ${feedId}: learned ${inst.assetClass} ${inst.symbol} (${inst.name})`);
    return this.store.registry.resolve(inst.assetClass, inst.symbol) ?? null;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
