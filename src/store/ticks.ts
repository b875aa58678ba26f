// Ring buffer of raw consolidated ticks per symbol and kind: fixed capacity, so disk and memory
// stay bounded under an endless feed. Records are packed into blocks so one LMDB write carries
// many ticks; the block being filled lives in memory and is rewritten on each flush.
import { QUOTE_FIELDS, TRADE_FIELDS } from './codecs.ts';
import type { StoreDbs } from './env.ts';
import type { WriteQueue } from './write-queue.ts';

export const BLOCK_TICKS = 64;
export type TickKind = 'quote' | 'trade';
const KIND_INDEX: Record<TickKind, number> = { quote: 0, trade: 1 };
const FIELDS: Record<TickKind, number> = { quote: QUOTE_FIELDS, trade: TRADE_FIELDS };

interface OpenBlock {
  index: number;
  data: Float64Array;
  count: number;
}

export class TickRing {
  private readonly blocks: number;
  readonly capacity: number;
  private readonly open = new Map<string, OpenBlock>();

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
    capacity: number,
  ) {
    this.capacity = capacity;
    // One spare block: the block being filled overwrites the oldest, and `capacity` must survive.
    this.blocks = Math.ceil(capacity / BLOCK_TICKS) + 1;
  }

  /**
   * Appends one tick with sequence number `seq` (the caller's per-symbol counter, starting at 1).
   * `values` are the record's fields after ts and before seq, in codec order.
   */
  append(symId: number, kind: TickKind, seq: number, tsMs: number, a: number, b: number, c = NaN, d = NaN): void {
    const fields = FIELDS[kind];
    const blockSeq = Math.floor((seq - 1) / BLOCK_TICKS);
    const index = blockSeq % this.blocks;
    const key = `${symId}:${kind}`;
    let block = this.open.get(key);
    if (!block || block.index !== blockSeq) {
      block = { index: blockSeq, data: new Float64Array(BLOCK_TICKS * fields), count: 0 };
      // Resuming mid-block after a restart: keep the ticks already stored in it.
      const stored = (seq - 1) % BLOCK_TICKS > 0 ? this.blockValues(symId, kind, blockSeq) : undefined;
      if (stored) block.data.set(stored.subarray(0, Math.min(stored.length, block.data.length)));
      this.open.set(key, block);
    }
    const at = ((seq - 1) % BLOCK_TICKS) * fields;
    const data = block.data;
    data[at] = tsMs;
    data[at + 1] = a;
    data[at + 2] = b;
    if (kind === 'quote') {
      data[at + 3] = c;
      data[at + 4] = d;
    }
    data[at + fields - 1] = seq;
    block.count = ((seq - 1) % BLOCK_TICKS) + 1;
    const written = block;
    this.queue.mark(`tick:${key}:${index}`, () => ({
      db: this.dbs.ticks,
      key: [symId, KIND_INDEX[kind], index],
      value: Buffer.from(new Uint8Array(written.data.buffer, 0, written.count * fields * 8)),
    }));
  }

  /** Ticks with seq > afterSeq still in the ring, oldest first, at most `max`, as field arrays. */
  readSince(symId: number, kind: TickKind, afterSeq: number, lastSeq: number, max: number): number[][] {
    const fields = FIELDS[kind];
    const first = Math.max(afterSeq + 1, lastSeq - this.capacity + 1, 1);
    const out: number[][] = [];
    for (let seq = first; seq <= lastSeq && out.length < max; ) {
      const blockSeq = Math.floor((seq - 1) / BLOCK_TICKS);
      const values = this.blockValues(symId, kind, blockSeq);
      for (let i = (seq - 1) % BLOCK_TICKS; i < BLOCK_TICKS && seq <= lastSeq && out.length < max; i++, seq++) {
        const at = i * fields;
        if (!values || at + fields > values.length || values[at + fields - 1] !== seq) continue;
        out.push(Array.from(values.subarray(at, at + fields)));
      }
    }
    return out;
  }

  private blockValues(symId: number, kind: TickKind, blockSeq: number): Float64Array | undefined {
    const open = this.open.get(`${symId}:${kind}`);
    if (open && open.index === blockSeq) return open.data.subarray(0, open.count * FIELDS[kind]);
    const index = blockSeq % this.blocks;
    const pending = this.queue.pendingValue(`tick:${symId}:${kind}:${index}`);
    const bytes = pending instanceof Uint8Array ? pending : this.dbs.ticks.getBinary([symId, KIND_INDEX[kind], index]);
    if (!bytes) return undefined;
    return new Float64Array(new Uint8Array(bytes).buffer);
  }
}
