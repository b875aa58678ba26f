// Where an edge node stands in the ingest node's stream: the last stream sequence applied, kept in
// the same flush (one LMDB transaction) as the ticks, latest values and bars it applied, so after
// any crash the data and the position read back agree and the edge resumes at the next message.
import type { StoreDbs } from './env.ts';
import type { WriteQueue } from './write-queue.ts';

const KEY = 'replica';
const QUEUE_ID = 'meta:replica';

/** An edge's resume point in the replicated stream. */
export interface ReplicaPosition {
  /** The last stream sequence whose message is applied (0: none). */
  streamSeq: number;
  /**
   * The ingest node's service clock minus its wall clock, as last seen (the edge's clock follows
   * it); null until the edge has seen one (a store made from a snapshot, before the first sweep).
   */
  clockOffsetMs: number | null;
}

export class ReplicaPositionStore {
  private position: ReplicaPosition | null;
  private readonly produce = () => ({ db: this.dbs.meta, key: KEY, value: this.position });

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
  ) {
    const saved = dbs.meta.get(KEY) as Partial<ReplicaPosition> | undefined;
    this.position = saved === undefined ? null : { streamSeq: saved.streamSeq ?? 0, clockOffsetMs: saved.clockOffsetMs === undefined ? 0 : saved.clockOffsetMs };
  }

  get(): ReplicaPosition | null {
    return this.position === null ? null : { ...this.position };
  }

  /** The next flush writes it, with whatever data is written in that flush. */
  set(position: ReplicaPosition): void {
    if (this.position === null) this.position = { ...position };
    else {
      this.position.streamSeq = position.streamSeq;
      this.position.clockOffsetMs = position.clockOffsetMs;
    }
    this.queue.mark(QUEUE_ID, this.produce);
  }
}
