// Default instrument lists built from the built-in catalog, for venues that list a catalog
// instrument under their own name. A venue names what it does not list; the rest map.
import type { FeedInstrument } from '../../domain/feed.ts';
import { CRYPTO } from '../reference/crypto.ts';
import { PERPETUALS } from '../reference/perpetuals.ts';

/** The built-in crypto pairs a spot venue lists, under the venue's names. */
export function spotCryptoInstruments(venueSymbolOf: (symbol: string) => string | null, notListed: readonly string[] = []): FeedInstrument[] {
  const skip = new Set(notListed);
  return CRYPTO.filter((spec) => !skip.has(spec.symbol) && venueSymbolOf(spec.symbol) !== null).map((spec) => ({
    assetClass: 'crypto',
    symbol: spec.symbol,
    venueSymbol: venueSymbolOf(spec.symbol)!,
    name: spec.name,
    decimals: spec.decimals,
  }));
}

const CRYPTO_CODES = new Set(CRYPTO.map((c) => c.symbol.slice(0, -3)));

/** The built-in perpetuals on a crypto underlying (what crypto derivatives venues list), under the venue's names. */
export function cryptoPerpetualInstruments(venueSymbolOf: (symbol: string) => string | null): FeedInstrument[] {
  return PERPETUALS.filter((p) => CRYPTO_CODES.has(p.symbol.slice(0, -4)) && venueSymbolOf(p.symbol) !== null).map((spec) => ({
    assetClass: 'perpetuals',
    symbol: spec.symbol,
    venueSymbol: venueSymbolOf(spec.symbol)!,
    name: spec.name,
    decimals: spec.decimals,
  }));
}
