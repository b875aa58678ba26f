// The built-in instruments a vendor upstream supplies by default, with the vendor's symbol for
// each: US stocks by ticker, crypto pairs and forex pairs split by a separator (`BTC-USD`, `EUR/USD`).
import type { FeedInstrument } from '../../domain/feed.ts';
import { CRYPTO, FOREX, STOCKS } from '../reference/catalog.ts';

/** US stocks of the catalog as `US:AAPL` ↔ `AAPL`. */
export function usStockInstruments(limit = Infinity): FeedInstrument[] {
  return STOCKS.filter((s) => s.market === 'US' && s.baseSymbol !== undefined)
    .slice(0, limit)
    .map((s) => ({ assetClass: 'stocks', symbol: s.symbol, venueSymbol: s.baseSymbol!, name: s.name, decimals: s.decimals }));
}

/** A six-letter or compact pair (`BTCUSD`, `EURUSD`) as `BTC<sep>USD`: the quote currency is the last three letters. */
export function splitPair(symbol: string, separator: string): string | null {
  return /^[A-Z0-9]{2,12}[A-Z]{3}$/.test(symbol) ? `${symbol.slice(0, -3)}${separator}${symbol.slice(-3)}` : null;
}

export function pairInstruments(assetClass: 'crypto' | 'forex', separator: string): FeedInstrument[] {
  const specs = assetClass === 'crypto' ? CRYPTO : FOREX;
  return specs.map((s) => ({ assetClass, symbol: s.symbol, venueSymbol: splitPair(s.symbol, separator)!, name: s.name, decimals: s.decimals }));
}

/** `US:AAPL` → `AAPL`; null for another market or a malformed symbol. */
export function usTickerOf(symbol: string): string | null {
  return symbol.startsWith('US:') && symbol.length > 3 ? symbol.slice(3) : null;
}
