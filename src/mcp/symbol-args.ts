// What a tool's symbol argument looks like, per asset class and for the bond and fundamentals
// tools, with real symbols of the simulator's lists as examples: an agent reads these instead of
// guessing (`BTC-USD`, `AAPL`, `US10Y` are all refused; the refusal then names the symbol meant).
import { Type, type TSchema } from '@sinclair/typebox';
import type { AssetClass } from '../domain/asset-classes.ts';
import { BOND_COUNTRIES, BOND_TENORS } from '../domain/bonds.ts';
import { FUNDAMENTALS_MARKETS } from '../domain/fundamentals.ts';

/** Longest symbol a tool accepts (REST's own limit is shorter; a longer one gets REST's 400). */
const MAX_SYMBOL_ARG = 40;

/** Each class's symbol format and real examples. */
export const CLASS_SYMBOLS: Record<AssetClass, { format: string; examples: readonly string[] }> = {
  crypto: { format: 'a compact pair quoted in US dollars, no separator', examples: ['BTCUSD', 'ETHUSD', 'SOLUSD'] },
  forex: { format: 'a six-letter pair, no separator (a raw single-venue line adds .RAW)', examples: ['EURUSD', 'USDJPY', 'GBPUSD'] },
  stocks: { format: 'MARKET:TICKER, a two-letter market prefix (such as US, DE, GB, FR, JP, HK) and the ticker; a plain ticker is refused', examples: ['US:AAPL', 'US:BRK.B', 'DE:SAP'] },
  indices: { format: 'a bare index code, no market prefix', examples: ['US500', 'US100', 'DE40', 'JP225'] },
  etfs: { format: 'a product code', examples: ['US500ETF', 'US100ETF', 'USGOLD', 'USBOND'] },
  commodities: { format: 'a code quoted in US dollars; aliases such as CL1 (WTIUSD) or HG1 (COPPERUSD) resolve', examples: ['XAUUSD', 'XAGUSD', 'WTIUSD', 'BRENTUSD'] },
  perpetuals: { format: 'the underlying code followed by USDT', examples: ['BTCUSDT', 'ETHUSDT', 'XAUUSDT', 'US500USDT', 'AAPLUSDT'] },
  overnight: { format: 'a US stock as US:TICKER or a US ETF product code', examples: ['US:AAPL', 'US:NVDA', 'US500ETF'] },
};

const SEARCH_HINT = 'Unsure? search_symbols finds a symbol by code or name.';

/** The symbol argument of a tool that takes one class of several: each class's format and examples. */
export function classSymbolArg(classes: readonly AssetClass[]): TSchema {
  const lines = classes.map((c) => `${c}: ${CLASS_SYMBOLS[c].format}, e.g. ${CLASS_SYMBOLS[c].examples.join(', ')}`);
  return Type.String({
    minLength: 1,
    maxLength: MAX_SYMBOL_ARG,
    description: `the symbol in the format of the class given in \`class\` (case does not matter) - ${lines.join('; ')}. ${SEARCH_HINT}`,
    examples: [...new Set(classes.map((c) => CLASS_SYMBOLS[c].examples[0]!))],
  });
}

/** The symbols argument of get_quotes (several symbols of one class). */
export function classSymbolsArg(classes: readonly AssetClass[], maxItems: number): TSchema {
  const item = classSymbolArg(classes);
  return Type.Array(Type.String({ minLength: 1, maxLength: MAX_SYMBOL_ARG }), {
    minItems: 1,
    maxItems,
    description: `1 to ${maxItems} symbols, all of the class given in \`class\`: ${item.description}`,
    examples: [['BTCUSD', 'ETHUSD'], ['US:AAPL', 'US:MSFT']],
  });
}

/** The symbol of one fixed class (get_perpetual_mark: perpetuals). */
export function fixedClassSymbolArg(cls: AssetClass, what: string): TSchema {
  const s = CLASS_SYMBOLS[cls];
  return Type.String({ minLength: 1, maxLength: MAX_SYMBOL_ARG, description: `${what}: ${s.format}, e.g. ${s.examples.join(', ')}. ${SEARCH_HINT}`, examples: [...s.examples] });
}

export const BOND_SYMBOL_ARG: TSchema = Type.String({
  minLength: 1,
  maxLength: MAX_SYMBOL_ARG,
  description: `the bond as COUNTRY:TENOR (colon required), e.g. US:10Y, US:3M, DE:10Y, GB:30Y. Countries: ${BOND_COUNTRIES.join(', ')}. Tenors: ${BOND_COUNTRIES.map((cc) => `${cc} ${BOND_TENORS[cc].join(' ')}`).join('; ')}`,
  examples: ['US:10Y', 'US:2Y', 'DE:10Y', 'GB:30Y'],
});

export const FUNDAMENTALS_SYMBOL_ARG: TSchema = Type.String({
  minLength: 1,
  maxLength: MAX_SYMBOL_ARG,
  description: `a stock as MARKET:TICKER of a market fundamentals cover (${FUNDAMENTALS_MARKETS.join(', ')}), e.g. US:AAPL, US:MSFT, DE:SAP; a plain ticker is refused`,
  examples: ['US:AAPL', 'US:MSFT', 'DE:SAP'],
});
