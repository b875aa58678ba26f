// Built-in commodities. The unit is stated in every name; SUGARUSD is in US cents per pound (spec).
// CANOLAUSD is the ICE canola contract (CAD per tonne) converted to a USD-per-tonne equivalent.
// Aliases are exactly the spec's: USOILUSD, CL1 -> WTIUSD; XBRUSD, BZUSD -> BRENTUSD; HG1 -> COPPERUSD.
// lotSize is the standard futures contract size in the quote unit's base (oz, barrels, MMBtu, lb, tonnes, bushels).
import type { InstrumentSpec } from '../../domain/instrument.ts';

export const COMMODITIES: readonly InstrumentSpec[] = [
  { symbol: 'XAUUSD', assetClass: 'commodities', name: 'Gold (USD per troy ounce)', market: 'COMMODITIES', price: 4000, volAnnual: 0.18, spreadBps: 1, decimals: 2, lotSize: 100 },
  { symbol: 'XAGUSD', assetClass: 'commodities', name: 'Silver (USD per troy ounce)', market: 'COMMODITIES', price: 50, volAnnual: 0.35, spreadBps: 3, decimals: 3, lotSize: 5000 },
  { symbol: 'XPTUSD', assetClass: 'commodities', name: 'Platinum (USD per troy ounce)', market: 'COMMODITIES', price: 1550, volAnnual: 0.3, spreadBps: 5, decimals: 2, lotSize: 50 },
  { symbol: 'WTIUSD', assetClass: 'commodities', name: 'WTI Crude Oil (USD per barrel)', market: 'COMMODITIES', aliases: ['USOILUSD', 'CL1'], price: 60, volAnnual: 0.35, spreadBps: 3, decimals: 2, lotSize: 1000 },
  { symbol: 'BRENTUSD', assetClass: 'commodities', name: 'Brent Crude Oil (USD per barrel)', market: 'COMMODITIES', aliases: ['XBRUSD', 'BZUSD'], price: 64, volAnnual: 0.32, spreadBps: 3, decimals: 2, lotSize: 1000 },
  { symbol: 'NGASUSD', assetClass: 'commodities', name: 'Natural Gas (USD per MMBtu)', market: 'COMMODITIES', price: 4.5, volAnnual: 0.6, spreadBps: 5, decimals: 3, lotSize: 10000 },
  { symbol: 'COPPERUSD', assetClass: 'commodities', name: 'Copper (USD per pound)', market: 'COMMODITIES', aliases: ['HG1'], price: 5.0, volAnnual: 0.25, spreadBps: 3, decimals: 4, lotSize: 25000 },
  { symbol: 'SUGARUSD', assetClass: 'commodities', name: 'Sugar No. 11 (US cents per pound)', market: 'COMMODITIES', price: 15, volAnnual: 0.3, spreadBps: 10, decimals: 2, lotSize: 112000 },
  { symbol: 'CANOLAUSD', assetClass: 'commodities', name: 'Canola (USD per tonne equivalent)', market: 'COMMODITIES', price: 455, volAnnual: 0.22, spreadBps: 15, decimals: 2, lotSize: 20 },
  { symbol: 'CORNUSD', assetClass: 'commodities', name: 'Corn (USD per bushel)', market: 'COMMODITIES', price: 4.35, volAnnual: 0.22, spreadBps: 6, decimals: 4, lotSize: 5000 },
];
