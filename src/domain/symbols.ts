// Symbol rules per class (spec: "Symbols are trimmed and uppercased"; stocks need `CC:SYMBOL`;
// a prefixed index code is rejected). Turns a raw path segment into a normalized lookup key, a
// 400 that says what is expected, or the class's 404 for a name no symbol of the class can have;
// it never looks anything up.
import type { AssetClass } from './asset-classes.ts';
import { ApiError, badRequest, type ErrorCode } from './errors.ts';

export const MAX_SYMBOL_LENGTH = 32;
/** Checked before upper-casing: toUpperCase maps some non-ASCII letters to ASCII ('ß' → 'SS', 'ſ' → 'S'). */
const SAFE = /^[A-Za-z0-9.:_-]+$/;

interface SymbolRule {
  pattern: RegExp;
  expected: string;
}

const RULES: Record<AssetClass, SymbolRule> = {
  crypto: { pattern: /^[A-Z0-9]{2,20}$/, expected: 'a compact pair such as BTCUSD' },
  forex: { pattern: /^[A-Z]{6}(\.RAW)?$/, expected: 'a six-letter pair such as EURUSD, or its raw line EURUSD.RAW' },
  stocks: { pattern: /^[A-Z]{2}:[A-Z0-9][A-Z0-9.\-]{0,19}$/, expected: 'MARKET:BASE, a two-letter market prefix and a ticker such as US:AAPL' },
  indices: { pattern: /^[A-Z0-9]{2,20}$/, expected: 'a bare index code such as US500' },
  etfs: { pattern: /^[A-Z0-9]{2,20}$/, expected: 'a product code such as US500ETF' },
  commodities: { pattern: /^[A-Z0-9]{2,20}$/, expected: 'a code such as XAUUSD' },
  perpetuals: { pattern: /^[A-Z0-9]{1,20}USDT$/, expected: 'an underlying code followed by USDT, such as BTCUSDT, XAUUSDT or US500USDT' },
  // The overnight lines keep their regular-session names: US stocks as US:TICKER, ETFs by product code.
  overnight: { pattern: /^(US:[A-Z0-9][A-Z0-9.\-]{0,19}|[A-Z0-9]{2,20})$/, expected: 'a US stock as US:TICKER (such as US:AAPL) or a US ETF product code (such as US500ETF)' },
};

/** Human description of the class's symbol format, for 400 messages. */
export function expectedSymbolFormat(assetClass: AssetClass): string {
  return RULES[assetClass].expected;
}

/** The canonical form of the class's symbols (after trimming and uppercasing), as a regex source for the OpenAPI document. */
export function symbolPattern(assetClass: AssetClass): string {
  return RULES[assetClass].pattern.source;
}

/** Quotes user input safely inside a message: printable ASCII only, bounded length. */
export function quoteInput(raw: string): string {
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  return JSON.stringify(shown).replace(/[^\x20-\x7e]/g, '?');
}

/** Trims, uppercases and checks the format of a symbol for a class; throws a 400 otherwise. */
export function normalizeSymbol(assetClass: AssetClass, raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.length === 0) throw badRequest(`missing symbol: expected ${RULES[assetClass].expected}`);
  if (trimmed.length > MAX_SYMBOL_LENGTH || !SAFE.test(trimmed) || trimmed.includes('..')) {
    throw badRequest(`invalid symbol ${quoteInput(raw)}: symbols are at most ${MAX_SYMBOL_LENGTH} characters of A-Z, 0-9, '.', ':', '-'; expected ${RULES[assetClass].expected}`);
  }
  const symbol = trimmed.toUpperCase();
  if (assetClass === 'indices' && symbol.includes(':')) {
    throw badRequest(`invalid index symbol ${quoteInput(raw)}: index codes are bare, without a market prefix (e.g. HK50, not HK:HK50)`);
  }
  if (assetClass === 'stocks' && !RULES.stocks.pattern.test(symbol)) {
    throw badRequest(`invalid stocks symbol ${quoteInput(raw)}: expected MARKET:BASE, a two-letter market prefix and a ticker such as US:AAPL`);
  }
  // Characters every symbol may contain but no symbol of this class has (`BTC-USD`, `EURUSDX`):
  // an unknown symbol, the class's 404 (spec: 400 only for the stocks and index prefix rules).
  if (!RULES[assetClass].pattern.test(symbol)) throw new ApiError(UNKNOWN_SYMBOL_ERROR[assetClass]);
  return symbol;
}

/** The 404 a class answers for a well-formed symbol it does not know. */
export const UNKNOWN_SYMBOL_ERROR: Record<AssetClass, ErrorCode> = {
  crypto: 'UNKNOWN_SYMBOL',
  forex: 'UNKNOWN_SYMBOL',
  stocks: 'UNKNOWN_SYMBOL',
  indices: 'UNKNOWN_SYMBOL',
  etfs: 'UNKNOWN_SYMBOL',
  commodities: 'COMMODITY_NOT_SUPPORTED',
  perpetuals: 'UNKNOWN_SYMBOL',
  overnight: 'UNKNOWN_SYMBOL',
};

/** The 404 a class answers when a known symbol has no last trade to resolve (spec error table). */
export const NO_TRADE_ERROR: Record<AssetClass, ErrorCode> = {
  crypto: 'NO_TRADE',
  forex: 'NO_TRADE',
  stocks: 'NO_TRADE',
  indices: 'SYMBOL_NOT_AVAILABLE',
  etfs: 'SYMBOL_NOT_AVAILABLE',
  commodities: 'NO_FRESH_TRADE',
  perpetuals: 'NO_TRADE',
  overnight: 'NO_TRADE',
};

/** The 503 a class answers when its data cannot be read right now (spec error table). */
export const UNAVAILABLE_ERROR: Record<AssetClass, ErrorCode> = {
  crypto: 'MARKET_DATA_UNAVAILABLE',
  forex: 'MARKET_DATA_UNAVAILABLE',
  stocks: 'MARKET_DATA_UNAVAILABLE',
  indices: 'MARKET_DATA_UNAVAILABLE',
  etfs: 'MARKET_DATA_UNAVAILABLE',
  commodities: 'SERVICE_UNAVAILABLE',
  perpetuals: 'MARKET_DATA_UNAVAILABLE',
  overnight: 'MARKET_DATA_UNAVAILABLE',
};
