// Opens a history file for `mds import bars` / `mds import ticks`: works out the preset, format,
// container, symbol and timeframe at once (a file that cannot be read that way throws before any
// row), then streams it as columnar batches with the problems of the rows it could not parse.
import type { AssetClass } from '../../../domain/asset-classes.ts';
import type { Timeframe } from '../../../domain/timeframes.ts';
import { InputFileError } from '../fundamentals-file.ts';
import { decompressedChunks, readHead, withoutCompressionSuffix, type FileHead } from './byte-stream.ts';
import { TimeReader } from './cell-values.ts';
import { CsvRowParser, type CsvSetup } from './csv-rows.ts';
import { NdjsonRowParser } from './ndjson-rows.ts';
import { openParquet, readParquetGroups } from './parquet-rows.ts';
import { binanceFileName, guessPreset, isDataRecord, presetDef, resolveColumns, timeframeOfInterval, type PresetDef, type RowKind } from './presets.ts';
import { BAR_SHAPE, BAR_SLOTS, CODE_SKIP, RowBuilder, TICK_SHAPE, TICK_SLOTS, type RawBatch, type RowShape } from './row-builder.ts';
import type { MappedSymbol, SymbolMapper, ValueContext } from './row-values.ts';
import type { BarBatch, BarFile, BarReadOptions, InputFormat, RowProblem, TickBatch, TickFile, TickReadOptions } from './types.ts';

const DEFAULT_BATCH_ROWS = 8192;
/** Problems are handed out with the next batch, or on their own once this many wait. */
const PROBLEMS_PER_HAND_OUT = 1024;
const SYMBOL_CACHE_LIMIT = 100_000;


type AnyOptions = BarReadOptions | TickReadOptions;

interface RawOut {
  raw: RawBatch;
  problems: RowProblem[];
  bytesRead: number;
}

/** The format a file name implies (after any compression suffix), or null. */
export function formatOfName(path: string): InputFormat | null {
  const name = withoutCompressionSuffix(path).toLowerCase();
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.parquet') || name.endsWith('.pq')) return 'parquet';
  return null;
}

function isParquetMagic(head: FileHead): boolean {
  const m = head.magic;
  return head.container === 'plain' && m.length === 4 && m[0] === 0x50 && m[1] === 0x41 && m[2] === 0x52 && m[3] === 0x31;
}

function withPath(path: string, err: unknown): unknown {
  if (err instanceof InputFileError && !err.message.startsWith(`${path}:`)) return new InputFileError(`${path}: ${err.message}`);
  return err;
}

function cachedMapper(map: SymbolMapper, assetClass: AssetClass | undefined): SymbolMapper {
  const cache = new Map<string, MappedSymbol>();
  return (raw) => {
    let mapped = cache.get(raw);
    if (mapped === undefined) {
      const m = map(raw);
      mapped = assetClass === undefined ? m : { symbol: m.symbol, classHint: assetClass };
      if (cache.size >= SYMBOL_CACHE_LIMIT) cache.clear();
      cache.set(raw, mapped);
    }
    return mapped;
  };
}

function emptyRaw(shape: RowShape): RawBatch {
  return { length: 0, line: new Float64Array(0), tMs: new Float64Array(0), nums: Array.from({ length: shape.slots }, () => new Float64Array(0)), symbol: [], classHint: [], kind: shape.ticks ? new Uint8Array(0) : null };
}

interface Plan {
  path: string;
  kind: RowKind;
  def: PresetDef;
  format: InputFormat;
  head: FileHead;
  timeframe: Timeframe | null;
  fixed: MappedSymbol | null;
  mapSymbol: SymbolMapper;
  time: TimeReader;
  batchRows: number;
  reuseBatches: boolean;
  mapping: Readonly<Record<string, string | undefined>>;
}

function plan(kind: RowKind, path: string, opts: AnyOptions & { timeframe?: Timeframe }): Plan {
  try {
    const def = presetDef(kind, opts.preset ?? guessPreset(kind, path));
    const tz = opts.tz ?? 'UTC';
    if (!TimeReader.isValidZone(tz)) throw new InputFileError(`unknown time zone ${JSON.stringify(tz)} (an IANA name such as America/New_York, or UTC)`);
    const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
    if (!Number.isInteger(batchRows) || batchRows < 1) throw new InputFileError(`batchRows must be a positive integer, not ${batchRows}`);
    const head = readHead(path);
    // An empty file is a mistake (a download cut at the start, a wrong name), never a file of no rows.
    if (head.sizeBytes === 0) throw new InputFileError(`the file is empty (0 bytes)${/\.(gz|zst)$/i.test(path) ? `, so not ${/\.gz$/i.test(path) ? 'gzip' : 'zstd'} data` : ''}; there is no row to import`);
    const format = opts.format ?? formatOfName(path) ?? (isParquetMagic(head) ? 'parquet' : def.id === 'generic' ? null : 'csv');
    if (format === null) throw new InputFileError('cannot tell the format from the name (.csv, .ndjson, .jsonl or .parquet, optionally .gz or .zst); give the format (csv, ndjson or parquet)');
    if (format === 'parquet' && head.container !== 'plain') throw new InputFileError(`a Parquet file cannot be read ${head.container}-compressed as a whole; decompress it first (its pages may be compressed)`);
    let timeframe: Timeframe | null = opts.timeframe ?? null;
    let symbol = opts.symbol;
    if (symbol !== undefined && symbol.trim() === '') throw new InputFileError('the symbol given is empty');
    if (def.symbolFromFileName) {
      const named = binanceFileName(def.id, path);
      if (named !== null) {
        symbol ??= named.symbol;
        if (kind === 'bars' && timeframe === null) timeframe = timeframeOfInterval(path, named.interval!);
      } else if (symbol === undefined || (kind === 'bars' && timeframe === null)) {
        const example = def.id === 'binance-klines' ? 'BTCUSDT-1m-2024-01.csv' : def.id === 'binance-trades' ? 'BTCUSDT-trades-2024-01-01.csv' : 'BTCUSDT-aggTrades-2024-01-01.csv';
        throw new InputFileError(`cannot tell the ${kind === 'bars' ? 'symbol and interval' : 'symbol'} from the file name (named like ${example}); give ${kind === 'bars' ? 'the symbol and timeframe' : 'the symbol'}`);
      }
    }
    if (kind === 'bars' && timeframe === null && def.timeframeOfPath !== undefined) {
      timeframe = def.timeframeOfPath(path);
      if (timeframe === null) throw new InputFileError('cannot tell the timeframe from the path (minute_aggs or day_aggs); give the timeframe');
    }
    const mapSymbol = cachedMapper(def.mapSymbol, opts.assetClass);
    return {
      path,
      kind,
      def,
      format,
      head,
      timeframe,
      fixed: symbol === undefined ? null : mapSymbol(symbol.trim()),
      mapSymbol,
      time: new TimeReader(opts.timeUnit, tz),
      batchRows,
      reuseBatches: opts.reuseBatches === true,
      mapping: opts.columns ?? {},
    };
  } catch (err) {
    throw withPath(path, err);
  }
}

function csvSetup(p: Plan, seen: { header: boolean }): CsvSetup {
  return {
    layoutFor(cells, line) {
      const isData = isDataRecord(cells);
      seen.header = !isData;
      if (isData && (p.def.header === 'required' || p.def.positional === undefined)) throw new InputFileError(`line ${line}: the first row is data, but preset ${p.def.id} needs a header row naming the columns`);
      const names = isData ? p.def.positional! : cells;
      const resolved = resolveColumns(p.kind, p.def, names, p.mapping, p.fixed !== null);
      return { layout: { codes: resolved.codes, names: resolved.names, counts: isData ? (p.def.counts ?? [names.length]) : [cells.length] }, firstIsData: isData };
    },
    onEmpty() {
      if (p.def.header === 'required') throw new InputFileError(`the file is empty: preset ${p.def.id} needs a header row naming the columns`);
    },
  };
}

async function* rawBatches(p: Plan): AsyncGenerator<RawOut> {
  const shape = p.kind === 'bars' ? BAR_SHAPE : TICK_SHAPE;
  const builder = new RowBuilder(p.path, shape, p.batchRows, p.fixed);
  const ctx: ValueContext = { builder, time: p.time, mapSymbol: p.mapSymbol };
  let bytesRead = 0;
  /** Rows read, parsed or not: a file that has none is refused at its end. */
  let rows = 0;
  const seen = { header: false };
  const pending: RowProblem[] = [];
  function* handOut(final: boolean): Generator<RawOut> {
    const { batches, problems } = builder.take();
    rows += problems.length;
    for (const problem of problems) pending.push(problem);
    for (const raw of batches) {
      rows += raw.length;
      yield { raw, problems: pending.splice(0), bytesRead };
      // Asked for the next one: with reuseBatches the consumer is done with this batch.
      if (p.reuseBatches) builder.recycle(raw);
    }
    if (pending.length >= PROBLEMS_PER_HAND_OUT || (final && pending.length > 0)) yield { raw: emptyRaw(shape), problems: pending.splice(0), bytesRead };
  }
  try {
    if (p.format === 'parquet') {
      const source = await openParquet(p.path);
      const resolved = resolveColumns(p.kind, p.def, source.columns, p.mapping, p.fixed !== null);
      const picked = [...resolved.codes.keys()].filter((i) => resolved.codes[i] !== CODE_SKIP);
      const selected = { columns: picked.map((i) => source.columns[i]!), codes: Uint8Array.from(picked.map((i) => resolved.codes[i]!)) };
      const total = Math.max(1, Number(source.metadata.num_rows));
      for await (const rowsRead of readParquetGroups(source, ctx, selected)) {
        bytesRead = Math.round((p.head.sizeBytes * rowsRead) / total);
        yield* handOut(false);
      }
    } else {
      const parser =
        p.format === 'csv'
          ? new CsvRowParser(builder, csvSetup(p, seen), p.time, p.mapSymbol)
          : new NdjsonRowParser(ctx, (keys) => {
              const resolved = resolveColumns(p.kind, p.def, keys, p.mapping, p.fixed !== null);
              const picked = [...resolved.codes.keys()].filter((i) => resolved.codes[i] !== CODE_SKIP);
              return { keys: picked.map((i) => keys[i]!), codes: Uint8Array.from(picked.map((i) => resolved.codes[i]!)) };
            });
      let isFirst = true;
      for await (const chunk of decompressedChunks(p.path, p.head.container, (n) => (bytesRead = n))) {
        if (isFirst) refuseBinary(chunk, p.format);
        isFirst = false;
        parser.push(chunk);
        yield* handOut(false);
      }
      parser.finish();
    }
    builder.close();
    yield* handOut(true);
    if (rows === 0) throw new InputFileError(`${seen.header ? 'the file holds a header row and no data rows' : 'the file holds no rows'}; there is no row to import`);
  } catch (err) {
    throw withPath(p.path, err);
  }
}

/**
 * A text format's first chunk with a NUL byte is binary (an executable, an archive, a UTF-16 file):
 * refused with where, instead of its bytes echoed back as column names.
 */
function refuseBinary(chunk: Uint8Array, format: InputFormat): void {
  const at = chunk.indexOf(0);
  if (at < 0) return;
  let line = 1;
  for (let i = 0; i < at; i++) if (chunk[i] === 0x0a) line++;
  throw new InputFileError(`line ${line}: binary data (a NUL byte at byte ${at}), not ${format === 'csv' ? 'CSV' : 'NDJSON'} text (UTF-8); a Parquet file is read as such when named .parquet or given as parquet`);
}

function toBarBatch(file: string, out: RawOut): { batch: BarBatch; problems: RowProblem[] } {
  const r = out.raw;
  const nums = r.nums;
  return {
    batch: { file, length: r.length, line: r.line, symbol: r.symbol, classHint: r.classHint, tMs: r.tMs, o: nums[BAR_SLOTS.o]!, h: nums[BAR_SLOTS.h]!, l: nums[BAR_SLOTS.l]!, c: nums[BAR_SLOTS.c]!, v: nums[BAR_SLOTS.v]!, bytesRead: out.bytesRead },
    problems: out.problems,
  };
}

function toTickBatch(file: string, out: RawOut): { batch: TickBatch; problems: RowProblem[] } {
  const r = out.raw;
  const nums = r.nums;
  return {
    batch: {
      file,
      length: r.length,
      line: r.line,
      symbol: r.symbol,
      classHint: r.classHint,
      kind: r.kind!,
      tMs: r.tMs,
      bid: nums[TICK_SLOTS.bid]!,
      ask: nums[TICK_SLOTS.ask]!,
      bidSize: nums[TICK_SLOTS.bid_size]!,
      askSize: nums[TICK_SLOTS.ask_size]!,
      price: nums[TICK_SLOTS.price]!,
      size: nums[TICK_SLOTS.size]!,
      bytesRead: out.bytesRead,
    },
    problems: out.problems,
  };
}

async function* mapped<T>(source: AsyncIterable<RawOut>, convert: (out: RawOut) => T): AsyncGenerator<T> {
  for await (const out of source) yield convert(out);
}

/**
 * Opens a bar file. Throws an InputFileError at once when the file cannot be read as asked (missing,
 * unreadable, unknown preset, no symbol or timeframe to be had); the batches throw one when the file
 * turns out unreadable on the way (a bad header, truncated or corrupt compressed data).
 */
export function openBarFile(path: string, opts: BarReadOptions = {}): BarFile {
  const p = plan('bars', path, opts);
  return {
    info: { path, format: p.format, preset: p.def.id, timeframe: p.timeframe, sizeBytes: p.head.sizeBytes },
    batches: { [Symbol.asyncIterator]: () => mapped(rawBatches(p), (out) => toBarBatch(path, out)) },
  };
}

/** Opens a tick file (quotes, trades, or both); errors as for openBarFile. */
export function openTickFile(path: string, opts: TickReadOptions = {}): TickFile {
  const p = plan('ticks', path, opts);
  return {
    info: { path, format: p.format, preset: p.def.id, sizeBytes: p.head.sizeBytes },
    batches: { [Symbol.asyncIterator]: () => mapped(rawBatches(p), (out) => toTickBatch(path, out)) },
  };
}
