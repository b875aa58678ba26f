// `mds serve --record DIR`: taps every feed's sink (and each named part of one) and writes the
// normalized ticks, stale marks and the ingest path's sealing sweeps to hourly files. The tick path
// only packs bytes into a buffer; a timer or a size threshold hands the block to an async writer.
// A write that fails (full disk) is logged once and its records counted as dropped: never thrown.
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { constants as zlibConstants, zstdCompress } from 'node:zlib';
import { pack } from 'msgpackr';
import type { Clock } from '../../clock.ts';
import type { FeedInstrument, FeedSink } from '../../domain/feed.ts';
import { encodeHeader, RECORDING_EXTENSION, RECORDING_VERSION, RecordPacker, type Declarations, type DeclaredFeed, type DeclaredSource } from './recording-format.ts';

const compress = promisify(zstdCompress);
const ZSTD_PARAMS = { params: { [zlibConstants.ZSTD_c_compressionLevel]: 3, [zlibConstants.ZSTD_c_checksumFlag]: 1 } };
const HOUR_MS = 3_600_000;
const FAILURE_LOG_EVERY_MS = 60_000;

export interface RecorderOptions {
  dir: string;
  /** The service clock: each record carries the time the ingest path took it. */
  clock: Clock;
  log: (line: string) => void;
  /** A block is written at least this often while records come in. */
  flushEveryMs?: number;
  /** A block is written once its content reaches this size. */
  blockBytes?: number;
  /** Blocks waiting for the disk past this size are dropped (counted), so memory stays bounded. */
  maxQueuedBytes?: number;
}

/** What the recorder has done, for the log and tests. */
export interface RecorderStatus {
  dir: string;
  /** Records written to disk. */
  records: number;
  /** Records lost because a write failed or the disk did not keep up. */
  dropped: number;
  /** Why writes fail, while they do. */
  failure: string | null;
}

interface PendingBlock {
  hourStartMs: number;
  content: Uint8Array;
  records: number;
  firstAtMs: number;
  lastAtMs: number;
}

interface OpenFile {
  path: string;
  handle: FileHandle;
  /** Bytes of whole blocks: a failed write is cut back to this. */
  size: number;
}

/** A feed's sink with the recorder in front: records, then hands on. */
class TapSink implements FeedSink {
  private readonly parts = new Map<string, FeedSink>();

  constructor(
    private readonly recorder: Recorder,
    private readonly sourceIndex: number,
    private readonly feedIndex: number,
    private readonly inner: FeedSink,
  ) {}

  quote(instrument: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    this.recorder.quote(this.sourceIndex, instrument, tsMs, bid, ask, bidSize, askSize);
    this.inner.quote(instrument, tsMs, bid, ask, bidSize, askSize);
  }

  trade(instrument: number, tsMs: number, price: number, size: number | null): void {
    this.recorder.trade(this.sourceIndex, instrument, tsMs, price, size);
    this.inner.trade(instrument, tsMs, price, size);
  }

  stale(instrument: number): void {
    this.recorder.stale(this.sourceIndex, instrument);
    this.inner.stale(instrument);
  }

  source(name: string): FeedSink {
    let part = this.parts.get(name);
    if (!part) {
      // Declared when the ingest path names the part, so sources keep the order consolidation gave them.
      const inner = this.inner.source?.(name) ?? this.inner;
      part = new TapSink(this.recorder, this.recorder.declareSource(name, this.feedIndex), this.feedIndex, inner);
      this.parts.set(name, part);
    }
    return part;
  }
}

export class Recorder {
  private readonly feeds: DeclaredFeed[] = [];
  private readonly sources: DeclaredSource[] = [];
  private readonly packer = new RecordPacker();
  private readonly flushEveryMs: number;
  private readonly blockBytes: number;
  private readonly maxQueuedBytes: number;
  private hourStartMs = NaN;
  private hourEndMs = NaN;
  /** A sweep not written yet: consecutive sweeps with no record between them seal what the last one does. */
  private pendingSweepMs = NaN;
  private readonly queue: PendingBlock[] = [];
  private queuedBytes = 0;
  private writing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private file: OpenFile | null = null;
  /** Feeds and sources declared in the current file segment; a reset declares them all again. */
  private declaredFeeds = 0;
  private declaredSources = 0;
  private needsReset = true;
  private written = 0;
  private dropped = 0;
  private failure: string | null = null;
  private isFailureLogged = false;
  private failureLoggedMs = -Infinity;

  constructor(private readonly opts: RecorderOptions) {
    this.flushEveryMs = opts.flushEveryMs ?? 1000;
    this.blockBytes = opts.blockBytes ?? 256 * 1024;
    this.maxQueuedBytes = opts.maxQueuedBytes ?? 64 << 20;
  }

  /** Wraps a feed's sink: everything the feed hands it (and its parts' sinks) is recorded, then passed on. */
  tap(feedId: string, instruments: readonly FeedInstrument[], sink: FeedSink): FeedSink {
    const feedIndex = this.feeds.length;
    this.feeds.push({ index: feedIndex, id: feedId, instruments: instruments.map(copyInstrument) });
    return new TapSink(this, this.declareSource(feedId, feedIndex), feedIndex, sink);
  }

  /** Writes blocks on a timer from now on (the timer does not keep the process alive). */
  start(): void {
    this.timer ??= setInterval(() => this.flush(), this.flushEveryMs);
    this.timer.unref?.();
  }

  /** Writes what is buffered and waits until every block is on disk (or dropped); the recorder is done. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // The last sweep too: a replay ends with the bars sealed as they were here.
    if (!Number.isNaN(this.pendingSweepMs)) this.append(this.pendingSweepMs);
    await this.settle();
    await this.file?.handle.close().catch(() => {});
    this.file = null;
  }

  /** Writes what is buffered; resolves once every block handed so far is on disk (or dropped). */
  async settle(): Promise<void> {
    this.flush();
    while (this.writing) await this.writing;
  }

  status(): RecorderStatus {
    return { dir: this.opts.dir, records: this.written, dropped: this.dropped, failure: this.failure };
  }

  /** @internal the tap's declaration of a named part. */
  declareSource(name: string, feed: number): number {
    const index = this.sources.length;
    this.sources.push({ index, name, feed });
    return index;
  }

  /** The ingest path sealed the bars due at `nowMs` (its timed sweep). */
  sweep(nowMs: number): void {
    this.pendingSweepMs = nowMs;
  }

  quote(source: number, instrument: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    const atMs = this.opts.clock.nowMs();
    this.append(atMs);
    this.packer.quote(source, atMs, instrument, tsMs, bid, ask, bidSize, askSize);
    if (this.packer.byteLength >= this.blockBytes) this.flush();
  }

  trade(source: number, instrument: number, tsMs: number, price: number, size: number | null): void {
    const atMs = this.opts.clock.nowMs();
    this.append(atMs);
    this.packer.trade(source, atMs, instrument, tsMs, price, size);
    if (this.packer.byteLength >= this.blockBytes) this.flush();
  }

  stale(source: number, instrument: number): void {
    const atMs = this.opts.clock.nowMs();
    this.append(atMs);
    this.packer.stale(source, atMs, instrument);
  }

  /** Before a record at `atMs`: a block never spans two hours, and a pending sweep goes first. */
  private append(atMs: number): void {
    if (!(atMs >= this.hourStartMs && atMs < this.hourEndMs)) {
      this.flush();
      this.hourStartMs = atMs - (((atMs % HOUR_MS) + HOUR_MS) % HOUR_MS);
      this.hourEndMs = this.hourStartMs + HOUR_MS;
    }
    if (!Number.isNaN(this.pendingSweepMs)) this.packer.sweep(this.takeSweep());
  }

  private takeSweep(): number {
    const at = this.pendingSweepMs;
    this.pendingSweepMs = NaN;
    return at;
  }

  /** Hands the buffered block to the writer. */
  private flush(): void {
    const p = this.packer;
    if (p.count === 0) return;
    const block: PendingBlock = { hourStartMs: this.hourStartMs, records: p.count, firstAtMs: p.firstAtMs, lastAtMs: p.lastAtMs, content: p.take() };
    if (this.queuedBytes + block.content.length > this.maxQueuedBytes) {
      this.fail(block.records, 'the disk does not keep up: blocks waiting to be written exceed the bound');
      return;
    }
    this.queue.push(block);
    this.queuedBytes += block.content.length;
    this.kick();
  }

  /** Starts the writer unless it runs; one block at a time, in order. */
  private kick(): void {
    if (this.writing !== null || this.queue.length === 0) return;
    this.writing = this.drain().finally(() => {
      this.writing = null;
      this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let block = this.queue.shift(); block !== undefined; block = this.queue.shift()) {
      this.queuedBytes -= block.content.length;
      await this.write(block);
    }
  }

  private async write(block: PendingBlock): Promise<void> {
    const path = join(this.opts.dir, hourFileName(block.hourStartMs));
    try {
      if (this.file?.path !== path) await this.openFile(path);
      const file = this.file!;
      const parts: Uint8Array[] = [];
      const feedsNow = this.feeds.length;
      const sourcesNow = this.sources.length;
      if (this.needsReset || feedsNow > this.declaredFeeds || sourcesNow > this.declaredSources) {
        const from = this.needsReset ? { feeds: 0, sources: 0 } : { feeds: this.declaredFeeds, sources: this.declaredSources };
        const decl: Declarations = { feeds: this.feeds.slice(from.feeds, feedsNow), sources: this.sources.slice(from.sources, sourcesNow) };
        parts.push(...(await frameOf('declare', this.needsReset, pack(decl), 0, NaN, NaN)));
      }
      parts.push(...(await frameOf('records', false, block.content, block.records, block.firstAtMs, block.lastAtMs)));
      const bytes = Buffer.concat(parts);
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await file.handle.write(bytes, done, bytes.length - done);
        if (bytesWritten <= 0) throw new Error('nothing was written');
        done += bytesWritten;
      }
      file.size += bytes.length;
      this.declaredFeeds = feedsNow;
      this.declaredSources = sourcesNow;
      this.needsReset = false;
      this.written += block.records;
      if (this.failure !== null && this.isFailureLogged) this.opts.log(`recording to ${this.opts.dir} works again; ${this.dropped} records were dropped meanwhile`);
      this.isFailureLogged = false;
      this.failure = null;
    } catch (err) {
      this.fail(block.records, (err as Error).message);
      // Cut a half-written block away so the file's blocks stay back to back; the next block
      // declares every feed again, whatever part of the declarations made it to disk.
      await this.file?.handle.truncate(this.file.size).catch(() => {});
      this.needsReset = true;
    }
  }

  private async openFile(path: string): Promise<void> {
    await this.file?.handle.close().catch(() => {});
    this.file = null;
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, 'a');
    try {
      this.file = { path, handle, size: (await handle.stat()).size };
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
    // A new file, or one a previous run wrote: a new segment that declares everything.
    this.needsReset = true;
  }

  private fail(records: number, reason: string): void {
    this.dropped += records;
    // Logged once, and again at most once a minute while it comes and goes (a disk at its limit).
    const realMs = performance.now();
    if (this.failure === null && realMs - this.failureLoggedMs >= FAILURE_LOG_EVERY_MS) {
      this.failureLoggedMs = realMs;
      this.isFailureLogged = true;
      this.opts.log(`error: recording to ${this.opts.dir} fails (${reason}): ticks go on to the ingest path unrecorded; ${this.dropped} records dropped so far`);
    }
    this.failure = reason;
  }
}

async function frameOf(type: 'declare' | 'records', isReset: boolean, content: Uint8Array, records: number, firstAtMs: number, lastAtMs: number): Promise<Uint8Array[]> {
  const frame = await compress(content, ZSTD_PARAMS);
  const header = encodeHeader({ version: RECORDING_VERSION, type, isReset, frameBytes: frame.length, contentBytes: content.length, records, firstAtMs, lastAtMs });
  return [header, frame];
}

/** `YYYY-MM-DD/HH.rec.zst` of the UTC hour starting at `hourStartMs`. */
export function hourFileName(hourStartMs: number): string {
  const iso = new Date(hourStartMs).toISOString();
  return `${iso.slice(0, 10)}/${iso.slice(11, 13)}${RECORDING_EXTENSION}`;
}

function copyInstrument(i: FeedInstrument): FeedInstrument {
  const out: FeedInstrument = { assetClass: i.assetClass, symbol: i.symbol, venueSymbol: i.venueSymbol };
  if (i.name !== undefined) out.name = i.name;
  if (i.decimals !== undefined) out.decimals = i.decimals;
  return out;
}
