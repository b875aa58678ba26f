// Coalesces writes: one flush per interval issues every dirty record as lmdb-js puts in a single
// event turn, which lmdb-js commits as one transaction off the main thread. Hot writers (each
// symbol's live record, filled ticks-ring blocks) keep their own dirty sets and register a
// `Flusher`, so the per-tick cost is a flag; rare writers (bar chunks, usage counters) `mark` a
// record by id, and until its commit lands reads see the written value through `pendingValue`.
// A failed commit (disk full, I/O error) loses nothing that is kept: its writes are marked dirty
// again, reads go on, and the queue retries on its own, once there is room again (see `failing`).
import type { Database, RootDatabase } from 'lmdb';
import { commitCause, failureText } from './commit-failures.ts';

export interface Write {
  // biome-style `any`: the queue writes to databases of several key and value types.
  db: Database<any, any>;
  key: unknown;
  /** null removes the record. */
  value: unknown;
}

/** A store with its own dirty tracking. */
export interface Flusher {
  /**
   * Issues the puts (and removes) of everything dirty now, as part of flush `epoch`; returns the
   * promise of the last one, or null when nothing was dirty. Binary values come from `scratch`.
   */
  flush(epoch: number): Promise<unknown> | null;
  /** Every flush up to `epoch` is committed: LMDB reads see it, in-memory copies may go. */
  committed(epoch: number): void;
  /** Flush `epoch` did not commit: what it wrote is to be written again by a later flush. */
  failed(epoch: number): void;
}

/** Whether commits succeed; `failure` is null while they do. */
export interface WriteState {
  /** Why the last commit failed ("No space left on device"), while commits fail. */
  failure: string | null;
  /** When commits started to fail (the store's clock), or null. */
  failingSinceMs: number | null;
}

export interface WriteQueueOptions {
  /** How long writes are coalesced before one durable transaction. */
  flushIntervalMs: number;
  /** While commits fail: how often to look whether to try again. */
  retryCheckMs?: number;
  /** Free bytes on the store's file system (null: unknown); a retry waits for room, see RETRY_FREE_BYTES. */
  freeBytes?: () => number | null;
  nowMs: () => number;
  /** Called when commits start failing (once the cause is known) and when they succeed again. */
  onChange?: (state: WriteState) => void;
}

/** One committed flush, as /metrics reports it. */
export interface FlushReport {
  /** From the flush's first put to its commit (lmdb-js commits off the main thread). */
  durationMs: number;
  /** Records put or removed. */
  records: number;
  /** Bytes of the binary values (ticks blocks, live records) among them; other records are encoded by lmdb-js and not counted. */
  valueBytes: number;
}

/** Float64 room in a flush's slab (see `WriteQueue.scratchFloats`); one object, reused. */
export interface Scratch {
  /** The whole slab as float64s: write the values at `floats[at]` … `floats[at + count - 1]`. */
  floats: Float64Array;
  at: number;
  /** The same room as bytes: the value to put. */
  bytes: Uint8Array;
}

/** Slabs bigger than this are not kept for reuse once their flush has committed. */
const MAX_POOLED_SLAB = 16 << 20;
const MIN_SLAB = 1 << 20;
/**
 * While commits fail, a retry waits until the file system has this much room, or RETRY_MAX_WAIT_MS:
 * each failed commit costs a write attempt (and lmdb-js prints it), so a full disk is not hammered.
 */
const RETRY_FREE_BYTES = 4 << 20;
const RETRY_MAX_WAIT_MS = 30_000;
/** How long the report of a failed commit waits for lmdb-js to give its cause. */
const CAUSE_WAIT_MS = 2000;

export class WriteQueue {
  private dirty = new Map<string, () => Write>();
  private readonly pending = new Map<string, unknown>();
  private readonly flushers: Flusher[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastCommit: Promise<unknown> = Promise.resolve();
  /** The batches of `mark`ed records by flush epoch, until their commit settles (a failure marks them again). */
  private readonly inFlight = new Map<number, Map<string, () => Write>>();
  /** Commits issued and not settled. */
  private outstanding = 0;
  private failing: { reason: string; sinceMs: number } | null = null;
  private lastAttemptMs = 0;
  private isStopped = false;
  private epoch = 0;
  // lmdb-js reads a put's value bytes when it runs the transaction, after `put` returns: values
  // are copied into slabs that stay untouched until their flush has committed, then reused.
  private slab: Uint8Array | null = null;
  private slabFloats: Float64Array = new Float64Array(0);
  private slabUsed = 0;
  private readonly scratchOut: Scratch = { floats: this.slabFloats, at: 0, bytes: new Uint8Array(0) };
  private slabsInFlush: Uint8Array[] = [];
  private readonly freeSlabs: Uint8Array[] = [];
  private inFlush = false;
  /** Values handed out by `scratch` in the current flush: count and bytes. */
  private scratchCount = 0;
  private scratchBytes = 0;
  /** Told of every committed flush (metrics); null: nobody listens. */
  onFlushed: ((report: FlushReport) => void) | null = null;
  private readonly onTimer = () => {
    this.timer = null;
    void this.flush().catch(() => {
      // Reported through `state` and `onChange`; the writes are kept for the retry.
    });
  };
  /**
   * lmdb-js starts each event turn's transaction with an instruction of its own whose promise no
   * caller gets; when the commit fails it rejects unhandled. It is the store's `committed` once the
   * turn has ended (its batch start runs in the first setImmediate of the turn): hold it then.
   */
  private readonly holdBatchStart = () => {
    this.root.committed.then(
      () => {},
      () => {},
    );
  };
  private readonly onRetryCheck = () => {
    this.timer = null;
    if (this.failing === null) return this.schedule();
    const free = this.opts.freeBytes?.() ?? null;
    const isDue = performance.now() - this.lastAttemptMs >= RETRY_MAX_WAIT_MS;
    if (this.outstanding === 0 && (isDue || free === null || free >= RETRY_FREE_BYTES)) this.onTimer();
    else this.schedule();
  };

  constructor(
    private readonly root: RootDatabase,
    private readonly opts: WriteQueueOptions,
  ) {}

  /** Whether commits succeed now. */
  get state(): WriteState {
    return { failure: this.failing?.reason ?? null, failingSinceMs: this.failing?.sinceMs ?? null };
  }

  get isFailing(): boolean {
    return this.failing !== null;
  }

  register(flusher: Flusher): void {
    this.flushers.push(flusher);
  }

  /** Asks for a flush within the interval (registered flushers call it when they become dirty). */
  schedule(): void {
    if (this.timer !== null || this.isStopped) return;
    // While commits fail, writes wait for a retry (the dirty sets hold them; the ticks ring bounds its own).
    if (this.failing === null) this.timer = setTimeout(this.onTimer, this.opts.flushIntervalMs);
    else this.timer = setTimeout(this.onRetryCheck, this.opts.retryCheckMs ?? 1000);
  }

  /** Marks a record dirty; `produce` is called at flush time for its current value. */
  mark(id: string, produce: () => Write): void {
    this.dirty.set(id, produce);
    this.schedule();
  }

  /** The value most recently written for `id` that may not be committed yet. */
  pendingValue(id: string): unknown {
    const produce = this.dirty.get(id);
    if (produce) return produce().value;
    return this.pending.get(id);
  }

  get size(): number {
    return this.dirty.size;
  }

  /**
   * `byteLength` bytes (8-byte aligned) for a value put during a flush; they stay untouched until
   * that flush has committed. Only valid inside `Flusher.flush`.
   */
  scratch(byteLength: number): Uint8Array {
    if (!this.inFlush) throw new Error('scratch bytes are only handed out during a flush');
    const size = (byteLength + 7) & ~7;
    let slab = this.slab;
    if (slab === null || this.slabUsed + size > slab.byteLength) {
      slab = this.takeSlab(size);
      this.slab = slab;
      this.slabFloats = new Float64Array(slab.buffer, slab.byteOffset, slab.byteLength >> 3);
      this.slabUsed = 0;
      this.slabsInFlush.push(slab);
    }
    const at = this.slabUsed;
    this.slabUsed += size;
    this.scratchCount++;
    this.scratchBytes += byteLength;
    return slab.subarray(at, at + byteLength);
  }

  /** Like `scratch`, for `count` float64 values written straight into the slab (no view per value). */
  scratchFloats(count: number): Scratch {
    const bytes = this.scratch(count * 8);
    const out = this.scratchOut;
    out.floats = this.slabFloats;
    out.at = bytes.byteOffset >> 3;
    out.bytes = bytes;
    return out;
  }

  /** Writes every dirty record now; resolves when the transaction is durable, rejects if it failed. */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const epoch = ++this.epoch;
    let last: Promise<unknown> | null = null;
    const startMs = performance.now();
    let records = 0;
    this.scratchCount = 0;
    this.scratchBytes = 0;
    this.inFlush = true;
    try {
      const batch = this.dirty;
      records = batch.size;
      if (batch.size > 0) {
        this.dirty = new Map();
        this.inFlight.set(epoch, batch);
        for (const [id, produce] of batch) {
          const { db, key, value } = produce();
          this.pending.set(id, value);
          const done = value === null ? db.remove(key) : db.put(key, value);
          done.then(
            () => {
              if (this.pending.get(id) === value) this.pending.delete(id);
            },
            () => {
              // The whole transaction failed: handled once, below, for the flush.
            },
          );
          last = done;
        }
      }
      for (let i = 0; i < this.flushers.length; i++) {
        const done = this.flushers[i]!.flush(epoch);
        if (done !== null) last = done;
      }
    } finally {
      this.inFlush = false;
    }
    const slabs = this.slabsInFlush;
    this.slabsInFlush = [];
    this.slab = null;
    records += this.scratchCount;
    const valueBytes = this.scratchBytes;
    if (last === null) {
      this.inFlight.delete(epoch);
      this.releaseSlabs(slabs);
      return this.drained();
    }
    this.outstanding++;
    this.lastAttemptMs = performance.now();
    setImmediate(this.holdBatchStart);
    // One event turn is one lmdb-js transaction, so the last put settles after all the others.
    const commit = last.then(
      () => {
        this.onCommitted(epoch, slabs);
        this.onFlushed?.({ durationMs: performance.now() - startMs, records, valueBytes });
      },
      (err: unknown) => {
        this.onFailed(epoch, slabs, err);
        throw err instanceof Error ? err : new Error(String(err));
      },
    );
    this.lastCommit = commit.catch(() => {});
    return commit.then(() => this.drained());
  }

  /** No more flushes by timer or retry (the store is closing). */
  stop(): void {
    this.isStopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves when everything flushed so far is committed and on disk; rejects while commits fail. */
  async drained(): Promise<void> {
    await this.lastCommit;
    if (this.failing) throw new Error(`writes to the store are failing: ${this.failing.reason}`);
    // lmdb-js (overlapping sync) resolves a put once it is committed and visible; `flushed` once
    // the OS has confirmed the commit is on disk.
    await this.root.flushed;
  }

  private onCommitted(epoch: number, slabs: Uint8Array[]): void {
    this.outstanding--;
    this.inFlight.delete(epoch);
    for (let i = 0; i < this.flushers.length; i++) this.flushers[i]!.committed(epoch);
    this.releaseSlabs(slabs);
    if (this.failing !== null) {
      this.failing = null;
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
      this.schedule();
      this.opts.onChange?.(this.state);
    }
  }

  private onFailed(epoch: number, slabs: Uint8Array[], err: unknown): void {
    this.outstanding--;
    // lmdb-js has read the values (the transaction is over): the slabs may be reused.
    this.releaseSlabs(slabs);
    const batch = this.inFlight.get(epoch);
    this.inFlight.delete(epoch);
    if (batch) for (const [id, produce] of batch) if (!this.dirty.has(id)) this.dirty.set(id, produce);
    for (let i = 0; i < this.flushers.length; i++) this.flushers[i]!.failed(epoch);
    const isNew = this.failing === null;
    if (isNew) this.failing = { reason: failureText(err), sinceMs: this.opts.nowMs() };
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.schedule();
    // The cause (errno text) arrives on lmdb-js's `commitError`; report once it is known.
    const cause = commitCause(err);
    if (!isNew) {
      cause?.catch(() => {});
      return;
    }
    let isReported = false;
    const report = () => {
      if (this.failing === null || isReported) return;
      isReported = true;
      this.opts.onChange?.(this.state);
    };
    // lmdb-js rejects the cause from its write thread's next report, which may be late: report
    // without it rather than not at all, and show it once it comes.
    if (cause) {
      cause.then(report, (reason: unknown) => {
        if (this.failing !== null) this.failing.reason = failureText(reason);
        report();
      });
      setTimeout(report, CAUSE_WAIT_MS).unref?.();
    } else report();
  }

  private takeSlab(size: number): Uint8Array {
    for (let i = 0; i < this.freeSlabs.length; i++) {
      const slab = this.freeSlabs[i]!;
      if (slab.byteLength >= size) {
        this.freeSlabs.splice(i, 1);
        return slab;
      }
    }
    return new Uint8Array(Math.max(MIN_SLAB, 2 ** Math.ceil(Math.log2(size))));
  }

  private releaseSlabs(slabs: Uint8Array[]): void {
    for (const slab of slabs) if (slab.byteLength <= MAX_POOLED_SLAB && this.freeSlabs.length < 8) this.freeSlabs.push(slab);
  }
}
