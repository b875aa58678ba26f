// The rules an imported bar row must pass before anything is staged (history imports): finite
// prices, OHLC consistency, a volume that is not negative. Each failure names the rule and the
// values, so a report line says what is wrong without opening the file. Pure: no I/O.

export const IMPORT_RULES = {
  parse: "each cell must parse as its column's type",
  finite: 'prices must be finite numbers',
  ohlc: 'low ≤ min(open, close) and max(open, close) ≤ high',
  volume: 'volume must be a finite number ≥ 0',
  aligned: 'time must be the start of a bar of the timeframe',
  complete: 'the bar must have ended',
  order: "rows of a symbol must be in ascending time order, each time once",
  symbol: 'the symbol must be known (or --create-symbols)',
  session: 'sub-daily bars of a session market lie inside its sessions',
} as const;

export type ImportRule = keyof typeof IMPORT_RULES;

export interface RowFault {
  rule: ImportRule;
  message: string;
}

/** The first rule an OHLCV row breaks, or null. `v` is NaN when the row has no volume. */
export function barRowFault(o: number, h: number, l: number, c: number, v: number): RowFault | null {
  if (!Number.isFinite(o) || !Number.isFinite(h) || !Number.isFinite(l) || !Number.isFinite(c)) {
    const bad = ([['open', o], ['high', h], ['low', l], ['close', c]] as const).filter(([, x]) => !Number.isFinite(x)).map(([name, x]) => `${name} ${x}`);
    return { rule: 'finite', message: `${bad.join(', ')}: ${IMPORT_RULES.finite}` };
  }
  if (l > Math.min(o, c) || h < Math.max(o, c) || l > h) {
    return { rule: 'ohlc', message: `open ${o}, high ${h}, low ${l}, close ${c}: ${IMPORT_RULES.ohlc}` };
  }
  if (!Number.isNaN(v) && !(v >= 0 && v !== Infinity)) return { rule: 'volume', message: `volume ${v}: ${IMPORT_RULES.volume}` };
  return null;
}

/** ISO text of an instant for messages (`2024-01-02T09:30:00Z`). */
export function isoOf(tsMs: number): string {
  if (!Number.isFinite(tsMs) || Math.abs(tsMs) > 8.64e15) return String(tsMs);
  return new Date(tsMs).toISOString().replace('.000Z', 'Z');
}
