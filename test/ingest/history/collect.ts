// Test helpers for the history readers: drain a file's batches into plain row objects (NaN kept
// as NaN) and its problems, and write fixture copies compressed or under another name.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { openBarFile, openTickFile, type BarReadOptions, type RowProblem, type TickReadOptions } from '../../../src/ingest/importers/history/index.ts';

export const FIXTURES = join(import.meta.dir, '../../fixtures/history');

export interface BarRow {
  line: number;
  symbol: string;
  classHint: string | null;
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

export interface TickRow {
  line: number;
  symbol: string;
  classHint: string | null;
  kind: 'quote' | 'trade';
  t: number;
  bid: number;
  ask: number;
  bidSize: number;
  askSize: number;
  price: number;
  size: number;
}

export async function readBars(path: string, opts: BarReadOptions = {}): Promise<{ rows: BarRow[]; problems: RowProblem[]; batchLengths: number[]; lastBytesRead: number }> {
  const rows: BarRow[] = [];
  const problems: RowProblem[] = [];
  const batchLengths: number[] = [];
  let lastBytesRead = 0;
  for await (const { batch: b, problems: p } of openBarFile(path, opts).batches) {
    batchLengths.push(b.length);
    lastBytesRead = b.bytesRead;
    problems.push(...p);
    for (const a of [b.line, b.tMs, b.o, b.h, b.l, b.c, b.v, b.symbol, b.classHint]) if (a.length !== b.length) throw new Error('a batch array is not of the batch length');
    for (let i = 0; i < b.length; i++) rows.push({ line: b.line[i]!, symbol: b.symbol[i]!, classHint: b.classHint[i]!, t: b.tMs[i]!, o: b.o[i]!, h: b.h[i]!, l: b.l[i]!, c: b.c[i]!, v: b.v[i]! });
  }
  return { rows, problems, batchLengths, lastBytesRead };
}

export async function readTicks(path: string, opts: TickReadOptions = {}): Promise<{ rows: TickRow[]; problems: RowProblem[] }> {
  const rows: TickRow[] = [];
  const problems: RowProblem[] = [];
  for await (const { batch: b, problems: p } of openTickFile(path, opts).batches) {
    problems.push(...p);
    for (let i = 0; i < b.length; i++)
      rows.push({
        line: b.line[i]!,
        symbol: b.symbol[i]!,
        classHint: b.classHint[i]!,
        kind: b.kind[i] === 0 ? 'quote' : 'trade',
        t: b.tMs[i]!,
        bid: b.bid[i]!,
        ask: b.ask[i]!,
        bidSize: b.bidSize[i]!,
        askSize: b.askSize[i]!,
        price: b.price[i]!,
        size: b.size[i]!,
      });
  }
  return { rows, problems };
}

/** Copies of a fixture (path relative to FIXTURES, kept below dir): as is, gzip (`.gz`) and zstd (`.zst`). */
export function containerCopies(relative: string, dir: string): Record<'plain' | 'gz' | 'zst', string> {
  const bytes = readFileSync(join(FIXTURES, relative));
  const plain = join(dir, relative);
  mkdirSync(dirname(plain), { recursive: true });
  writeFileSync(plain, bytes);
  writeFileSync(`${plain}.gz`, gzipSync(bytes));
  writeFileSync(`${plain}.zst`, zstdCompressSync(bytes));
  return { plain, gz: `${plain}.gz`, zst: `${plain}.zst` };
}
