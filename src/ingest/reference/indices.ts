// Built-in indices: bare product-generic codes; `market` is the home market whose calendar applies
// (EU50 trades on Eurex / Xetra hours, so DE). Levels are approximate recent real levels in index points.
import type { InstrumentSpec } from '../../domain/instrument.ts';

export const INDICES: readonly InstrumentSpec[] = [
  { symbol: 'US500', assetClass: 'indices', name: 'US 500 Index', market: 'US', price: 6800, volAnnual: 0.16, spreadBps: 0.5, decimals: 2, lotSize: 1 },
  { symbol: 'US100', assetClass: 'indices', name: 'US Tech 100 Index', market: 'US', price: 25000, volAnnual: 0.21, spreadBps: 0.6, decimals: 2, lotSize: 1 },
  { symbol: 'US30', assetClass: 'indices', name: 'US 30 Index', market: 'US', price: 47500, volAnnual: 0.15, spreadBps: 0.6, decimals: 1, lotSize: 1 },
  { symbol: 'DE40', assetClass: 'indices', name: 'Germany 40 Index', market: 'DE', price: 24000, volAnnual: 0.18, spreadBps: 0.5, decimals: 1, lotSize: 1 },
  { symbol: 'EU50', assetClass: 'indices', name: 'Euro 50 Index', market: 'DE', price: 5700, volAnnual: 0.17, spreadBps: 2, decimals: 1, lotSize: 1 },
  { symbol: 'JP225', assetClass: 'indices', name: 'Japan 225 Index', market: 'JP', price: 50000, volAnnual: 0.24, spreadBps: 1.5, decimals: 1, lotSize: 1 },
  { symbol: 'HK50', assetClass: 'indices', name: 'Hong Kong 50 Index', market: 'HK', price: 26000, volAnnual: 0.24, spreadBps: 2.5, decimals: 1, lotSize: 1 },
  { symbol: 'UK100', assetClass: 'indices', name: 'UK 100 Index', market: 'GB', price: 9700, volAnnual: 0.14, spreadBps: 1, decimals: 1, lotSize: 1 },
  { symbol: 'FR40', assetClass: 'indices', name: 'France 40 Index', market: 'FR', price: 8100, volAnnual: 0.17, spreadBps: 1.5, decimals: 1, lotSize: 1 },
];
