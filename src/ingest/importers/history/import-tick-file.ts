// One file of ticks, imported as history: the ticks run through the live ingest path (the
// symbol's consolidation policy and the bar builder) over a scratch store on a clock at the ticks'
// own time, so the bars are the ones the server would have built live from the same ticks; the
// completed minutes then go through the bar import (staged whole, merged, rolled up). The ticks
// themselves are not kept: the ticks ring holds recent live ticks, not history.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../clock.ts';
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { isoOf, type RowFault } from '../../../domain/bar-import.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { Store } from '../../../store/index.ts';
import { Pipeline } from '../../pipeline.ts';
import { importBarFile, type FileImport, type FileImportOptions } from './import-bar-file.ts';
import { ImportSymbols } from './import-symbols.ts';
import { isProcessAlive } from './import-watcher.ts';
import type { BarRows } from './stage-bars.ts';

export const TICK_KIND = { quote: 0, trade: 1 } as const;

/** One batch of parsed tick rows (columnar); NaN where a column is absent. */
export interface TickRows {
  length: number;
  line: ArrayLike<number>;
  symbol: readonly string[];
  classHint: readonly (AssetClass | null)[];
  /** 0 quote, 1 trade. */
  kind: ArrayLike<number>;
  tMs: ArrayLike<number>;
  bid: ArrayLike<number>;
  ask: ArrayLike<number>;
  bidSize: ArrayLike<number>;
  askSize: ArrayLike<number>;
  price: ArrayLike<number>;
  size: ArrayLike<number>;
  bytesRead: number;
  /** Rows that could not be parsed at all (faults too). */
  problems?: readonly { line: number; message: string }[];
}

export interface TickImportReport {
  ticks: number;
  quotes: number;
  trades: number;
  /** Ticks refused (faults). */
  faults: number;
  aborted: boolean;
}

export interface TickFileImport extends FileImport {
  ticks: TickImportReport;
}

const MINUTE_ROWS = 8192;

/** The minutes a tick file makes, then imported as bars with the same options (timeframe 1m). */
export async function importTickFile(store: Store, source: string, batches: AsyncIterable<TickRows>, opts: FileImportOptions): Promise<TickFileImport> {
  // Scratch stores of imports that died (named by their process) go first.
  for (const name of readdirSync(store.dataDir)) {
    const pid = Number(/^\.import-ticks-(\d+)-/.exec(name)?.[1]);
    if (pid > 0 && pid !== process.pid && !isProcessAlive(pid)) rmSync(join(store.dataDir, name), { recursive: true, force: true });
  }
  const scratchDir = mkdtempSync(join(store.dataDir, `.import-ticks-${process.pid}-`));
  const scratch = Store.open({ dataDir: scratchDir, flushIntervalMs: 1000 });
  const ticks: TickImportReport = { ticks: 0, quotes: 0, trades: 0, faults: 0, aborted: false };
  try {
    const clock = new ManualClock(-Infinity);
    const pipeline = new Pipeline(scratch, clock);
    const symbols = new ImportSymbols(store.registry, { assetClass: opts.assetClass, create: opts.createSymbols });
    /** Per symbol of the file: its line in the scratch store and its last tick time. */
    const lines = new Map<string, { scratchId: number; entry: SymbolEntry; firstT: number; lastT: number; lastLine: number }>();
    const fault = (line: number, f: RowFault): boolean => {
      opts.onFault(line, f);
      ticks.faults++;
      if (ticks.faults > opts.maxFaults) ticks.aborted = true;
      return ticks.aborted;
    };
    const refused = new Set<string>();
    outer: for await (const rows of batches) {
      // Unparseable rows are reported in line order among the others.
      const problems = rows.problems ?? [];
      let p = 0;
      for (let i = 0; i <= rows.length; i++) {
        const lineNo = i < rows.length ? rows.line[i]! : Infinity;
        while (p < problems.length && problems[p]!.line < lineNo) {
          ticks.ticks++;
          if (fault(problems[p]!.line, { rule: 'parse', message: problems[p]!.message })) break outer;
          p++;
        }
        if (i === rows.length) break;
        ticks.ticks++;
        const raw = rows.symbol[i]!;
        const target = symbols.resolve(raw, rows.classHint[i] ?? null);
        if (typeof target === 'string') {
          if (!refused.has(raw)) {
            refused.add(raw);
            opts.onFault(lineNo, { rule: 'symbol', message: target });
          }
          ticks.faults++;
          if (ticks.faults > opts.maxFaults) {
            ticks.aborted = true;
            break outer;
          }
          continue;
        }
        let line = lines.get(target.key);
        if (!line) {
          const entry: SymbolEntry = target.entry ?? { id: 0, symbol: target.symbol, assetClass: target.assetClass, name: target.symbol, market: target.assetClass === 'stocks' ? 'US' : null, baseSymbol: null, aliases: [], listed: true, decimals: 8 };
          const { id: _, ...spec } = entry;
          scratch.registry.upsert([spec]);
          const scratchEntry = scratch.registry.resolve(entry.assetClass, entry.symbol)!;
          pipeline.addLine(scratchEntry);
          lines.set(target.key, (line = { scratchId: scratchEntry.id, entry, firstT: NaN, lastT: -Infinity, lastLine: 0 }));
        }
        const t = rows.tMs[i]!;
        if (!Number.isFinite(t)) {
          if (fault(lineNo, { rule: 'finite', message: `time ${t}: ticks need a time` })) break outer;
          continue;
        }
        if (t < line.lastT) {
          if (fault(lineNo, { rule: 'order', message: `${target.symbol} at ${isoOf(t)} comes after ${isoOf(line.lastT)} (line ${line.lastLine}): ticks of a symbol must be in time order` })) break outer;
          continue;
        }
        if (t >= opts.nowMs) {
          if (fault(lineNo, { rule: 'complete', message: `tick at ${isoOf(t)} is not in the past` })) break outer;
          continue;
        }
        if (rows.kind[i] === TICK_KIND.quote) {
          const bid = rows.bid[i]!;
          const ask = rows.ask[i]!;
          if (!(bid > 0 && ask > 0 && Number.isFinite(bid) && Number.isFinite(ask) && bid <= ask)) {
            if (fault(lineNo, { rule: 'finite', message: `bid ${bid}, ask ${ask}: a quote needs finite prices > 0 with bid ≤ ask` })) break outer;
            continue;
          }
          const bs = rows.bidSize[i]!;
          const as = rows.askSize[i]!;
          // The rule for empty sides (docs/feeds.md): a size of 0 is an empty side, and a quote needs both.
          if (bs === 0 || as === 0 || bs < 0 || as < 0) {
            if (fault(lineNo, { rule: 'finite', message: `bid_size ${bs}, ask_size ${as}: a side of size 0 is empty and a quote needs both sides (leave a size empty when it is not known)` })) break outer;
            continue;
          }
          clock.set(t);
          pipeline.quote(line.scratchId, 0, t, bid, ask, Number.isFinite(bs) ? bs : null, Number.isFinite(as) ? as : null);
          ticks.quotes++;
        } else {
          const price = rows.price[i]!;
          const size = rows.size[i]!;
          if (!(price > 0 && Number.isFinite(price)) || size < 0 || size === Infinity) {
            if (fault(lineNo, { rule: 'finite', message: `price ${price}, size ${size}: a trade needs a finite price > 0 and a size ≥ 0` })) break outer;
            continue;
          }
          clock.set(t);
          pipeline.trade(line.scratchId, 0, t, price, Number.isFinite(size) ? size : null);
          ticks.trades++;
        }
        if (Number.isNaN(line.firstT)) line.firstT = t;
        line.lastT = t;
        line.lastLine = lineNo;
      }
      opts.onProgress?.(ticks.ticks, rows.bytesRead);
      // The scratch store's writes go out as the file is read, not all at the end.
      await scratch.flush();
    }
    if (ticks.aborted) return { outcome: 'rejected', report: emptyReport(ticks), result: null, importId: 0, ticks };
    // Every minute that has ended by now is complete: seal them (the last one of each symbol too).
    pipeline.bars.sealDue(opts.nowMs);
    const taken = [...lines.values()].filter((l) => !Number.isNaN(l.firstT));
    const minutes = minuteRows(taken.map((l) => ({ scratchId: l.scratchId, symbol: l.entry.symbol, assetClass: l.entry.assetClass, fromMs: l.firstT - (l.firstT % 60_000) })), scratch);
    const done = await importBarFile(store, source, minutes, { ...opts, timeframe: '1m', maxFaults: opts.maxFaults - ticks.faults });
    return { ...done, ticks };
  } finally {
    await scratch.close();
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

function emptyReport(ticks: TickImportReport): FileImport['report'] {
  return { rows: ticks.ticks, staged: 0, faults: ticks.faults, byRule: {}, outsideSession: 0, series: 0, newSymbols: 0, aborted: true, pastRetention: 0 };
}

/** The scratch store's completed minutes of each symbol, as bar rows for the bar import. */
async function* minuteRows(symbols: { scratchId: number; symbol: string; assetClass: AssetClass; fromMs: number }[], scratch: Store): AsyncGenerator<BarRows> {
  for (const s of symbols) {
    let fromMs = s.fromMs;
    const endMs = (scratch.lastCompletedBarT(s.scratchId, '1m') ?? -Infinity) + 1;
    while (fromMs < endMs) {
      // Five days of minutes (fewer than MINUTE_ROWS) per read: a read walks every chunk span of its window.
      const slice = scratch.barsInRange(s.scratchId, '1m', fromMs, Math.min(endMs, fromMs + 5 * 86_400_000));
      if (slice.count === 0) {
        fromMs += 5 * 86_400_000;
        continue;
      }
      if (slice.count === 0) break;
      const n = Math.min(slice.count, MINUTE_ROWS);
      const d = slice.data;
      const col = (k: number) => Float64Array.from({ length: n }, (_, i) => d[i * 6 + k]!);
      yield { length: n, line: new Float64Array(n), symbol: new Array(n).fill(s.symbol), classHint: new Array(n).fill(s.assetClass), tMs: col(0), o: col(1), h: col(2), l: col(3), c: col(4), v: col(5), bytesRead: 0 };
      fromMs = d[(n - 1) * 6]! + 1;
    }
  }
}
