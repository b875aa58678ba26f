// Vendor tickers ↔ mds symbols: Massive's `AAPL`, `X:BTCUSD`, `C:EURUSD`, `I:SPX` and Alpaca's
// `AAPL`, `BTC/USD` name the mds classes' symbols `US:AAPL`, `BTCUSD`, `EURUSD`, `US500`. Only the
// names are translated here, by the rules the compatible streams use too (domain/compat-tickers.ts);
// resolving them (404s, markets, plans) stays with the native queries.
import type { AssetClass } from '../../domain/asset-classes.ts';
import { indexFromTicker, pairFromVendor, stockFromTicker, tickerOfIndex, tickerOfStock, vendorPair } from '../../domain/compat-tickers.ts';

/** A vendor ticker as an mds class and symbol (not yet resolved). */
export interface MdsTicker {
  assetClass: AssetClass;
  symbol: string;
}

/** Massive ticker → mds class and symbol; null for a ticker no mds class takes (options `O:`, futures). */
export function fromMassiveTicker(ticker: string): MdsTicker | null {
  const t = ticker.trim().toUpperCase();
  if (t.startsWith('X:')) return { assetClass: 'crypto', symbol: t.slice(2) };
  if (t.startsWith('C:')) return { assetClass: 'forex', symbol: t.slice(2) };
  const index = indexFromTicker(t);
  if (index !== null) return { assetClass: 'indices', symbol: index };
  // Any other prefix (O: options, future codes) is a class mds does not serve.
  if (t.includes(':') || t.length === 0) return null;
  return { assetClass: 'stocks', symbol: stockFromTicker(t) };
}

/** mds class and symbol → the Massive ticker that names it. */
export function toMassiveTicker(assetClass: AssetClass, symbol: string): string {
  switch (assetClass) {
    case 'crypto':
      return `X:${symbol}`;
    case 'forex':
      return `C:${symbol}`;
    case 'indices':
      return tickerOfIndex(symbol);
    default:
      return tickerOfStock(symbol) ?? symbol;
  }
}

/** Alpaca crypto pair `BTC/USD` → mds `BTCUSD`; null without the slash. */
export function fromAlpacaCrypto(pair: string): string | null {
  return pairFromVendor(pair.trim(), '/');
}

/** mds `BTCUSD` → Alpaca `BTC/USD`. */
export function toAlpacaCrypto(symbol: string): string {
  return vendorPair(symbol, '/') ?? symbol;
}

/** Alpaca stock symbol → mds `US:` symbol (Alpaca's stock data is US only). */
export function fromAlpacaStock(symbol: string): string {
  return stockFromTicker(symbol.trim());
}
