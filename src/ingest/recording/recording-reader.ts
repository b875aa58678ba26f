// Walks a recording (its files in time order) as a stream of record blocks, each with the feed and
// source tables in force where it lies: declarations add to them, a reset (the start of a file, or
// of a run that appended to it) replaces them. `scanRecording` reads only headers and declarations.
import type { FeedInstrument } from '../../domain/feed.ts';
import { readBlocks, readDeclarations, type NoteSink } from './recording-file.ts';
import { unpackRecords, type DeclaredFeed, type DeclaredSource, type RecordColumns } from './recording-format.ts';

/** The feeds and sources a stretch of a recording declares, by the index records use. */
export interface SegmentTables {
  feeds: (DeclaredFeed | undefined)[];
  sources: (DeclaredSource | undefined)[];
  /** Changes whenever the tables do: a reader keeps what it derived from them until then. */
  generation: number;
}

export interface RecordsBlock {
  file: string;
  offset: number;
  tables: SegmentTables;
  records: RecordColumns;
}

/** What a recording holds, from headers and declarations alone. */
export interface RecordingSummary {
  files: string[];
  /** Every feed declared, merged by id in order of first appearance (instruments merged by class and symbol). */
  feeds: { id: string; instruments: FeedInstrument[] }[];
  /** Every source name in order of first declaration: the order consolidation gave them when recorded. */
  sources: string[];
  records: number;
  /** Service-clock times of the first and last record, or null when there are none. */
  firstAtMs: number | null;
  lastAtMs: number | null;
}

let generations = 0;

function apply(tables: SegmentTables | null, content: Uint8Array, isReset: boolean, where: string, note: NoteSink): SegmentTables | null {
  const decl = readDeclarations(content);
  if (typeof decl === 'string') {
    note(`${where}: declarations do not decode (${decl}): records that need them are skipped`);
    return isReset ? null : tables;
  }
  const next: SegmentTables = isReset || tables === null ? { feeds: [], sources: [], generation: 0 } : tables;
  for (const f of decl.feeds) next.feeds[f.index] = f;
  for (const s of decl.sources) next.sources[s.index] = s;
  next.generation = ++generations;
  return next;
}

/** The records blocks of `files` in order; what cannot be read is skipped with a note. */
export function* recordBlocks(files: readonly string[], note: NoteSink): Generator<RecordsBlock> {
  for (const file of files) {
    // Tables never carry over between files: each file declares what its records use.
    let tables: SegmentTables | null = null;
    for (const block of readBlocks(file, note)) {
      const where = `${file} (byte ${block.offset})`;
      if (block.header.type === 'declare') {
        tables = apply(block.header.isReset ? null : tables, block.content!, block.header.isReset, where, note);
        continue;
      }
      if (tables === null) {
        note(`${where}: ${block.header.records} records come before any declaration of their feeds: skipped`);
        continue;
      }
      const records = unpackRecords(block.content!, block.header.records);
      if (typeof records === 'string') {
        note(`${where}: records do not decode (${records}): ${block.header.records} records skipped`);
        continue;
      }
      yield { file, offset: block.offset, tables, records };
    }
  }
}

/** Reads headers and declarations only (no record is decompressed). */
export function scanRecording(files: readonly string[], note: NoteSink): RecordingSummary {
  const summary: RecordingSummary = { files: [...files], feeds: [], sources: [], records: 0, firstAtMs: null, lastAtMs: null };
  const seenInstruments = new Map<string, Set<string>>();
  for (const file of files) {
    for (const block of readBlocks(file, note, (h) => h.type === 'declare')) {
      const h = block.header;
      if (h.type === 'records') {
        summary.records += h.records;
        if (h.records > 0) {
          summary.firstAtMs ??= h.firstAtMs;
          summary.lastAtMs = h.lastAtMs;
        }
        continue;
      }
      const decl = readDeclarations(block.content!);
      if (typeof decl === 'string') continue;
      for (const f of decl.feeds) {
        let feed = summary.feeds.find((x) => x.id === f.id);
        if (!feed) {
          feed = { id: f.id, instruments: [] };
          summary.feeds.push(feed);
          seenInstruments.set(f.id, new Set());
        }
        const seen = seenInstruments.get(f.id)!;
        for (const inst of f.instruments) {
          const key = `${inst.assetClass}:${inst.symbol}`;
          if (seen.has(key)) continue;
          seen.add(key);
          feed.instruments.push(inst);
        }
      }
      for (const s of decl.sources) if (!summary.sources.includes(s.name)) summary.sources.push(s.name);
    }
  }
  return summary;
}
