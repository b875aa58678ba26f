// Reads a recording into plain objects (feed, source and symbol by name) for assertions.
import { listRecordingFiles } from '../../src/ingest/recording/recording-file.ts';
import { KIND_QUOTE, KIND_STALE, KIND_SWEEP, KIND_TRADE } from '../../src/ingest/recording/recording-format.ts';
import { recordBlocks } from '../../src/ingest/recording/recording-reader.ts';

export type RecordedEvent =
  | { kind: 'quote'; atMs: number; feed: string; source: string; symbol: string; tsMs: number; bid: number; ask: number; bidSize: number | null; askSize: number | null }
  | { kind: 'trade'; atMs: number; feed: string; source: string; symbol: string; tsMs: number; price: number; size: number | null }
  | { kind: 'stale'; atMs: number; feed: string; source: string; symbol: string }
  | { kind: 'sweep'; atMs: number };

const orNull = (x: number) => (Number.isNaN(x) ? null : x);

export function readRecording(path: string): { events: RecordedEvent[]; notes: string[] } {
  const notes: string[] = [];
  const files = listRecordingFiles(path);
  if (typeof files === 'string') return { events: [], notes: [files] };
  const events: RecordedEvent[] = [];
  for (const { tables, records: r } of recordBlocks(files, (t) => notes.push(t))) {
    for (let i = 0; i < r.count; i++) {
      const atMs = r.atMs[i]!;
      const kind = r.kind[i]!;
      if (kind === KIND_SWEEP) {
        events.push({ kind: 'sweep', atMs });
        continue;
      }
      const src = tables.sources[r.source[i]!];
      const feed = src ? tables.feeds[src.feed] : undefined;
      if (!src || !feed) throw new Error(`record ${i} names an undeclared source ${r.source[i]}`);
      const base = { atMs, feed: feed.id, source: src.name, symbol: feed.instruments[r.instrument[i]!]!.symbol };
      if (kind === KIND_QUOTE) events.push({ kind: 'quote', ...base, tsMs: r.tsMs[i]!, bid: r.v0[i]!, ask: r.v1[i]!, bidSize: orNull(r.v2[i]!), askSize: orNull(r.v3[i]!) });
      else if (kind === KIND_TRADE) events.push({ kind: 'trade', ...base, tsMs: r.tsMs[i]!, price: r.v0[i]!, size: orNull(r.v1[i]!) });
      else if (kind === KIND_STALE) events.push({ kind: 'stale', ...base });
    }
  }
  return { events, notes };
}
