// Vendor tickers ↔ mds symbols: Massive's `AAPL`, `X:BTCUSD`, `C:EURUSD`, `I:SPX` and Alpaca's
// `AAPL`, `BTC/USD` name the mds classes' symbols `US:AAPL`, `BTCUSD`, `EURUSD`, `US500`. Only the
// names are translated here; resolving them (404s, markets, plans) stays with the native queries.
import type { AssetClass } from '../../domain/asset-classes.ts';

/** A vendor ticker as an mds class and symbol (not yet resolved). */
export interface MdsTicker {
  assetClass: AssetClass;
  symbol: string;
}

/**
 * Index tickers whose vendor names differ from the mds codes (the usual US benchmarks). Every
 * other mds index is reachable as `I:` + its code (`I:DE40`), and is named so in answers.
 */
const INDEX_ALIASES: Readonly<Record<string, string>> = { SPX: 'US500', NDX: 'US100', DJI: 'US30' };
const INDEX_NAMES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(INDEX_ALIASES).map(([vendor, code]) => [code, vendor]));

/** Massive ticker → mds class and symbol; null for a ticker no mds class takes (options `O:`, futures). */
export function fromMassiveTicker(ticker: string): MdsTicker | null {
  const t = ticker.trim().toUpperCase();
  if (t.startsWith('X:')) return { assetClass: 'crypto', symbol: t.slice(2) };
  if (t.startsWith('C:')) return { assetClass: 'forex', symbol: t.slice(2) };
  if (t.startsWith('I:')) return { assetClass: 'indices', symbol: INDEX_ALIASES[t.slice(2)] ?? t.slice(2) };
  // Any other prefix (O: options, future codes) is a class mds does not serve.
  if (t.includes(':') || t.length === 0) return null;
  return { assetClass: 'stocks', symbol: `US:${t}` };
}

/** mds class and symbol → the Massive ticker that names it. */
export function toMassiveTicker(assetClass: AssetClass, symbol: string): string {
  switch (assetClass) {
    case 'crypto':
      return `X:${symbol}`;
    case 'forex':
      return `C:${symbol}`;
    case 'indices':
      return `I:${INDEX_NAMES[symbol] ?? symbol}`;
    default:
      return symbol.startsWith('US:') ? symbol.slice(3) : symbol;
  }
}

/** The quote currencies a compact mds crypto pair may end in, longest first (`BTCUSDT` before `BTCUSD`). */
const CRYPTO_QUOTES = ['USDT', 'USDC', 'USD', 'EUR', 'BTC', 'ETH'];

/** Alpaca crypto pair `BTC/USD` → mds `BTCUSD`; null without the slash. */
export function fromAlpacaCrypto(pair: string): string | null {
  const [base, quote, ...rest] = pair.trim().toUpperCase().split('/');
  return base && quote && rest.length === 0 ? `${base}${quote}` : null;
}

/** mds `BTCUSD` → Alpaca `BTC/USD`. */
export function toAlpacaCrypto(symbol: string): string {
  for (const quote of CRYPTO_QUOTES) if (symbol.length > quote.length && symbol.endsWith(quote)) return `${symbol.slice(0, -quote.length)}/${quote}`;
  return symbol;
}

/** Alpaca stock symbol → mds `US:` symbol (Alpaca's stock data is US only). */
export function fromAlpacaStock(symbol: string): string {
  return `US:${symbol.trim().toUpperCase()}`;
}
