// `--feed replay:PATH`: a recording played back as a feed like any other. Its instruments are the
// recorded feeds' instruments; its parts are the recorded sources (`sim-3`, `coinbase`), named in
// the order they had, so consolidation sees what it saw. It drives the replay clock and runs the
// recorded sealing sweeps: the same records give the same bars, at any speed.
import type { Clock } from '../../clock.ts';
import type { Feed, FeedHealth, FeedInstrument, FeedSink, FeedState } from '../../domain/feed.ts';
import type { NoteSink } from './recording-file.ts';
import { KIND_QUOTE, KIND_STALE, KIND_SWEEP, KIND_TRADE } from './recording-format.ts';
import { recordBlocks, type RecordingSummary, type SegmentTables } from './recording-reader.ts';
import type { ReplayClock } from './replay-clock.ts';

export const REPLAY_FEED_ID = 'replay';
/** Records handed on between two looks at the event loop (HTTP, store commits, timers go on). */
const CHUNK = 2048;
const MINUTE_MS = 60_000;

/** The ingest path's bar sealing, which a replay runs from the recorded sweeps until its end. */
export interface SweepTarget {
  /** Seals the bars due at `nowMs`, as the timed sweep of the recording did. */
  sweep(nowMs: number): void;
  /** Starts the ingest path's own timed sweeps (after the end of the replay). */
  start(): void;
}

export interface ReplayFeedOptions {
  summary: RecordingSummary;
  /** N× real time, or 'max': as fast as the ingest path takes them. */
  speed: number | 'max';
  /** Play again from the start at the end, every time shifted by the recording's length in whole minutes. */
  loop: boolean;
  clock: ReplayClock;
  /** Real time, for pacing and the message rate. */
  real: Clock;
  log: (line: string) => void;
}

interface Mapping {
  generation: number;
  /** By the segment's source index. */
  sinks: (FeedSink | null)[];
  /** By the segment's source index: its feed's instrument index to this feed's. */
  instruments: (Int32Array | null)[];
}

export class ReplayFeed implements Feed {
  readonly id = REPLAY_FEED_ID;
  private readonly list: FeedInstrument[] = [];
  private readonly indexByKey = new Map<string, number>();
  private readonly parts = new Map<string, FeedSink>();
  private sink: FeedSink | null = null;
  private target: SweepTarget | null = null;
  private isBehind: (() => boolean) | null = null;
  private mapping: Mapping | null = null;
  private state: FeedState = 'connecting';
  private reason: string | null = null;
  private isStopped = false;
  private hasFinished = false;
  private startedMs: number | null = null;
  private ticks = 0;
  private delivered = 0;
  private skipped = 0;
  private lastMessageMs: number | null = null;
  private rate = { atMs: 0, ticks: 0, perSecond: 0 };
  private wake: (() => void) | null = null;
  private readonly notes = new Set<string>();
  private resolveDone: () => void = () => {};
  /** Settles when the replay has reached its end or was stopped. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly opts: ReplayFeedOptions) {
    for (const feed of opts.summary.feeds) {
      for (const inst of feed.instruments) {
        const key = `${inst.assetClass}:${inst.symbol}`;
        if (this.indexByKey.has(key)) continue;
        this.indexByKey.set(key, this.list.length);
        this.list.push(inst);
      }
    }
  }

  /**
   * The ingest path whose sweeps the replay runs, and whose own sweeps it starts at the end;
   * `isBehind` tells a replay at max speed to wait for the store.
   */
  drive(target: SweepTarget, isBehind?: () => boolean): void {
    this.target = target;
    this.isBehind = isBehind ?? null;
  }

  /** The feed activity /health judges: the ingest path's while replaying; after the end a replay is done, not stale. */
  activity(pipeline: { lastTickMs(): number | null }): { lastTickMs(): number | null } {
    return { lastTickMs: () => (this.hasFinished ? this.opts.clock.nowMs() : pipeline.lastTickMs()) };
  }

  /** True once the recording has been played to its end. */
  get isFinished(): boolean {
    return this.hasFinished;
  }

  instruments(): readonly FeedInstrument[] {
    return this.list;
  }

  start(sink: FeedSink): void {
    this.sink = sink;
    // Every recorded source is named now, in recorded order: consolidation numbers them so.
    for (const name of this.opts.summary.sources) this.partFor(name);
    this.state = 'live';
    this.startedMs = this.opts.clock.nowMs();
    this.rate = { atMs: this.opts.real.nowMs(), ticks: 0, perSecond: 0 };
    void this.run().catch((err: unknown) => {
      this.state = 'failed';
      this.reason = `the replay failed: ${err instanceof Error ? err.message : String(err)}`;
      this.opts.log(`feed replay: ${this.reason}`);
      this.resolveDone();
    });
  }

  stop(): void {
    this.isStopped = true;
    if (this.state !== 'failed') this.state = 'stopped';
    this.wake?.();
  }

  health(): FeedHealth {
    const realMs = this.opts.real.nowMs();
    if (realMs - this.rate.atMs >= 1000) this.rate = { atMs: realMs, ticks: this.ticks, perSecond: Math.round(((this.ticks - this.rate.ticks) * 1000) / (realMs - this.rate.atMs)) };
    return {
      id: this.id,
      state: this.state,
      connectedSinceMs: this.state === 'live' ? this.startedMs : null,
      lastMessageMs: this.lastMessageMs,
      messagesPerSecond: this.state === 'live' ? this.rate.perSecond : 0,
      reconnects: 0,
      parseErrors: this.skipped,
      instruments: this.list.length,
      reason: this.reason,
      ticks: this.ticks,
      conflated: 0,
      dropped: 0,
    };
  }

  private async run(): Promise<void> {
    const { summary, speed, clock, real } = this.opts;
    const firstAtMs = summary.firstAtMs ?? clock.nowMs();
    const loopMs = Math.max(1, Math.ceil(((summary.lastAtMs ?? firstAtMs) - firstAtMs + 1) / MINUTE_MS)) * MINUTE_MS;
    const realStartMs = real.nowMs();
    const note: NoteSink = (text) => {
      if (this.notes.has(text)) return;
      this.notes.add(text);
      this.opts.log(`feed replay: ${text}`);
    };
    let sinceLook = 0;
    for (let pass = 0; pass === 0 || this.opts.loop; pass++) {
      const shiftMs = pass * loopMs;
      for (const block of recordBlocks(summary.files, note)) {
        const map = this.mappingFor(block.tables);
        const r = block.records;
        let unresolved = 0;
        for (let i = 0; i < r.count; i++) {
          const atMs = r.atMs[i]! + shiftMs;
          if (speed !== 'max') {
            const waitMs = realStartMs + (atMs - firstAtMs) / speed - real.nowMs();
            if (waitMs >= 1) {
              clock.flow(atMs, speed);
              await this.pause(waitMs);
              sinceLook = 0;
            }
          }
          if (++sinceLook >= CHUNK) {
            await this.look();
            sinceLook = 0;
          }
          if (this.isStopped) return this.resolveDone();
          clock.step(atMs);
          const kind = r.kind[i]!;
          if (kind === KIND_SWEEP) {
            this.target?.sweep(atMs);
            continue;
          }
          const src = r.source[i]!;
          const sink = map.sinks[src];
          const inst = map.instruments[src]?.[r.instrument[i]!] ?? -1;
          if (!sink || inst < 0) {
            unresolved++;
            continue;
          }
          this.delivered++;
          if (kind === KIND_STALE) {
            sink.stale(inst);
            continue;
          }
          const tsMs = r.tsMs[i]! + shiftMs;
          this.ticks++;
          if (this.lastMessageMs === null || tsMs > this.lastMessageMs) this.lastMessageMs = tsMs;
          if (kind === KIND_QUOTE) sink.quote(inst, tsMs, r.v0[i]!, r.v1[i]!, sizeOf(r.v2[i]!), sizeOf(r.v3[i]!));
          else if (kind === KIND_TRADE) sink.trade(inst, tsMs, r.v0[i]!, sizeOf(r.v1[i]!));
        }
        if (unresolved > 0) {
          this.skipped += unresolved;
          note(`${block.file} (byte ${block.offset}): ${unresolved} records name a source or instrument the file does not declare: skipped`);
        }
      }
      if (this.isStopped) return this.resolveDone();
    }
    this.finish();
  }

  private finish(): void {
    this.hasFinished = true;
    this.state = 'stopped';
    this.reason = `the recording was replayed to its end: ${this.ticks} ticks from ${this.opts.summary.files.length} files`;
    this.opts.clock.finish();
    this.opts.log(`feed replay: ${this.reason}; the service clock runs on in real time from its last record`);
    this.target?.start();
    this.resolveDone();
  }

  /** Lets the event loop run (requests, store commits); waits while the store is behind. */
  private async look(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.isBehind?.() && !this.isStopped) await this.pause(5);
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  private partFor(name: string): FeedSink {
    let part = this.parts.get(name);
    if (!part) {
      part = this.sink!.source?.(name) ?? this.sink!;
      this.parts.set(name, part);
    }
    return part;
  }

  /** Sinks and instrument maps of a segment's tables, made again only when the tables change. */
  private mappingFor(tables: SegmentTables): Mapping {
    if (this.mapping?.generation === tables.generation) return this.mapping;
    const byFeed = tables.feeds.map((f) => (f ? Int32Array.from(f.instruments, (inst) => this.indexByKey.get(`${inst.assetClass}:${inst.symbol}`) ?? -1) : null));
    this.mapping = {
      generation: tables.generation,
      sinks: tables.sources.map((s) => (s ? this.partFor(s.name) : null)),
      instruments: tables.sources.map((s) => (s ? (byFeed[s.feed] ?? null) : null)),
    };
    return this.mapping;
  }
}

function sizeOf(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}
