// Built-in perpetual futures: USDT-margined perpetuals on stocks, ETFs, indices, commodities,
// currencies and crypto, each priced as a composite of several venues around the clock. Levels,
// volatility and decimals come from the underlying's own catalog row, so the two stay alike.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import { COMMODITIES } from './commodities.ts';
import { CRYPTO } from './crypto.ts';
import { ETFS } from './etfs.ts';
import { FOREX } from './forex.ts';
import { INDICES } from './indices.ts';
import { STOCKS } from './stocks.ts';

const UNDERLYINGS = new Map<string, InstrumentSpec>([...CRYPTO, ...FOREX, ...STOCKS, ...INDICES, ...ETFS, ...COMMODITIES].map((s) => [s.symbol, s]));

/** A perpetual on `underlying`, served as `<code>USDT`; venues quote a little wider than the underlying. */
function perp(underlying: string, code: string, name: string): InstrumentSpec {
  const u = UNDERLYINGS.get(underlying);
  if (!u) throw new Error(`perpetuals catalog: unknown underlying ${underlying}`);
  return { symbol: `${code}USDT`, assetClass: 'perpetuals', name: `${name} perpetual (USDT)`, price: u.price, volAnnual: u.volAnnual, spreadBps: Math.max(1, u.spreadBps * 2), decimals: u.decimals, lotSize: u.lotSize };
}

//   underlying   code        name
export const PERPETUALS: readonly InstrumentSpec[] = [
  perp('BTCUSD', 'BTC', 'Bitcoin'),
  perp('ETHUSD', 'ETH', 'Ethereum'),
  perp('SOLUSD', 'SOL', 'Solana'),
  perp('XAUUSD', 'XAU', 'Gold'),
  perp('XAGUSD', 'XAG', 'Silver'),
  perp('WTIUSD', 'WTI', 'WTI Crude Oil'),
  perp('US500', 'US500', 'US 500 Index'),
  perp('US100', 'US100', 'US Tech 100 Index'),
  perp('US500ETF', 'US500ETF', 'US 500 Index ETF'),
  perp('EURUSD', 'EUR', 'Euro / US Dollar'),
  perp('GBPUSD', 'GBP', 'British Pound / US Dollar'),
  perp('US:AAPL', 'AAPL', 'Apple Inc.'),
  perp('US:NVDA', 'NVDA', 'NVIDIA Corporation'),
  perp('US:TSLA', 'TSLA', 'Tesla, Inc.'),
];
