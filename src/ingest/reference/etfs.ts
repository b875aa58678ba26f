// Built-in ETFs: product codes with product-generic names (no issuer brands), US-listed, USD per share.
// Levels are approximate recent real levels of the largest fund tracking each exposure.
import type { InstrumentSpec } from '../../domain/instrument.ts';

export const ETFS: readonly InstrumentSpec[] = [
  // the spec's curated codes
  { symbol: 'US500ETF', assetClass: 'etfs', name: 'US 500 Index ETF', market: 'US', price: 680, volAnnual: 0.16, spreadBps: 1, decimals: 2, lotSize: 100 },
  { symbol: 'US100ETF', assetClass: 'etfs', name: 'US Tech 100 Index ETF', market: 'US', price: 610, volAnnual: 0.21, spreadBps: 1, decimals: 2, lotSize: 100 },
  { symbol: 'USBOND', assetClass: 'etfs', name: 'US Aggregate Bond ETF', market: 'US', price: 100, volAnnual: 0.05, spreadBps: 1.5, decimals: 2, lotSize: 100 },
  { symbol: 'USGOLD', assetClass: 'etfs', name: 'Gold Bullion ETF', market: 'US', price: 370, volAnnual: 0.18, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'WORLDETF', assetClass: 'etfs', name: 'Global Equity Index ETF', market: 'US', price: 140, volAnnual: 0.15, spreadBps: 2, decimals: 2, lotSize: 100 },
  // further curated codes
  { symbol: 'US30ETF', assetClass: 'etfs', name: 'US 30 Index ETF', market: 'US', price: 475, volAnnual: 0.15, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'USSMALLCAP', assetClass: 'etfs', name: 'US Small Cap Index ETF', market: 'US', price: 245, volAnnual: 0.22, spreadBps: 1, decimals: 2, lotSize: 100 },
  { symbol: 'USTECHETF', assetClass: 'etfs', name: 'US Technology Sector ETF', market: 'US', price: 290, volAnnual: 0.25, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'USFINANCE', assetClass: 'etfs', name: 'US Financials Sector ETF', market: 'US', price: 53, volAnnual: 0.2, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'USENERGY', assetClass: 'etfs', name: 'US Energy Sector ETF', market: 'US', price: 90, volAnnual: 0.24, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'USREIT', assetClass: 'etfs', name: 'US Real Estate ETF', market: 'US', price: 90, volAnnual: 0.18, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'USHYBOND', assetClass: 'etfs', name: 'US High Yield Corporate Bond ETF', market: 'US', price: 80, volAnnual: 0.06, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'USTBILL', assetClass: 'etfs', name: 'US Treasury Bill 0-3 Month ETF', market: 'US', price: 91.5, volAnnual: 0.005, spreadBps: 1.5, decimals: 2, lotSize: 100 },
  { symbol: 'USSILVER', assetClass: 'etfs', name: 'Silver Bullion ETF', market: 'US', price: 45, volAnnual: 0.35, spreadBps: 3, decimals: 2, lotSize: 100 },
  { symbol: 'EMERGETF', assetClass: 'etfs', name: 'Emerging Markets Equity ETF', market: 'US', price: 54, volAnnual: 0.18, spreadBps: 2, decimals: 2, lotSize: 100 },
  { symbol: 'EUROETF', assetClass: 'etfs', name: 'Europe Equity Index ETF', market: 'US', price: 80, volAnnual: 0.16, spreadBps: 2, decimals: 2, lotSize: 100 },
];
