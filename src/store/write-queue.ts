// Coalesces writes: one flush per interval issues every dirty record as lmdb-js puts in a single
// event turn, which lmdb-js commits as one transaction off the main thread. Hot writers (each
// symbol's live record, filled ticks-ring blocks) keep their own dirty sets and register a
// `Flusher`, so the per-tick cost is a flag; rare writers (bar chunks, usage counters) `mark` a
// record by id, and until its commit lands reads see the written value through `pendingValue`.
import type { Database, RootDatabase } from 'lmdb';

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

export class WriteQueue {
  private dirty = new Map<string, () => Write>();
  private readonly pending = new Map<string, unknown>();
  private readonly flushers: Flusher[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastCommit: Promise<unknown> = Promise.resolve();
  private failure: Error | null = null;
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
  private readonly onTimer = () => {
    this.timer = null;
    void this.flush().catch(() => {
      // Recorded in `failure`; the next awaited flush or drain reports it.
    });
  };

  constructor(
    private readonly root: RootDatabase,
    private readonly flushIntervalMs: number,
  ) {}

  register(flusher: Flusher): void {
    this.flushers.push(flusher);
  }

  /** Asks for a flush within the interval (registered flushers call it when they become dirty). */
  schedule(): void {
    if (this.timer === null) this.timer = setTimeout(this.onTimer, this.flushIntervalMs);
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

  /** Writes every dirty record now; resolves when the transaction is durable. */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const epoch = ++this.epoch;
    let last: Promise<unknown> | null = null;
    this.inFlush = true;
    try {
      const batch = this.dirty;
      if (batch.size > 0) {
        this.dirty = new Map();
        for (const [id, produce] of batch) {
          const { db, key, value } = produce();
          this.pending.set(id, value);
          const done = value === null ? db.remove(key) : db.put(key, value);
          last = done.then(
            () => {
              if (this.pending.get(id) === value) this.pending.delete(id);
            },
            (err: unknown) => {
              this.failure = err instanceof Error ? err : new Error(String(err));
            },
          );
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
    if (last !== null) {
      // One event turn is one lmdb-js transaction, so the last put settles after all the others.
      this.lastCommit = last.then(
        () => {
          for (let i = 0; i < this.flushers.length; i++) this.flushers[i]!.committed(epoch);
          this.releaseSlabs(slabs);
        },
        (err: unknown) => {
          this.failure = err instanceof Error ? err : new Error(String(err));
        },
      );
    } else {
      this.releaseSlabs(slabs);
    }
    return this.drained();
  }

  /** Resolves when everything flushed so far is committed and on disk; rejects if a commit failed. */
  async drained(): Promise<void> {
    await this.lastCommit;
    if (this.failure) throw this.failure;
    // lmdb-js (overlapping sync) resolves a put once it is committed and visible; `flushed` once
    // the OS has confirmed the commit is on disk.
    await this.root.flushed;
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
