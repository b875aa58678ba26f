// Built-in crypto pairs, all quoted in US dollars. Levels are approximate recent real levels;
// `lot` is in coin units (roughly 5-10k USD per lot).
import type { InstrumentSpec } from '../../domain/instrument.ts';

function pair(base: string, coin: string, price: number, decimals: number, volAnnual: number, spreadBps: number, lot: number): InstrumentSpec {
  return { symbol: `${base}USD`, assetClass: 'crypto', name: `${coin} / US Dollar`, price, volAnnual, spreadBps, decimals, lotSize: lot };
}

//   base    coin name           price     dec  vol   bps  lot
export const CRYPTO: readonly InstrumentSpec[] = [
  pair('BTC', 'Bitcoin', 95000, 2, 0.55, 1, 0.1),
  pair('ETH', 'Ethereum', 3200, 2, 0.7, 1.5, 2),
  pair('SOL', 'Solana', 140, 2, 0.85, 2, 50),
  pair('XRP', 'XRP', 2.2, 4, 0.8, 3, 2000),
  pair('BNB', 'BNB', 900, 2, 0.55, 2, 5),
  pair('ADA', 'Cardano', 0.45, 5, 0.85, 4, 10000),
  pair('DOGE', 'Dogecoin', 0.16, 5, 0.9, 4, 50000),
  pair('AVAX', 'Avalanche', 15, 3, 0.9, 4, 500),
  pair('DOT', 'Polkadot', 2.8, 4, 0.85, 5, 2000),
  pair('LINK', 'Chainlink', 14, 3, 0.85, 4, 500),
  pair('LTC', 'Litecoin', 95, 2, 0.7, 4, 50),
  pair('BCH', 'Bitcoin Cash', 500, 2, 0.7, 5, 10),
  pair('TRX', 'TRON', 0.29, 5, 0.55, 5, 20000),
  pair('XLM', 'Stellar', 0.26, 5, 0.85, 5, 20000),
  pair('UNI', 'Uniswap', 6.5, 3, 0.95, 6, 1000),
  pair('ATOM', 'Cosmos', 3.0, 3, 0.85, 6, 2000),
  pair('NEAR', 'NEAR Protocol', 2.2, 4, 0.95, 6, 2000),
  pair('AAVE', 'Aave', 190, 2, 0.9, 6, 20),
  pair('ETC', 'Ethereum Classic', 14, 3, 0.8, 6, 500),
  pair('FIL', 'Filecoin', 1.8, 4, 0.95, 7, 3000),
  pair('ALGO', 'Algorand', 0.15, 5, 0.9, 7, 30000),
  pair('HBAR', 'Hedera', 0.15, 5, 0.95, 6, 30000),
  pair('SUI', 'Sui', 1.7, 4, 1.0, 6, 3000),
  pair('APT', 'Aptos', 2.5, 4, 1.0, 7, 2000),
  pair('ARB', 'Arbitrum', 0.25, 5, 1.0, 8, 20000),
  pair('OP', 'Optimism', 0.4, 4, 1.0, 8, 10000),
];
