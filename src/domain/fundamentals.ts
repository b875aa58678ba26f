// The fundamentals item (spec: "Fundamentals item"): its TypeBox schema, the two refresh groups
// its fields fall into, the record we keep per symbol, and the serializer that turns a record
// into the served JSON once, at write time (items are served from stored values).
import { Type as T, type Static } from '@sinclair/typebox';

/** Markets fundamentals cover (spec: "Fundamentals routes"). */
export const FUNDAMENTALS_MARKETS = ['US', 'DE', 'ES', 'FR'] as const;
export type FundamentalsMarket = (typeof FUNDAMENTALS_MARKETS)[number];

export function isFundamentalsMarket(market: string): market is FundamentalsMarket {
  return (FUNDAMENTALS_MARKETS as readonly string[]).includes(market);
}

const Count = T.Integer({ minimum: 0 });
const Fraction = T.Number({ minimum: 0, maximum: 1 });

/**
 * The one rule for every figure counted in shares: point-in-time, as reported for `as_of` in the
 * shares of that date, and never split-adjusted by mds (a stored item is served as written). The
 * spec fixes the item's fields, so the rule is said in the schema's descriptions (the OpenAPI
 * document and the typed client) and in docs/fundamentals.md rather than in a field of its own.
 */
export const SHARE_BASIS_RULE = 'in the shares of `as_of` (the date the figures are for); not split-adjusted: after a split dated later (/stocks/splits/{symbol}) multiply by split_to ÷ split_from';
/** A count of shares, with the rule above. */
const Shares = (what: string) => T.Integer({ minimum: 0, description: `${what}; ${SHARE_BASIS_RULE}` });

/** Identity fields are always present; every other field is left out (never null) when unknown. */
export const FundamentalsItemSchema = T.Object(
  {
    symbol: T.String(),
    base_symbol: T.String(),
    market: T.String(),
    company: T.Optional(T.String()),
    exchange: T.Optional(T.String()),
    mic: T.Optional(T.String()),
    country: T.Optional(T.String()),
    country_code: T.Optional(T.String({ pattern: '^[A-Z]{2}$' })),
    sector: T.Optional(T.String()),
    industry: T.Optional(T.String()),
    security_type: T.Optional(T.String()),
    employees: T.Optional(Count),
    market_cap: T.Optional(T.Number({ exclusiveMinimum: 0 })),
    shares_total: T.Optional(Shares('total shares outstanding')),
    free_float: T.Optional(Shares('shares available for public trading')),
    float_ratio: T.Optional(Fraction),
    shares_listed_est: T.Optional(Shares('ESTIMATE of the listing-level share count (market cap ÷ live price)')),
    free_float_est: T.Optional(Shares('ESTIMATE of the listing-level float')),
    short_interest: T.Optional(Shares('shares sold short')),
    short_float_ratio: T.Optional(Fraction),
    days_to_cover: T.Optional(T.Number({ minimum: 0 })),
    insider_ownership: T.Optional(Fraction),
    institutional_ownership: T.Optional(Fraction),
    adv_10d: T.Optional(Shares('average daily share volume over 10 sessions')),
    adv_90d: T.Optional(Shares('average daily share volume over 90 sessions')),
    beta: T.Optional(T.Number()),
    as_of: T.Optional(T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'vintage of the share-structure figures (YYYY-MM-DD); the share counts are in the shares of this date' })),
  },
  { $id: 'FundamentalsItem', additionalProperties: false },
);
export type FundamentalsItem = Static<typeof FundamentalsItemSchema>;

export const FundamentalsBatchSchema = T.Object(
  {
    count: T.Integer(),
    items: T.Array(FundamentalsItemSchema),
    missing: T.Array(T.String()),
    /** Ours: requested symbols that are malformed or in a market the key lacks, with the reason; only when there are any. */
    rejected: T.Optional(T.Array(T.Object({ symbol: T.String(), reason: T.String() }, { additionalProperties: false }))),
  },
  { $id: 'FundamentalsBatch', additionalProperties: false },
);

export const FundamentalsPageSchema = T.Object(
  { market: T.String(), count: T.Integer(), items: T.Array(FundamentalsItemSchema), next_cursor: T.Optional(T.String()) },
  { $id: 'FundamentalsPage', additionalProperties: false },
);

/** Profile fields: refreshed monthly (spec: "Refresh"). */
export interface Profile {
  company?: string;
  exchange?: string;
  mic?: string;
  country?: string;
  /** Derived from `country` at write time. */
  countryCode?: string;
  sector?: string;
  industry?: string;
  securityType?: string;
  employees?: number;
}

/** Share-structure figures: refreshed daily and written as one set (spec: "Refresh"). */
export interface ShareStructure {
  marketCap?: number;
  sharesTotal?: number;
  freeFloat?: number;
  floatRatio?: number;
  sharesListedEst?: number;
  freeFloatEst?: number;
  shortInterest?: number;
  shortFloatRatio?: number;
  daysToCover?: number;
  insiderOwnership?: number;
  institutionalOwnership?: number;
  adv10d?: number;
  adv90d?: number;
  beta?: number;
}

/** What the store keeps per symbol: both groups with their vintages (the served JSON beside it). */
export interface FundamentalsRecord {
  symbol: string;
  baseSymbol: string;
  market: string;
  profile: Profile;
  /** Vintage (YYYY-MM-DD) of the last profile refresh, or null before the first. */
  profileAsOf: string | null;
  shares: ShareStructure;
  /** Vintage (YYYY-MM-DD) of the share-structure set: the item's `as_of`. */
  sharesAsOf: string | null;
}

/** A record to store with its item as served, encoded once when the record is written. */
export interface EncodedFundamentals {
  record: FundamentalsRecord;
  json: string;
}

// Spec field order; each row: JSON name, the group and the internal name.
const PROFILE_FIELDS: readonly (readonly [string, keyof Profile])[] = [
  ['company', 'company'],
  ['exchange', 'exchange'],
  ['mic', 'mic'],
  ['country', 'country'],
  ['country_code', 'countryCode'],
  ['sector', 'sector'],
  ['industry', 'industry'],
  ['security_type', 'securityType'],
  ['employees', 'employees'],
];

const SHARE_FIELDS: readonly (readonly [string, keyof ShareStructure])[] = [
  ['market_cap', 'marketCap'],
  ['shares_total', 'sharesTotal'],
  ['free_float', 'freeFloat'],
  ['float_ratio', 'floatRatio'],
  ['shares_listed_est', 'sharesListedEst'],
  ['free_float_est', 'freeFloatEst'],
  ['short_interest', 'shortInterest'],
  ['short_float_ratio', 'shortFloatRatio'],
  ['days_to_cover', 'daysToCover'],
  ['insider_ownership', 'insiderOwnership'],
  ['institutional_ownership', 'institutionalOwnership'],
  ['adv_10d', 'adv10d'],
  ['adv_90d', 'adv90d'],
  ['beta', 'beta'],
];

/** The served item: identity, then every known field in the spec's order; unknown ones left out. */
export function toFundamentalsItem(record: FundamentalsRecord): FundamentalsItem {
  const item: Record<string, unknown> = { symbol: record.symbol, base_symbol: record.baseSymbol, market: record.market };
  for (const [name, key] of PROFILE_FIELDS) if (record.profile[key] !== undefined) item[name] = record.profile[key];
  for (const [name, key] of SHARE_FIELDS) if (record.shares[key] !== undefined) item[name] = record.shares[key];
  if (record.sharesAsOf !== null) item.as_of = record.sharesAsOf;
  return item as FundamentalsItem;
}

export function toFundamentalsJson(record: FundamentalsRecord): string {
  return JSON.stringify(toFundamentalsItem(record));
}
