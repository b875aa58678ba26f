// Coalesces writes: callers mark a record dirty, and one flush per interval writes every dirty
// record in a single LMDB transaction (committed durably off the main thread by lmdb-js). Until
// that commit lands, reads see the written value through `pendingValue`.
import type { Database } from 'lmdb';

export interface Write {
  // biome-style `any`: the queue writes to databases of several key and value types.
  db: Database<any, any>;
  key: unknown;
  /** null removes the record. */
  value: unknown;
}

export class WriteQueue {
  private dirty = new Map<string, () => Write>();
  private readonly pending = new Map<string, unknown>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastCommit: Promise<unknown> = Promise.resolve();
  private failure: Error | null = null;

  constructor(private readonly flushIntervalMs: number) {}

  /** Marks a record dirty; `produce` is called at flush time for its current value. */
  mark(id: string, produce: () => Write): void {
    this.dirty.set(id, produce);
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), this.flushIntervalMs);
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

  /** Writes every dirty record now; resolves when the transaction is durable. */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.dirty;
    if (batch.size === 0) return this.drained();
    this.dirty = new Map();
    let last: Promise<unknown> = this.lastCommit;
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
    this.lastCommit = last;
    return this.drained();
  }

  /** Resolves when everything flushed so far is committed; rejects if a commit failed. */
  async drained(): Promise<void> {
    await this.lastCommit;
    if (this.failure) throw this.failure;
  }
}
