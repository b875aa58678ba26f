// What every bench returns: one row per measurement, with the ceiling beside it when there is one,
// the target from the tracker issue and whether it was met. The runner prints, saves and checks rows.

export type BenchName = 'quote' | 'quote-floor' | 'quote-steps' | 'range' | 'ingest' | 'fanout' | 'fanout-conflate' | 'venue-parse' | 'venue-feed' | 'venue-e2e' | 'reconnect-flood' | 'first-run' | 'workers';
export const BENCHES: readonly BenchName[] = ['quote', 'quote-floor', 'quote-steps', 'range', 'ingest', 'fanout', 'fanout-conflate', 'venue-parse', 'venue-feed', 'venue-e2e', 'reconnect-flood', 'first-run', 'workers'];

export interface Row {
  /** Stable id, the key of the baseline: `quote.crypto.BTCUSD`, `range.5000`, `ingest`, `fanout`. */
  id: string;
  bench: BenchName;
  label: string;
  /** Unit of `value` and `ceiling`: req/s, ticks/s, msg/s. */
  unit: string;
  /** Throughput of the ceiling measured just before ours, when the bench has one. */
  ceiling: number | null;
  ceilingP50Ms: number | null;
  ceilingP99Ms: number | null;
  /** Our throughput. */
  value: number;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Response bodies in MB (10^6 bytes) per second. */
  mbPerS: number | null;
  /** value / ceiling. */
  ratio: number | null;
  /** The target, as printed. */
  target: string;
  /** Target met (null: no target for this row). */
  pass: boolean | null;
  /** What --check compares with the baseline: the ratio when there is a ceiling, else the value. */
  checkOn: 'ratio' | 'value';
  /** Problems that make the number suspect (errors, non-2xx, closed connections). */
  problems: string[];
  notes: string[];
  /** Raw numbers for the JSON report. */
  details: Record<string, unknown>;
}

export interface BenchContext {
  /** Seconds per main measurement. */
  durationS: number;
  /** Seconds of load before each measurement (JIT, caches, connection setup). */
  warmupS: number;
  log(line: string): void;
}

export function checkedValue(row: Pick<Row, 'checkOn' | 'ratio' | 'value'>): number | null {
  return row.checkOn === 'ratio' ? row.ratio : row.value;
}
