// Turns a raw issuer record into the stored record: validates its share structure against the
// live price, derives the profile's country code, and applies the refresh rules of the spec — the
// share-structure set is written whole or not at all and its `as_of` moves only on a real refresh
// (a newer vintage); the profile refreshes at most once per calendar month.
import { countryCodeOf } from './country-code.ts';
import { toFundamentalsJson, type EncodedFundamentals, type FundamentalsRecord, type Profile, type ShareStructure } from './fundamentals.ts';
import type { RawFundamentals } from './fundamentals-input.ts';
import { estimateReceiptFloat, floatRatio, reconcileFloat, resolveOrdinaryCounts, resolveReceiptCounts, shortFloatRatio, validateReceiptFloat } from './fundamentals-rules.ts';

const PROFILE_KEYS = ['company', 'exchange', 'mic', 'country', 'sector', 'industry', 'securityType', 'employees'] as const;
const SHARE_KEYS = ['marketCap', 'sharesTotal', 'freeFloat', 'shortInterest', 'daysToCover', 'insiderOwnership', 'institutionalOwnership', 'adv10d', 'adv90d', 'beta'] as const;

/** Validated share structure of one raw record, given the listing's live price (null: none known). */
export function validateShareStructure(raw: RawFundamentals, price: number | null): ShareStructure {
  const receipt = raw.isDepositaryReceipt;
  const counts = receipt ? resolveReceiptCounts(raw.sharesTotal, raw.marketCap, price) : resolveOrdinaryCounts(raw.sharesTotal, raw.marketCap, price);
  const countWithheld = raw.sharesTotal !== undefined && counts.sharesTotal === undefined;
  let freeFloat: number | undefined;
  let freeFloatEst: number | undefined;
  if (raw.freeFloat !== undefined) {
    if (counts.sharesTotal !== undefined) freeFloat = reconcileFloat(raw.freeFloat, counts.sharesTotal, raw.insiderOwnership) ?? undefined;
    else if (receipt && countWithheld) freeFloat = validateReceiptFloat(raw.freeFloat, counts.sharesListedEst) ?? undefined;
    // An ordinary listing's float is reconciled against its served count; without one it is left out.
    if (receipt && freeFloat === undefined) {
      freeFloatEst = estimateReceiptFloat(raw.freeFloat, raw.sharesTotal, counts.sharesTotal ?? counts.sharesListedEst, countWithheld, raw.insiderOwnership);
    }
  }
  const shares: ShareStructure = {
    marketCap: counts.marketCap,
    sharesTotal: counts.sharesTotal,
    freeFloat,
    floatRatio: floatRatio(freeFloat, counts.sharesTotal),
    sharesListedEst: counts.sharesListedEst,
    freeFloatEst,
    shortInterest: raw.shortInterest,
    shortFloatRatio: shortFloatRatio(raw.shortInterest, freeFloat),
    daysToCover: raw.daysToCover,
    insiderOwnership: raw.insiderOwnership,
    institutionalOwnership: raw.institutionalOwnership,
    adv10d: raw.adv10d,
    adv90d: raw.adv90d,
    beta: raw.beta,
  };
  return withoutUndefined(shares);
}

/** The profile fields a raw record carries, with the country code derived from its country. */
export function profileOf(raw: RawFundamentals): Profile {
  const profile: Profile = {};
  for (const key of PROFILE_KEYS) if (raw[key] !== undefined) (profile as Record<string, unknown>)[key] = raw[key];
  return profile;
}

/** Figures of the set, each either served or estimated; ratios follow from the counts. */
const FIGURES: readonly (readonly [string, (s: ShareStructure) => number | undefined])[] = [
  ['market_cap', (s) => s.marketCap],
  ['share count', (s) => s.sharesTotal ?? s.sharesListedEst],
  ['free float', (s) => s.freeFloat ?? s.freeFloatEst],
  ['short_interest', (s) => s.shortInterest],
  ['days_to_cover', (s) => s.daysToCover],
  ['insider_ownership', (s) => s.insiderOwnership],
  ['institutional_ownership', (s) => s.institutionalOwnership],
  ['adv_10d', (s) => s.adv10d],
  ['adv_90d', (s) => s.adv90d],
  ['beta', (s) => s.beta],
];

/** Figures the previous set had that the next one would leave unavailable. */
export function missingFigures(previous: ShareStructure, next: ShareStructure): string[] {
  return FIGURES.filter(([, get]) => get(previous) !== undefined && get(next) === undefined).map(([name]) => name);
}

/** What happened to each group of a record. */
export type SharesOutcome = 'written' | 'refreshed' | 'restated' | 'unchanged' | 'kept' | 'stale' | 'absent';
export type ProfileOutcome = 'written' | 'refreshed' | 'not-due' | 'absent';

export interface ApplyResult {
  /** The record to store with its served JSON, or null when nothing changed. */
  written: EncodedFundamentals | null;
  shares: SharesOutcome;
  profile: ProfileOutcome;
  /** For `kept`: the figures the restatement left unavailable. */
  missing: string[];
}

function carries(raw: RawFundamentals, keys: readonly (keyof RawFundamentals)[]): boolean {
  return keys.some((k) => raw[k] !== undefined);
}

/** Applies one raw record over the stored one (if any), given the listing's live price. */
export function applyFundamentals(previous: FundamentalsRecord | undefined, raw: RawFundamentals, price: number | null): ApplyResult {
  let shares = previous?.shares ?? {};
  let sharesAsOf = previous?.sharesAsOf ?? null;
  let sharesOutcome: SharesOutcome = 'absent';
  let missing: string[] = [];
  if (carries(raw, SHARE_KEYS)) {
    const next = validateShareStructure(raw, price);
    if (sharesAsOf === null) {
      sharesOutcome = 'written';
    } else if (raw.asOf < sharesAsOf) {
      sharesOutcome = 'stale';
    } else if ((missing = missingFigures(shares, next)).length > 0) {
      sharesOutcome = 'kept';
    } else if (raw.asOf === sharesAsOf) {
      sharesOutcome = sameFigures(shares, next) ? 'unchanged' : 'restated';
    } else {
      sharesOutcome = 'refreshed';
    }
    if (sharesOutcome === 'written' || sharesOutcome === 'restated' || sharesOutcome === 'refreshed') {
      shares = next;
      sharesAsOf = raw.asOf;
    }
  }

  let profile = previous?.profile ?? {};
  let profileAsOf = previous?.profileAsOf ?? null;
  let profileOutcome: ProfileOutcome = 'absent';
  if (carries(raw, PROFILE_KEYS)) {
    const due = profileAsOf === null || raw.asOf.slice(0, 7) > profileAsOf.slice(0, 7);
    profileOutcome = !due ? 'not-due' : profileAsOf === null ? 'written' : 'refreshed';
    if (due) {
      const merged: Profile = { ...profile, ...profileOf(raw) };
      delete merged.countryCode;
      const countryCode = countryCodeOf(merged.country);
      profile = countryCode === undefined ? merged : { ...merged, countryCode };
      profileAsOf = raw.asOf;
    }
  }

  const changedShares = sharesOutcome === 'written' || sharesOutcome === 'restated' || sharesOutcome === 'refreshed';
  const changedProfile = profileOutcome === 'written' || profileOutcome === 'refreshed';
  if (!changedShares && !changedProfile) return { written: null, shares: sharesOutcome, profile: profileOutcome, missing };
  const record: FundamentalsRecord = { symbol: raw.symbol, baseSymbol: raw.baseSymbol, market: raw.market, profile, profileAsOf, shares, sharesAsOf };
  return { written: { record, json: toFundamentalsJson(record) }, shares: sharesOutcome, profile: profileOutcome, missing };
}

function sameFigures(a: ShareStructure, b: ShareStructure): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof ShareStructure>;
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
