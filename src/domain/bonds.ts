// Government bond yields (spec: "Bond yields", add-on; issue 8): the countries and tenors covered,
// the `CC:TENOR` symbol rules, and what makes one dated official observation valid. Pure rules;
// the store keeps observations, the routes serve them.
import { badRequest, ApiError } from './errors.ts';
import { suggestSymbols } from './symbol-suggestions.ts';
import { quoteInput } from './symbols.ts';

/**
 * Tenors per country: the points each country's official curve is published at. US: the
 * Treasury's daily par yield curve; the others: the benchmark maturities of their sovereign
 * curves (Germany, France, Italy 1Y to 30Y; Spain has no 20-year benchmark; the UK adds 25Y).
 */
export const BOND_TENORS = {
  US: ['1M', '2M', '3M', '4M', '6M', '1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '20Y', '30Y'],
  DE: ['1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '15Y', '20Y', '30Y'],
  FR: ['1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '15Y', '20Y', '30Y'],
  IT: ['1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '15Y', '20Y', '30Y'],
  ES: ['1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '15Y', '30Y'],
  GB: ['1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '15Y', '20Y', '25Y', '30Y'],
} as const satisfies Record<string, readonly string[]>;

export type BondCountry = keyof typeof BOND_TENORS;
export const BOND_COUNTRIES = Object.keys(BOND_TENORS) as BondCountry[];

/** Every covered symbol, country by country, shortest tenor first. */
export const BOND_SYMBOLS: readonly string[] = BOND_COUNTRIES.flatMap((cc) => BOND_TENORS[cc].map((tenor) => `${cc}:${tenor}`));
const SYMBOL_SET = new Set(BOND_SYMBOLS);

/** A yield outside this band (percent) is a typo or a unit mix-up (basis points, fractions), not an observation. */
export const MIN_YIELD_PCT = -5;
export const MAX_YIELD_PCT = 50;

/** One dated official observation of one tenor. */
export interface BondObservation {
  /** `CC:TENOR`. */
  symbol: string;
  /** Observation date, `YYYY-MM-DD`. */
  date: string;
  /** Percent, e.g. 4.21. */
  yieldPct: number;
  /** Who published it (e.g. `US Treasury daily par yield curve`). */
  source: string;
}

export function isBondCountry(cc: string): cc is BondCountry {
  return Object.hasOwn(BOND_TENORS, cc);
}

export function isBondSymbol(symbol: string): boolean {
  return SYMBOL_SET.has(symbol);
}

/** Months to maturity of a tenor: `1M` → 1, `10Y` → 120. */
export function tenorMonths(tenor: string): number {
  const n = Number(tenor.slice(0, -1));
  return tenor.endsWith('Y') ? n * 12 : n;
}

export function countryOf(symbol: string): BondCountry {
  return symbol.slice(0, 2) as BondCountry;
}

export function tenorOf(symbol: string): string {
  return symbol.slice(3);
}

const COUNTRIES_TEXT = 'US, DE, FR, IT, ES and GB';
/** The spec names the UK; its ISO 3166 code is GB, which responses use. */
const COUNTRY_ALIASES: Readonly<Record<string, BondCountry>> = { UK: 'GB' };
const SYMBOL_FORMAT = /^[A-Z]{2}:[0-9]{1,2}[MY]$/;

/** Trims and uppercases a country code; a 400 unless it is two letters, a 404 unless it is covered. */
export function normalizeBondCountry(raw: string): BondCountry {
  const given = raw.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(given)) throw badRequest(`invalid country ${quoteInput(raw)}: expected a two-letter country code; bond yields cover ${COUNTRIES_TEXT} (UK is accepted for GB)`);
  const cc = COUNTRY_ALIASES[given] ?? given;
  if (!isBondCountry(cc)) throw new ApiError('BONDS_COUNTRY_NOT_COVERED');
  return cc;
}

/**
 * Trims and uppercases a `CC:TENOR` symbol (spec: symbol rules of the per-class routes). A 400 says
 * what the format is; a well-formed symbol that is not covered is a 404 naming the country's tenors.
 */
export function normalizeBondSymbol(raw: string): string {
  try {
    return checkedBondSymbol(raw);
  } catch (err) {
    // `US10Y`, `us-10y`, `DE:11Y`: the covered tenors it was probably meant to be.
    if (err instanceof ApiError) err.didYouMean = suggestSymbols(raw, BOND_SYMBOLS.map((symbol) => ({ symbol })));
    throw err;
  }
}

function checkedBondSymbol(raw: string): string {
  const given = raw.trim().toUpperCase();
  const alias = COUNTRY_ALIASES[given.slice(0, 2)];
  const symbol = alias && given[2] === ':' ? alias + given.slice(2) : given;
  if (!SYMBOL_FORMAT.test(symbol)) {
    throw badRequest(`invalid bonds symbol ${quoteInput(raw)}: expected COUNTRY:TENOR, a two-letter country code and a tenor in months or years such as US:10Y or US:3M`);
  }
  const cc = symbol.slice(0, 2);
  if (!isBondCountry(cc)) throw new ApiError('BONDS_COUNTRY_NOT_COVERED');
  if (!SYMBOL_SET.has(symbol)) throw new ApiError('UNKNOWN_SYMBOL', `unknown symbol: ${cc} yields are published for ${BOND_TENORS[cc].join(', ')}`);
  return symbol;
}

/** Why an observation cannot be stored, or null when it is valid. */
export function observationProblem(o: BondObservation): string | null {
  if (!isBondSymbol(o.symbol)) {
    const cc = o.symbol.slice(0, 2);
    return isBondCountry(cc) ? `${cc} has no ${o.symbol.slice(3)} tenor; its tenors are ${BOND_TENORS[cc].join(', ')}` : `country ${quoteInput(cc)} is not covered; bond yields cover ${COUNTRIES_TEXT}`;
  }
  if (!Number.isFinite(o.yieldPct) || o.yieldPct < MIN_YIELD_PCT || o.yieldPct > MAX_YIELD_PCT) {
    return `yield ${o.yieldPct} is outside ${MIN_YIELD_PCT} to ${MAX_YIELD_PCT} percent`;
  }
  const source = o.source.trim();
  if (source.length === 0) return 'source is empty: every observation names who published it';
  if (source.length > 100) return 'source is longer than 100 characters';
  return null;
}
