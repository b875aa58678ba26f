// The record of a history build that runs in the background after the server opens (the
// simulator's first start): how far back it has come and where each series' walk continues.
// Kept in the store's metadata, so `/health`, `/coverage` and a restart read the same progress.

/** The metadata key of the record. */
export const HISTORY_BUILD_META = 'historyBuild';

export interface HistoryBuildRecord {
  /** The minute boundary the build ends at: the first start's minute. */
  endMs: number;
  /**
   * Where the recent history written before serving ends: `endMs`, or later when minutes ended while
   * it was made (the catch-up gives those minutes their bars, so the series meets the live feed).
   */
  headToMs?: number;
  seed: number;
  /** Calendar days of 1-minute bars and years of daily bars the build makes. */
  minuteDays: number;
  years: number;
  /** When the build began (service clock). */
  startedMs: number;
  /** Steps (stretches of time, newest first) finished, out of `stepsTotal`. */
  stepsDone: number;
  stepsTotal: number;
  /** Every series of the build holds its history from here to `endMs`; older time is not built yet. */
  builtFromMs: number;
  /** Where the build ends: the oldest bar any series gets. */
  targetFromMs: number;
  /** By registry key: the open of the oldest bar built so far, where the series' backward walk goes on. */
  anchors: Record<string, number>;
  /** When the build finished (service clock), or null while it runs. */
  doneMs: number | null;
}

/** The time a build has yet to fill, [targetFromMs, builtFromMs), or null once it is done. */
export function unbuiltInterval(record: HistoryBuildRecord | undefined): { fromMs: number; toMs: number } | null {
  if (record === undefined || record.doneMs !== null || record.builtFromMs <= record.targetFromMs) return null;
  return { fromMs: record.targetFromMs, toMs: record.builtFromMs };
}
