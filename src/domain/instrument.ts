// Reference data of one instrument: identity, display name, where it trades, and the parameters
// the built-in simulator prices it with.
import type { AssetClass } from './asset-classes.ts';

export interface InstrumentSpec {
  /** Canonical symbol as served: `BTCUSD`, `EURUSD`, `US:AAPL`, `US500`, `US500ETF`, `XAUUSD`. */
  symbol: string;
  assetClass: AssetClass;
  /** Display name (product-generic for ETFs). */
  name: string;
  /** Market code whose calendar says when it trades: `US`, `DE`, ... for stocks; the home market for indices. */
  market?: string;
  /** Stocks: the ticker without the market prefix. */
  baseSymbol?: string;
  /** Commodities: alternative codes that resolve to this symbol (`CL1` → `WTIUSD`). */
  aliases?: string[];
  /** Reference price level the simulator starts near, in the quote unit (SUGARUSD: cents per pound). */
  price: number;
  /** Annualised volatility, e.g. 0.6 for BTC, 0.07 for EURUSD. */
  volAnnual: number;
  /** Typical quoted spread in basis points of the price. */
  spreadBps: number;
  /** Number of decimals prices are rounded to. */
  decimals: number;
  /** Typical trade / quote size in units of the instrument. */
  lotSize: number;
  /** Stocks: listed as a depositary receipt (ADR/GDR). */
  isDepositaryReceipt?: boolean;
}

/** A symbol as the registry knows it: reference data plus its stable storage id. */
export interface SymbolEntry {
  id: number;
  symbol: string;
  assetClass: AssetClass;
  name: string;
  market: string | null;
  baseSymbol: string | null;
  aliases: string[];
  /** False for lines that are served but not listed (the forex `<PAIR>.RAW` lines). */
  listed: boolean;
  decimals: number;
}
