// Validates one file's bar rows and stages them in the import journal, series by series, in
// bounded blocks: a file is staged whole or not at all (its fault count decides), and nothing is
// applied to the bars here. Per row: the symbol, the OHLCV rules, alignment to the timeframe, a
// bar that has ended, ascending time per symbol.
import { barRowFault, IMPORT_RULES, isoOf, type ImportRule, type RowFault } from '../../../domain/bar-import.ts';
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { CLASS_POLICY } from '../../../domain/asset-classes.ts';
import { TIMEFRAME_INFO, type Timeframe } from '../../../domain/timeframes.ts';
import { alignmentFor, type BarAlignment } from '../../../market/bar-alignment.ts';
import { getMarket } from '../../../market/registry.ts';
import { localDateOf } from '../../../market/zoned-time.ts';
import type { Store, ImportRecord } from '../../../store/index.ts';
import { ImportSymbols, type ImportTarget } from './import-symbols.ts';

/** Rows per staged block of one series. */
export const STAGE_BLOCK_ROWS = 8192;
const BAR_FIELDS = 6;

/** One batch of parsed rows (columnar), as the file readers hand them over. */
export interface BarRows {
  length: number;
  line: ArrayLike<number>;
  symbol: readonly string[];
  classHint: readonly (AssetClass | null)[];
  tMs: ArrayLike<number>;
  o: ArrayLike<number>;
  h: ArrayLike<number>;
  l: ArrayLike<number>;
  c: ArrayLike<number>;
  v: ArrayLike<number>;
  /** Bytes of the file consumed so far. */
  bytesRead: number;
  /** Rows of the batch's stretch of file that could not be parsed at all (faults too). */
  problems?: readonly { line: number; message: string }[];
}

export interface StageOptions {
  timeframe: '1m' | '1d';
  assetClass: AssetClass | null;
  createSymbols: boolean;
  /** Zones whose midnight also starts a daily bar (flat files date days in New York; --tz). */
  dailyZones: readonly string[];
  nowMs: number;
  onConflict: 'skip' | 'replace';
  /** A row that broke a rule; `count` > 1 for a report folded over rows (an unknown symbol). */
  onFault(line: number, fault: RowFault): void;
  onProgress?(rows: number, bytesRead: number): void;
  /** Stop staging once this many rows were refused (the file is then dropped). */
  maxFaults: number;
  /** Bars starting before this are past the data dir's retention for the timeframe (counted, kept). */
  retentionCutoffMs?: number;
}

export interface StageReport {
  rows: number;
  staged: number;
  faults: number;
  /** Faults per rule. */
  byRule: Partial<Record<ImportRule, number>>;
  /** Sub-daily rows of session markets outside their sessions: left out, not faults. */
  outsideSession: number;
  /** Series staged. */
  series: number;
  /** Symbols to be added with the file. */
  newSymbols: number;
  /** Whether the fault bound stopped the file (nothing of it is kept). */
  aborted: boolean;
  /** Rows staged that are older than the retention of their timeframe: a retention pass removes them. */
  pastRetention: number;
}

interface Series {
  target: ImportTarget;
  align: BarAlignment;
  hasVolume: boolean;
  zones: readonly string[];
  lastT: number;
  lastLine: number;
  buf: Float64Array;
  n: number;
  /** Staged blocks: [offset, bytes] in the import's staging file. */
  blocks: [number, number][];
}

/** Stages one file's rows under `record`; the caller marks it staged (or discards it) afterwards. */
export class BarStager {
  private readonly series = new Map<string, Series>();
  private readonly symbols: ImportSymbols;
  readonly report: StageReport = { rows: 0, staged: 0, faults: 0, byRule: {}, outsideSession: 0, series: 0, newSymbols: 0, aborted: false, pastRetention: 0 };
  private readonly tfIndex: number;
  private readonly cutoffMs: number;
  private readonly durationMs: number;
  /** Unknown-symbol faults are reported once per symbol (with the first line), counted per row. */
  private readonly refusedSymbols = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly record: ImportRecord,
    private readonly opts: StageOptions,
  ) {
    this.symbols = new ImportSymbols(store.registry, { assetClass: opts.assetClass, create: opts.createSymbols });
    this.tfIndex = TIMEFRAME_INFO[opts.timeframe].index;
    this.cutoffMs = opts.retentionCutoffMs ?? -Infinity;
    this.durationMs = TIMEFRAME_INFO[opts.timeframe].durationMs;
  }

  /** Takes one batch; false once the fault bound is passed (stop reading). */
  async add(rows: BarRows): Promise<boolean> {
    const report = this.report;
    // Unparseable rows are reported in line order among the others.
    const problems = rows.problems ?? [];
    let p = 0;
    for (let i = 0; i <= rows.length; i++) {
      const line = i < rows.length ? rows.line[i]! : Infinity;
      while (p < problems.length && problems[p]!.line < line) {
        report.rows++;
        if (this.fault(problems[p]!.line, { rule: 'parse', message: problems[p]!.message })) return false;
        p++;
      }
      if (i === rows.length) break;
      report.rows++;
      const target = this.symbols.resolve(rows.symbol[i]!, rows.classHint[i] ?? null);
      if (typeof target === 'string') {
        const raw = rows.symbol[i]!;
        if (!this.refusedSymbols.has(raw)) {
          this.refusedSymbols.add(raw);
          this.opts.onFault(line, { rule: 'symbol', message: target });
        }
        if (this.count('symbol')) return false;
        continue;
      }
      const s = this.seriesOf(target);
      const o = rows.o[i]!;
      const h = rows.h[i]!;
      const l = rows.l[i]!;
      const c = rows.c[i]!;
      const v = s.hasVolume ? rows.v[i]! : NaN;
      const fault = barRowFault(o, h, l, c, v);
      if (fault) {
        if (this.fault(line, fault)) return false;
        continue;
      }
      let t = rows.tMs[i]!;
      if (this.opts.timeframe === '1d') {
        t = this.dailyStart(t, s.zones);
        if (Number.isNaN(t)) {
          if (this.fault(line, { rule: 'aligned', message: `time ${isoOf(rows.tMs[i]!)} is not a midnight (UTC${s.zones.length ? ` or ${s.zones.join(', ')}` : ''}): ${IMPORT_RULES.aligned} 1d` })) return false;
          continue;
        }
      } else {
        if (!s.align.accepts(t)) {
          report.outsideSession++;
          continue;
        }
        const start = s.align.barStart(t, '1m');
        if (start !== t) {
          if (this.fault(line, { rule: 'aligned', message: `time ${isoOf(t)} is not the start of a 1m bar (${isoOf(start)} is): ${IMPORT_RULES.aligned}` })) return false;
          continue;
        }
      }
      const endMs = s.align.barEnd(t, this.opts.timeframe);
      if (endMs > this.opts.nowMs) {
        if (this.fault(line, { rule: 'complete', message: `the ${this.opts.timeframe} bar at ${isoOf(t)} ends ${isoOf(endMs)}, after now: ${IMPORT_RULES.complete}` })) return false;
        continue;
      }
      if (t <= s.lastT) {
        const what = t === s.lastT ? `a second bar for ${target.symbol} at ${isoOf(t)} (first on line ${s.lastLine})` : `${target.symbol} at ${isoOf(t)} comes after ${isoOf(s.lastT)} (line ${s.lastLine})`;
        if (this.fault(line, { rule: 'order', message: `${what}: ${IMPORT_RULES.order}` })) return false;
        continue;
      }
      s.lastT = t;
      s.lastLine = line;
      if (t < this.cutoffMs) report.pastRetention++;
      if (target.entry === null) this.symbols.notePrice(target, h);
      const at = s.n * BAR_FIELDS;
      const buf = s.buf;
      buf[at] = t;
      buf[at + 1] = o;
      buf[at + 2] = h;
      buf[at + 3] = l;
      buf[at + 4] = c;
      buf[at + 5] = v;
      if (++s.n === STAGE_BLOCK_ROWS) this.stage(s);
      report.staged++;
    }
    this.opts.onProgress?.(report.rows, rows.bytesRead);
    return true;
  }

  /** Stages what is buffered. Returns the record to mark staged. */
  finish(): ImportRecord {
    for (const s of this.series.values()) if (s.n > 0) this.stage(s);
    const staged = [...this.series.values()].filter((s) => s.blocks.length > 0);
    this.report.series = staged.length;
    this.report.newSymbols = this.newSymbols().length;
    return { ...this.record, series: staged.map((s) => [s.target.key, this.tfIndex, s.blocks]), newSymbols: this.report.newSymbols };
  }

  /** Symbols to add to the registry before the staged import is marked ready. */
  newSymbols() {
    return [...this.symbols.toCreate.values()].filter((s) => (this.series.get(`${s.assetClass}|${s.symbol}`)?.blocks.length ?? 0) > 0);
  }

  private stage(s: Series): void {
    s.blocks.push(this.store.imports.stageBlock(this.record.id, s.buf, s.n));
    s.n = 0;
  }

  private lastTarget: ImportTarget | null = null;
  private lastSeries: Series | null = null;

  private seriesOf(target: ImportTarget): Series {
    if (target === this.lastTarget) return this.lastSeries!;
    this.lastTarget = target;
    return (this.lastSeries = this.findSeries(target));
  }

  private findSeries(target: ImportTarget): Series {
    const id = `${target.assetClass}|${target.symbol}`;
    let s = this.series.get(id);
    if (!s) {
      const market = target.entry?.market ?? (target.assetClass === 'stocks' ? 'US' : null);
      const zone = market ? getMarket(market)?.timezone : undefined;
      s = {
        target,
        align: alignmentFor({ assetClass: target.assetClass, market }),
        hasVolume: CLASS_POLICY[target.assetClass].hasVolume,
        zones: [...new Set([...(zone ? [zone] : []), ...this.opts.dailyZones])],
        lastT: -Infinity,
        lastLine: 0,
        buf: new Float64Array(STAGE_BLOCK_ROWS * BAR_FIELDS),
        n: 0,
        blocks: [],
      };
      this.series.set(id, s);
    }
    return s;
  }

  /** Counts a refused row; true when the bound is passed. */
  private count(rule: ImportRule): boolean {
    const report = this.report;
    report.faults++;
    report.byRule[rule] = (report.byRule[rule] ?? 0) + 1;
    if (report.faults > this.opts.maxFaults) report.aborted = true;
    return report.aborted;
  }

  private fault(line: number, fault: RowFault): boolean {
    this.opts.onFault(line, fault);
    return this.count(fault.rule);
  }

  /** The UTC-midnight start of the daily bar a row's time names, or NaN when it is no midnight. */
  private dailyStart(tMs: number, zones: readonly string[]): number {
    if (tMs % 86_400_000 === 0) return tMs;
    for (const zone of zones) {
      const date = localDateOf(tMs, zone);
      const utc = Date.parse(`${date}T00:00:00Z`);
      if (localDateOf(tMs - 1, zone) !== date) return utc;
    }
    return NaN;
  }
}
