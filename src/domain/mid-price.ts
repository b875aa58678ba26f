// The mid of a consolidated quote as every served value shows it: bars built from mids, the
// last-trade fallback and the perpetuals' mark all round it the same way, so a bar's close
// equals the fallback last price of the same quote and no float noise (1.1596825000000002) shows.

/**
 * Scale of a line's served mid: one decimal finer than the instrument (the last-trade fallback's
 * rule, spec: "deterministic midpoint"); perpetual marks are two finer (their bid and ask are one).
 */
export function midScaleOf(decimals: number, extraDecimals: 1 | 2 = 1): number {
  return 10 ** (decimals + extraDecimals);
}

/** The mid of bid and ask rounded at `scale` (from midScaleOf); no allocation, for per-tick use. */
export function roundedMid(bid: number, ask: number, scale: number): number {
  return Math.round(((bid + ask) / 2) * scale) / scale;
}
