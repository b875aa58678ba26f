// Vendor tickers ↔ mds symbols for the compatibility dialects: US stocks by bare ticker (`AAPL` ↔
// `US:AAPL`), crypto and forex pairs split by the vendor's separator (`BTC-USD`, `BTC/USD`,
// `EUR/USD` ↔ `BTCUSD`, `EURUSD`), indices with the `I:` prefix (`I:SPX` ↔ `US500`). Pure string
// rules: whether the symbol exists is the registry's answer, as on the native stream.

/** `I:` index tickers that name an mds index by its usual market name; every other index is `I:<mds code>`. */
export const INDEX_ALIASES: Readonly<Record<string, string>> = { SPX: 'US500', NDX: 'US100', DJI: 'US30' };
const ALIAS_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(INDEX_ALIASES).map(([alias, code]) => [code, alias]));

/** `AAPL` → `US:AAPL`: vendor stock tickers are US listings. */
export function stockFromTicker(ticker: string): string {
  return `US:${ticker.toUpperCase()}`;
}

/** `US:AAPL` → `AAPL`; null for another market's stock. */
export function tickerOfStock(symbol: string): string | null {
  return symbol.startsWith('US:') ? symbol.slice(3) : null;
}

/** `BTC-USD` (separator `-`) → `BTCUSD`; null when the text is not one pair with that separator. */
export function pairFromVendor(text: string, separator: string): string | null {
  const parts = text.toUpperCase().split(separator);
  if (parts.length !== 2 || !/^[A-Z0-9]{1,17}$/.test(parts[0]!) || !/^[A-Z]{3}$/.test(parts[1]!)) return null;
  return parts[0]! + parts[1]!;
}

/** `BTCUSD` → `BTC-USD`: the quote currency is the last three letters (mds pairs are quoted in a three-letter currency). */
export function vendorPair(symbol: string, separator: string): string | null {
  return /^[A-Z0-9]{1,17}[A-Z]{3}$/.test(symbol) ? `${symbol.slice(0, -3)}${separator}${symbol.slice(-3)}` : null;
}

/** `I:SPX` or `I:US500` → `US500`; null without the prefix. */
export function indexFromTicker(ticker: string): string | null {
  const upper = ticker.toUpperCase();
  if (!upper.startsWith('I:') || upper.length < 3) return null;
  const code = upper.slice(2);
  return INDEX_ALIASES[code] ?? code;
}

/** `US500` → `I:SPX`; `DE40` → `I:DE40`. */
export function tickerOfIndex(symbol: string): string {
  return `I:${ALIAS_OF[symbol] ?? symbol}`;
}
