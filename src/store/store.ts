// The store's public face: verbs over the LMDB environment (ticks ring, bars, latest state,
// registry, metadata). Nothing outside src/store sees a database handle or a cursor.
import type { Bar } from '../domain/bar.ts';
import type { Timeframe } from '../domain/timeframes.ts';
import { AccountStore } from './accounts.ts';
import { BondStore } from './bonds.ts';
import { EconomicCalendarStore } from './economic-calendar.ts';
import { CorporateActionStore } from './corporate-actions.ts';
import { FundamentalsStore } from './fundamentals.ts';
import { BarStore, type BarChunkSpan, type BarSlice, type ConflictMode, type MergeCounts } from './bars.ts';
import { ImportJournal } from './imports.ts';
import { HistoryChanges } from './history-changes.ts';
import { openDbs, SCHEMA_VERSION, type StoreDbs } from './env.ts';
import { LatestStore, type LatestState } from './latest.ts';
import { LiveStore, savedOpenTicks } from './live.ts';
import { LiveIntervalStore } from './live-intervals.ts';
import { Registry } from './registry.ts';
import { TickRing, type TickKind, type TickWindow } from './ticks.ts';
import { ReplicaPositionStore, type ReplicaPosition } from './replica.ts';
import { WriteQueue, type FlushReport, type WriteState } from './write-queue.ts';
import { guardCommitFailures } from './commit-failures.ts';
import { DiskWatch, formatBytes, type DiskStatus } from './disk-watch.ts';
import { RetentionRunner } from './retention.ts';
import type { Retention } from '../domain/retention.ts';
import type { Interval } from '../domain/coverage.ts';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { STORE_FILE } from './store-file.ts';

export interface StoreOptions {
  dataDir: string;
  /** Ticks kept per symbol and kind. */
  ringCapacity?: number;
  /** How long writes are coalesced before one durable transaction. */
  flushIntervalMs?: number;
  /** Free disk space under which `diskStatus` reports low (0, the default: never). */
  minFreeBytes?: number;
  /** The service clock, for when writes started failing and for retention cutoffs. */
  nowMs?: () => number;
  /** Where failing and resumed writes, low disk space and retention passes are reported. */
  log?: (line: string) => void;
  /** While commits fail, how often to look whether to retry (default 1 s). */
  retryCheckMs?: number;
}

/** How writes are going: the commit failure while there is one, and what waits or was lost meanwhile. */
export interface WriteStatus extends WriteState {
  /** Raw ticks held in memory for a commit. */
  unwrittenTicks: number;
  /** Raw ticks dropped unwritten (oldest first) while commits failed; completed bars are never dropped. */
  droppedTicks: number;
}

/** What the ring keeps of one symbol's ticks of one kind. */
export interface TickRetention {
  /** Ticks kept per symbol and kind (--ring-capacity). */
  capacity: number;
  /** The oldest tick still held, or null when none is. */
  oldest: { seq: number; tsMs: number } | null;
  /** The newest tick's seq (0 before the first). */
  newestSeq: number;
}

/** How long a close waits for lmdb-js after writes failed. */
const CLOSE_WAIT_MS = 2000;

export class Store {
  readonly registry: Registry;
  readonly accounts: AccountStore;
  readonly fundamentals: FundamentalsStore;
  readonly bonds: BondStore;
  readonly calendar: EconomicCalendarStore;
  /** Splits and dividends of stocks (store/corporate-actions.ts). */
  readonly corporateActions: CorporateActionStore;
  /** History imports staged and applied (store/imports.ts). */
  readonly imports: ImportJournal;
  /** History written outside the live path, for an ingest node to publish (store/history-changes.ts). */
  readonly historyChanges: HistoryChanges;
  readonly dataDir: string;
  private readonly dbs: StoreDbs;
  private readonly queue: WriteQueue;
  private readonly bars: BarStore;
  private readonly ticks: TickRing;
  private readonly latestStore: LatestStore;
  private readonly liveStretches: LiveIntervalStore;
  private readonly replica: ReplicaPositionStore;
  private readonly disk: DiskWatch;
  private readonly nowMs: () => number;
  private readonly log: (line: string) => void;
  private retention: RetentionRunner | null = null;
  private closed = false;

  private constructor(opts: StoreOptions) {
    guardCommitFailures();
    this.dataDir = opts.dataDir;
    this.dbs = openDbs(opts.dataDir);
    this.log = opts.log ?? (() => {});
    this.nowMs = opts.nowMs ?? (() => NaN);
    this.disk = new DiskWatch(opts.dataDir, opts.minFreeBytes ?? 0, this.log);
    const version = this.dbs.meta.get('schemaVersion') as number | undefined;
    if (version !== undefined && version > SCHEMA_VERSION) {
      throw new Error(`data dir ${opts.dataDir} was written by a newer mds (schema ${version}; this build reads up to ${SCHEMA_VERSION})`);
    }
    if (version === undefined) this.dbs.meta.putSync('schemaVersion', SCHEMA_VERSION);
    this.queue = new WriteQueue(this.dbs.root, {
      flushIntervalMs: opts.flushIntervalMs ?? 20,
      retryCheckMs: opts.retryCheckMs,
      freeBytes: () => this.disk.check().freeBytes,
      nowMs: this.nowMs,
      onChange: (state) => this.logWriteState(state),
    });
    this.registry = new Registry(this.dbs);
    const live = new LiveStore(this.dbs, this.queue, version !== undefined && version < SCHEMA_VERSION);
    this.bars = new BarStore(this.dbs, this.queue, live);
    this.ticks = new TickRing(this.dbs, this.queue, opts.ringCapacity ?? 8192);
    this.latestStore = new LatestStore(this.dbs, live);
    for (const symId of this.latestStore.symbols()) {
      const state = this.latestStore.get(symId)!;
      const rec = live.saved.get(symId);
      this.ticks.restore(symId, 0, state.quoteSeq, rec && savedOpenTicks(rec, 0));
      this.ticks.restore(symId, 1, state.tradeSeq, rec && savedOpenTicks(rec, 1));
    }
    live.saved.clear();
    live.attach({
      latest: (symId) => this.latestStore.get(symId),
      openBar: (symId, tfIndex) => this.bars.openBarAt(symId, tfIndex),
      openTicks: (symId, kind) => this.ticks.openTicks(symId, kind),
      symbols: () => new Set([...this.latestStore.symbols(), ...this.bars.symbolsWithOpenBars()]),
    });
    this.accounts = new AccountStore(this.dbs, this.queue);
    this.fundamentals = new FundamentalsStore(this.dbs);
    this.bonds = new BondStore(this.dbs);
    this.calendar = new EconomicCalendarStore(this.dbs);
    this.corporateActions = new CorporateActionStore(this.dbs);
    this.imports = new ImportJournal(this.dbs, opts.dataDir);
    this.historyChanges = new HistoryChanges(this.dbs);
    this.liveStretches = new LiveIntervalStore(this.dbs, this.queue);
    this.replica = new ReplicaPositionStore(this.dbs, this.queue);
  }

  static open(opts: StoreOptions): Store {
    return new Store(opts);
  }

  get ringCapacity(): number {
    return this.ticks.capacity;
  }

  // --- latest state and ticks -------------------------------------------------------------

  latest(symId: number): LatestState | undefined {
    return this.latestStore.get(symId);
  }

  /** The ingest path's word on whether a live source stands behind the line (memory only); false when the symbol has no state. */
  setFreshness(symId: number, isStale: boolean, sinceMs: number, liveSources: number): boolean {
    return this.latestStore.setFreshness(symId, isStale, sinceMs, liveSources);
  }

  /** Records a consolidated quote: latest state and the ticks ring. Returns its sequence number. */
  appendQuote(symId: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): number {
    const state = this.latestStore.edit(symId);
    const seq = state.quoteSeq + 1;
    this.writeQuote(state, symId, seq, tsMs, bid, ask, bidSize, askSize);
    return seq;
  }

  /**
   * Records a quote another node numbered (an edge applying the ingest node's stream) under its
   * `seq`; false, and nothing changes, when `seq` is not above the symbol's last quote seq: a
   * message applied twice is a no-op. A seq further ahead leaves a gap the ring reads around.
   */
  putQuoteAt(symId: number, seq: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): boolean {
    if (seq <= (this.latestStore.get(symId)?.quoteSeq ?? 0)) return false;
    this.writeQuote(this.latestStore.edit(symId), symId, seq, tsMs, bid, ask, bidSize, askSize);
    return true;
  }

  /** Records a trade of the consolidated tape. Returns its sequence number. */
  appendTrade(symId: number, tsMs: number, price: number, size: number | null): number {
    const state = this.latestStore.edit(symId);
    const seq = state.tradeSeq + 1;
    this.writeTrade(state, symId, seq, tsMs, price, size);
    return seq;
  }

  /** Like `putQuoteAt`, for a trade. */
  putTradeAt(symId: number, seq: number, tsMs: number, price: number, size: number | null): boolean {
    if (seq <= (this.latestStore.get(symId)?.tradeSeq ?? 0)) return false;
    this.writeTrade(this.latestStore.edit(symId), symId, seq, tsMs, price, size);
    return true;
  }

  private writeQuote(state: LatestState, symId: number, seq: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    state.quoteSeq = seq;
    // In place: no object per tick (readers compare fields, never identity).
    const q = state.quote;
    if (q === null) state.quote = { bid, ask, bidSize, askSize, tsMs };
    else {
      q.bid = bid;
      q.ask = ask;
      q.bidSize = bidSize;
      q.askSize = askSize;
      q.tsMs = tsMs;
    }
    this.ticks.appendQuote(symId, seq, tsMs, bid, ask, bidSize ?? NaN, askSize ?? NaN);
  }

  private writeTrade(state: LatestState, symId: number, seq: number, tsMs: number, price: number, size: number | null): void {
    state.tradeSeq = seq;
    const t = state.trade;
    if (t === null) state.trade = { price, size, tsMs };
    else {
      t.price = price;
      t.size = size;
      t.tsMs = tsMs;
    }
    this.ticks.appendTrade(symId, seq, tsMs, price, size ?? NaN);
  }

  /** Ticks after `afterSeq` still held by the ring, oldest first: the newest `max` of them. */
  ticksSince(symId: number, kind: TickKind, afterSeq: number, max: number): number[][] {
    const state = this.latestStore.get(symId);
    const last = state ? (kind === 'quote' ? state.quoteSeq : state.tradeSeq) : 0;
    return this.ticks.readSince(symId, kind, afterSeq, last, max);
  }

  /** What the ring keeps of a symbol's ticks of one kind: its capacity, the oldest tick still held and the newest seq. */
  tickRetention(symId: number, kind: TickKind): TickRetention {
    const last = this.lastTickSeq(symId, kind);
    return { capacity: this.ticks.capacity, oldest: this.ticks.oldest(symId, kind, last), newestSeq: last };
  }

  /** A page of the retained ticks inside a time and seq window (tick history reads; see TickRing.readWindow). */
  ticksInWindow(symId: number, kind: TickKind, window: TickWindow): { ticks: number[][]; more: boolean } {
    return this.ticks.readWindow(symId, kind, this.lastTickSeq(symId, kind), window);
  }

  private lastTickSeq(symId: number, kind: TickKind): number {
    const state = this.latestStore.get(symId);
    return state ? (kind === 'quote' ? state.quoteSeq : state.tradeSeq) : 0;
  }

  // --- bars ---------------------------------------------------------------------------------

  appendBar(symId: number, tf: Timeframe, bar: Bar): boolean {
    return this.bars.appendBar(symId, tf, bar);
  }

  /** Merges packed completed bars (ascending t) into the series wherever they fall (history imports). */
  mergeBars(symId: number, tf: Timeframe, records: Float64Array, n: number, mode: ConflictMode): MergeCounts {
    return this.bars.mergeHistory(symId, tf, records, n, mode);
  }

  /** Changes when a merge rewrote bars already stored in the series: caches of encoded bars compare it. */
  barsRevision(symId: number, tf: Timeframe): number {
    return this.bars.revision(symId, tf);
  }

  /** Appends ascending completed bars; returns how many were new. */
  appendHistory(symId: number, tf: Timeframe, bars: readonly Bar[]): number {
    return this.bars.appendHistory(symId, tf, bars);
  }

  setOpenBar(symId: number, tf: Timeframe, bar: Bar | null): void {
    this.bars.setOpenBar(symId, tf, bar);
  }

  openBar(symId: number, tf: Timeframe): Bar | undefined {
    return this.bars.getOpenBar(symId, tf);
  }

  barsInRange(symId: number, tf: Timeframe, fromMs: number, toMs: number): BarSlice {
    return this.bars.range(symId, tf, fromMs, toMs);
  }

  /** The chunks a window of completed bars touches, with each chunk's count so far (no bar copied). */
  barChunkSpans(symId: number, tf: Timeframe, fromMs: number, toMs: number): BarChunkSpan[] {
    return this.bars.chunkSpans(symId, tf, fromMs, toMs);
  }

  /** A copy of bars [fromIndex, toIndex) of the chunk starting at `chunkStart`, as packed records. */
  barChunkRecords(symId: number, tf: Timeframe, chunkStart: number, fromIndex: number, toIndex: number): Float64Array {
    return this.bars.chunkRecords(symId, tf, chunkStart, fromIndex, toIndex);
  }

  lastBarBefore(symId: number, tf: Timeframe, beforeMs: number): Bar | null {
    return this.bars.lastBefore(symId, tf, beforeMs);
  }

  lastCompletedBarT(symId: number, tf: Timeframe): number | null {
    return this.bars.lastCompletedT(symId, tf);
  }

  // --- when feeds were live (the coverage report) ----------------------------------------------

  /** Feed `feedId`, supplying `symIds`, is live at `nowMs`; its stretch is written every few seconds. */
  recordLive(feedId: string, nowMs: number, symIds: readonly number[]): void {
    this.liveStretches.recordLive(feedId, nowMs, symIds);
  }

  /** Feed `feedId` stopped being live; its stretch ends where it was last seen live. */
  recordDown(feedId: string): void {
    this.liveStretches.recordDown(feedId);
  }

  /** When a feed supplying `symId` was live, overlapping [fromMs, toMs): merged, in time order. */
  liveIntervals(symId: number, fromMs: number, toMs: number): Interval[] {
    return this.liveStretches.liveIntervals(symId, fromMs, toMs);
  }

  // --- replication (edge nodes) ---------------------------------------------------------------

  /** An edge's position in the ingest node's stream as stored, or null when none was ever set. */
  replicaPosition(): ReplicaPosition | null {
    return this.replica.get();
  }

  /**
   * Sets the position; the next flush writes it in the same transaction as the data applied so
   * far, so the two never disagree on disk. Await `flush()` for it to be durable now.
   */
  setReplicaPosition(position: ReplicaPosition): void {
    this.replica.set(position);
  }

  // --- metadata -----------------------------------------------------------------------------

  getMeta<T>(key: string): T | undefined {
    return this.dbs.meta.get(key) as T | undefined;
  }

  /** Writes a metadata record durably before returning. */
  async putMeta(key: string, value: unknown): Promise<void> {
    await this.dbs.meta.put(key, value);
  }

  /** Removes a metadata record durably before returning (no-op when absent). */
  async deleteMeta(key: string): Promise<void> {
    await this.dbs.meta.remove(key);
  }

  // --- disk: write failures, free space, retention -------------------------------------------

  writeStatus(): WriteStatus {
    return { ...this.queue.state, unwrittenTicks: this.ticks.unwrittenTicks, droppedTicks: this.ticks.droppedTicks };
  }

  /** Calls `listener` after every committed flush (metrics); one listener, the last one set. */
  onFlush(listener: (report: FlushReport) => void): void {
    this.queue.onFlushed = listener;
  }

  /** Size of the store file on disk, read now (0 when it cannot be read). */
  fileBytes(): number {
    try {
      return statSync(join(this.dataDir, STORE_FILE)).size;
    } catch {
      return 0;
    }
  }

  /** Free space on the data dir's file system against the threshold, read now. */
  diskStatus(): DiskStatus {
    return this.disk.check();
  }

  /** Checks free space every `everyMs` in the background, logging when it crosses the threshold. */
  watchDisk(everyMs: number): void {
    this.disk.start(everyMs);
  }

  /** Removes bars past `retention` in the background: a pass now, then every `everyMs`. */
  startRetention(retention: Retention, everyMs: number): void {
    this.retention ??= new RetentionRunner(this.bars, retention, () => this.registry.ids(), this.nowMs, () => !this.queue.isFailing, this.log);
    this.retention.start(everyMs);
  }

  private logWriteState(state: WriteState): void {
    const { droppedTicks } = this.writeStatus();
    if (state.failure !== null) {
      this.log(`error: writes to the data dir fail (${state.failure}, ${formatBytes(this.disk.check().freeBytes)} free): serving reads from what is stored; raw ticks wait in memory (bounded, oldest dropped first); retrying by itself once there is room`);
    } else {
      this.log(`writes to the data dir work again; ${droppedTicks} raw ticks were dropped unwritten meanwhile`);
    }
  }

  // --- lifecycle ----------------------------------------------------------------------------

  /** Writes everything pending; resolves once it is durable. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Writes everything pending and closes; resolves false when writes failed and what was pending is lost. */
  async close(): Promise<boolean> {
    if (this.closed) return true;
    this.closed = true;
    this.disk.stop();
    await this.retention?.stop();
    let isComplete = true;
    try {
      await this.queue.flush();
    } catch {
      isComplete = false;
    }
    this.queue.stop();
    const closing = this.dbs.root.close();
    if (isComplete) await closing;
    else {
      // After a failed commit lmdb-js waits for a flush that never comes: do not hang the stop on it.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([closing.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
    }
    return isComplete;
  }
}
