// Retention of completed bars (--retain): a background pass removes whole bar chunks whose bars
// are all past their timeframe's retention, a few chunks per transaction, yielding between them,
// so ingest and reads never wait on it. Bars newer than the cutoff are never touched.
import { retentionCutoffMs, type Retention } from '../domain/retention.ts';
import { TIMEFRAMES } from '../domain/timeframes.ts';
import { CHUNK_BARS, type BarStore } from './bars.ts';

/** Chunks removed per transaction (1,024 bars each). */
const CHUNKS_PER_TXN = 64;
/** Series looked at between two yields to the event loop. */
const SERIES_PER_TURN = 64;

export interface RetentionPass {
  /** Chunks removed (each up to 1,024 bars). */
  chunks: number;
  /** Upper bound of the bars removed (whole chunks). */
  bars: number;
  transactions: number;
  ms: number;
  /** The longest stretch the pass held the event loop (between two yields). */
  longestStepMs: number;
}

export class RetentionRunner {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<RetentionPass> | null = null;
  private stopped = false;

  constructor(
    private readonly bars: BarStore,
    private readonly retention: Retention,
    private readonly symIds: () => number[],
    private readonly nowMs: () => number,
    /** A pass is skipped while commits fail (a removal is a write too). */
    private readonly isWritable: () => boolean,
    private readonly log: (line: string) => void,
  ) {}

  /** Runs a pass now and then every `everyMs`; the timer does not keep the process alive. */
  start(everyMs: number): void {
    const tick = () => {
      this.timer = null;
      void this.pass().finally(() => {
        if (!this.stopped) {
          this.timer = setTimeout(tick, everyMs);
          this.timer.unref?.();
        }
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** One pass over every series (one at a time: a pass asked for during another joins it). */
  pass(): Promise<RetentionPass> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<RetentionPass> {
    const started = performance.now();
    const out: RetentionPass = { chunks: 0, bars: 0, transactions: 0, ms: 0, longestStepMs: 0 };
    let stepStart = started;
    /** Gives the event loop back (ingest and reads run meanwhile) and resumes. */
    const yieldTo = async (wait: Promise<unknown>) => {
      out.longestStepMs = Math.max(out.longestStepMs, performance.now() - stepStart);
      await wait;
      stepStart = performance.now();
    };
    if (!this.isWritable()) return out;
    const nowMs = this.nowMs();
    let batch: { symId: number; tf: (typeof TIMEFRAMES)[number]; starts: number[] }[] = [];
    let inBatch = 0;
    const commit = async () => {
      if (inBatch === 0) return;
      const issued = batch.map((b) => this.bars.removeChunks(b.symId, b.tf, b.starts));
      out.transactions++;
      batch = [];
      inBatch = 0;
      await yieldTo(Promise.all(issued));
    };
    try {
      let looked = 0;
      for (const symId of this.symIds()) {
        for (const tf of TIMEFRAMES) {
          const cutoff = retentionCutoffMs(this.retention, tf, nowMs);
          if (cutoff === null || this.stopped) continue;
          for (;;) {
            const room = CHUNKS_PER_TXN - inBatch;
            const starts = this.bars.expiredChunks(symId, tf, cutoff, room);
            if (starts.length > 0) batch.push({ symId, tf, starts });
            inBatch += starts.length;
            out.chunks += starts.length;
            if (inBatch < CHUNKS_PER_TXN) break;
            // Committed before the series is listed again, so its next chunks are the ones still there.
            await commit();
          }
        }
        if (++looked % SERIES_PER_TURN === 0) await yieldTo(new Promise((resolve) => setImmediate(resolve)));
      }
      await commit();
    } catch (err) {
      this.log(`warning: retention: a removal failed (${err instanceof Error ? err.message : String(err)}); the next pass tries again`);
    }
    out.longestStepMs = Math.max(out.longestStepMs, performance.now() - stepStart);
    out.bars = out.chunks * CHUNK_BARS;
    out.ms = performance.now() - started;
    if (out.chunks > 0) this.log(`retention: removed ${out.chunks} bar chunks (up to ${out.bars} bars) in ${out.ms.toFixed(0)} ms, ${out.transactions} transactions, the longest step ${out.longestStepMs.toFixed(1)} ms`);
    return out;
  }
}
