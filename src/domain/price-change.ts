// Change against the previous close, as every snapshot serves it (spec: Snapshot `change`,
// `change_percent`). One rule for every class, composites included.

/** Decimals of `change_percent`: finer than one price increment of any instrument, so rounding only removes float noise. */
export const CHANGE_PERCENT_DECIMALS = 8;

function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** `change` rounded two decimals finer than the instrument; `change_percent` null when the close is 0 or missing. */
export function priceChange(lastPrice: number | null, prevClose: number | null, decimals: number): { change: number | null; changePercent: number | null } {
  if (lastPrice === null || prevClose === null) return { change: null, changePercent: null };
  const change = round(lastPrice - prevClose, decimals + 2);
  return { change, changePercent: prevClose ? round((change / prevClose) * 100, CHANGE_PERCENT_DECIMALS) : null };
}
