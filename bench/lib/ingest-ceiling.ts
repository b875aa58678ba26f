// The ingest ceiling (issue 33): a bare lmdb-js batched-put loop on the same disk that writes what
// the store writes for the same tick stream, with nothing of the pipeline (no consolidation, bars,
// listeners). Same environment (the store's own `openDbs`: same options, durable commits with
// lmdb-js's overlapping sync), same records (each filled 64-tick block of a symbol and kind under
// [symId, kind, block], and each touched symbol's live record: header, open bars, open blocks),
// same transactions (everything dirty put in one event turn every 20 ms, the Store's default
// interval), same yields (every 4,096 ticks), timed like ingest.ts until the last commit is on disk.
// Bar chunks (one record per symbol per closed minute of event time) are left out: a few hundred
// records per run against ~16,000 blocks. Only bench code opens the store's environment directly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLASS_POLICY } from '../../src/domain/asset-classes.ts';
import type { InstrumentSpec } from '../../src/domain/instrument.ts';
import { TIMEFRAMES } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { BAR_FIELDS, QUOTE_FIELDS, TRADE_FIELDS } from '../../src/store/codecs.ts';
import { openDbs } from '../../src/store/env.ts';
import { BLOCK_TICKS } from '../../src/store/ticks.ts';

/** The Store's flush interval (src/store/store.ts, `flushIntervalMs` default). */
const FLUSH_INTERVAL_MS = 20;
/** The Store's ring capacity per symbol and kind (default `--ring-capacity`): block keys wrap at this. */
const RING_CAPACITY = 8192;
const RING_BLOCKS = Math.ceil(RING_CAPACITY / BLOCK_TICKS) + 1;
/** A live record's header in float64s, as src/store/live.ts lays it out: latest state, one open bar per timeframe, two counts. */
const LIVE_HEADER = 10 + TIMEFRAMES.length * BAR_FIELDS + 2;
/** Ticks between yields to the event loop, as in ingest.ts. */
const BATCH = 4096;
const FIELDS = [QUOTE_FIELDS, TRADE_FIELDS] as const;

export interface IngestCeilingResult {
  ticks: number;
  seconds: number;
  ticksPerS: number;
  transactions: number;
  records: number;
  megabytes: number;
  finalFlushMs: number;
  symbols: number;
}

interface Ring {
  symId: number;
  kind: number;
  data: Float64Array;
  count: number;
  blockSeq: number;
  /** Filled blocks waiting for the next flush. */
  full: { blockSeq: number; data: Float64Array }[];
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs in the child process: a fresh environment on a temp dir, `ticks` ticks, the time until durable. */
export async function runIngestCeiling(ticks: number, maxSeconds: number, warmupTicks: number): Promise<IngestCeilingResult> {
  const dir = mkdtempSync(join(tmpdir(), 'mds-bench-ingest-ceiling-'));
  const dbs = openDbs(dir);
  try {
    const tape = (CATALOG as readonly InstrumentSpec[]).map((spec) => CLASS_POLICY[spec.assetClass].barSource === 'trade');
    const n = tape.length;
    const rings: Ring[] = [];
    for (let s = 0; s < n; s++) for (let k = 0; k < 2; k++) rings.push({ symId: s + 1, kind: k, data: new Float64Array(BLOCK_TICKS * FIELDS[k]!), count: 0, blockSeq: 0, full: [] });
    // Block arrays are copied into the flush's slab, so they are reused at once (the store keeps spares too).
    const spare: Float64Array[][] = [[], []];
    const dirtySyms = new Uint8Array(n);
    let dirtyList: number[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last: Promise<unknown> = Promise.resolve();
    let transactions = 0;
    let records = 0;
    let bytes = 0;

    const flush = () => {
      timer = null;
      const ids = dirtyList;
      if (ids.length === 0) return;
      dirtyList = [];
      // One slab per flush, untouched until its commit (lmdb-js reads values when the transaction runs).
      let floats = 0;
      for (const s of ids) {
        floats += LIVE_HEADER + rings[s * 2]!.count * QUOTE_FIELDS + rings[s * 2 + 1]!.count * TRADE_FIELDS;
        floats += rings[s * 2]!.full.length * BLOCK_TICKS * QUOTE_FIELDS + rings[s * 2 + 1]!.full.length * BLOCK_TICKS * TRADE_FIELDS;
      }
      const slab = new Float64Array(floats);
      const slabBytes = Buffer.from(slab.buffer);
      let at = 0;
      const take = (count: number) => {
        const b = slabBytes.subarray(at * 8, (at + count) * 8);
        at += count;
        return b;
      };
      for (const s of ids) {
        dirtySyms[s] = 0;
        const q = rings[s * 2]!;
        const t = rings[s * 2 + 1]!;
        const recAt = at;
        const rec = take(LIVE_HEADER + q.count * QUOTE_FIELDS + t.count * TRADE_FIELDS);
        slab[recAt + LIVE_HEADER - 2] = q.count;
        slab[recAt + LIVE_HEADER - 1] = t.count;
        slab.set(q.data.subarray(0, q.count * QUOTE_FIELDS), recAt + LIVE_HEADER);
        slab.set(t.data.subarray(0, t.count * TRADE_FIELDS), recAt + LIVE_HEADER + q.count * QUOTE_FIELDS);
        last = dbs.live.put(s + 1, rec);
        records++;
        for (const ring of [q, t]) {
          for (const block of ring.full) {
            const blockAt = at;
            const value = take(block.data.length);
            slab.set(block.data, blockAt);
            last = dbs.ticks.put([ring.symId, ring.kind, block.blockSeq % RING_BLOCKS], value);
            records++;
            spare[ring.kind]!.push(block.data);
          }
          ring.full.length = 0;
        }
      }
      bytes += slabBytes.byteLength;
      transactions++;
    };

    const feed = async (from: number, to: number, deadline: number): Promise<number> => {
      let i = from;
      while (i < to) {
        const end = Math.min(to, i + BATCH);
        for (; i < end; i++) {
          const s = i % n;
          const round = (i / n) | 0;
          const kind = tape[s] && round % 5 === 4 ? 1 : 0;
          const ring = rings[s * 2 + kind]!;
          const fields = FIELDS[kind]!;
          const at = ring.count * fields;
          ring.data[at] = i;
          ring.data[at + 1] = round;
          ring.data[at + 2] = round + 1;
          ring.data[at + 3] = 1;
          if (fields === QUOTE_FIELDS) {
            ring.data[at + 4] = 1;
            ring.data[at + 5] = round + 1;
          }
          if (++ring.count === BLOCK_TICKS) {
            ring.full.push({ blockSeq: ring.blockSeq++, data: ring.data });
            ring.data = spare[kind]!.pop() ?? new Float64Array(BLOCK_TICKS * fields);
            ring.count = 0;
          }
          if (dirtySyms[s] === 0) {
            dirtySyms[s] = 1;
            dirtyList.push(s);
            if (timer === null) timer = setTimeout(flush, FLUSH_INTERVAL_MS);
          }
        }
        await yieldToLoop();
        if (performance.now() > deadline) break;
      }
      return i - from;
    };

    const durable = async () => {
      if (timer !== null) clearTimeout(timer);
      flush();
      await last;
      await dbs.root.flushed;
    };

    await feed(0, warmupTicks, Infinity);
    await durable();
    transactions = 0;
    records = 0;
    bytes = 0;

    const t0 = performance.now();
    const fed = await feed(warmupTicks, warmupTicks + ticks, t0 + maxSeconds * 1000);
    const f0 = performance.now();
    await durable();
    const t1 = performance.now();
    const seconds = (t1 - t0) / 1000;
    return { ticks: fed, seconds, ticksPerS: fed / seconds, transactions, records, megabytes: bytes / 1e6, finalFlushMs: t1 - f0, symbols: n };
  } finally {
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const ticks = Number(process.argv[2] ?? 1_000_000);
  const maxSeconds = Number(process.argv[3] ?? 10);
  const warmup = Number(process.argv[4] ?? 100_000);
  const result = await runIngestCeiling(ticks, maxSeconds, warmup);
  console.log(`INGEST_CEILING_RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}
