// An async iterator over pushed values: values wait in order until read; the end (or a failure)
// is seen after the values before it.

export class EventQueue<T> implements AsyncIterableIterator<T> {
  private values: T[] = [];
  /** Index of the oldest unread value (shifting a long array per read would be quadratic). */
  private head = 0;
  private readonly readers: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }[] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;

  constructor(private readonly onReturn: () => void = () => {}) {}

  get size(): number {
    return this.values.length - this.head;
  }

  push(value: T): void {
    if (this.ended) return;
    const reader = this.readers.shift();
    if (reader) reader.resolve({ value, done: false });
    else this.values.push(value);
  }

  /** Ends the iteration once the queued values are read; with an error, the next read throws it. */
  end(error?: { error: unknown }): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error ?? null;
    for (const reader of this.readers.splice(0)) this.settle(reader);
  }

  private settle(reader: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }): void {
    if (this.failure) {
      const { error } = this.failure;
      this.failure = null;
      reader.reject(error);
    } else reader.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.values.length) {
      const value = this.values[this.head++] as T;
      if (this.head === this.values.length) {
        this.values = [];
        this.head = 0;
      } else if (this.head >= 1024 && this.head * 2 >= this.values.length) {
        this.values = this.values.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    return new Promise((resolve, reject) => {
      const reader = { resolve, reject };
      if (this.ended) this.settle(reader);
      else this.readers.push(reader);
    });
  }

  /** `break` out of a for-await loop: this iterator stops receiving. */
  return(): Promise<IteratorResult<T>> {
    this.values = [];
    this.head = 0;
    this.end();
    this.onReturn();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
