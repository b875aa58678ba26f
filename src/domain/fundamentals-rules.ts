// The validation rules of the spec's fundamentals item, one small pure function each. They run
// when a record is written, never per request. Counts are whole shares in the units that trade
// on the listing; prices and market caps are in the listing currency.

/**
 * How far `shares_total × price` may stray from `market_cap` and still count as agreeing: the
 * figures are a day old and the price is live, so a normal day's move must pass while a count on
 * another share base (a receipt's ordinary shares, a missed split) must not.
 */
export const CROSS_CHECK_TOLERANCE = 0.25;

/** A reported float may exceed the share count by up to this fraction and still be rebuilt (spec). */
export const FLOAT_OVERSHOOT_PERCENT = 5;

export type CrossCheck = 'consistent' | 'contradicts' | 'unchecked';

/** Share count × live price against the reported market cap; unchecked when a figure is missing. */
export function crossCheckShareCount(sharesTotal: number | undefined, marketCap: number | undefined, price: number | null): CrossCheck {
  if (sharesTotal === undefined || marketCap === undefined || price === null) return 'unchecked';
  const ratio = (sharesTotal * price) / marketCap;
  return ratio <= 1 + CROSS_CHECK_TOLERANCE && ratio * (1 + CROSS_CHECK_TOLERANCE) >= 1 ? 'consistent' : 'contradicts';
}

export interface ServedCounts {
  sharesTotal?: number;
  marketCap?: number;
  sharesListedEst?: number;
}

/** Ordinary listing: a pair that contradicts the live price is withheld whole, with no substitute. */
export function resolveOrdinaryCounts(sharesTotal: number | undefined, marketCap: number | undefined, price: number | null): ServedCounts {
  if (crossCheckShareCount(sharesTotal, marketCap, price) === 'contradicts') return {};
  return { ...(sharesTotal !== undefined && { sharesTotal }), ...(marketCap !== undefined && { marketCap }) };
}

/**
 * Depositary receipt: the count is served only when it passes the cross-check (receipts often
 * report the issuer's ordinary shares). A count that contradicts is replaced by the listing-level
 * estimate market cap ÷ live price; one that cannot be checked is withheld with no estimate.
 */
export function resolveReceiptCounts(sharesTotal: number | undefined, marketCap: number | undefined, price: number | null): ServedCounts {
  const check = crossCheckShareCount(sharesTotal, marketCap, price);
  const cap = marketCap !== undefined ? { marketCap } : {};
  if (check === 'consistent') return { sharesTotal, ...cap };
  if (check === 'contradicts') return { ...cap, sharesListedEst: Math.round(marketCap! / price!) };
  return cap;
}

/** Whether `value` exceeds `base` by at most the spec's 5% (exact integer arithmetic). */
export function isWithinFloatOvershoot(value: number, base: number): boolean {
  return value * 100 <= base * (100 + FLOAT_OVERSHOOT_PERCENT);
}

/**
 * Reported float against a served share count: kept when it fits, rebuilt as shares_total minus
 * insider holdings when it is over by up to 5%, null when it is further over or cannot be rebuilt.
 */
export function reconcileFloat(freeFloat: number, sharesTotal: number, insiderOwnership: number | undefined): number | null {
  if (freeFloat <= sharesTotal) return freeFloat;
  if (!isWithinFloatOvershoot(freeFloat, sharesTotal) || insiderOwnership === undefined) return null;
  return sharesTotal - Math.round(sharesTotal * insiderOwnership);
}

/**
 * A receipt whose count was withheld: its float is judged on its own, against the listing-level
 * estimate, with the same 5% allowance (the estimate moves with the live price). Null: it fails.
 */
export function validateReceiptFloat(freeFloat: number, sharesListedEst: number | undefined): number | null {
  if (sharesListedEst === undefined) return null;
  return isWithinFloatOvershoot(freeFloat, sharesListedEst) ? freeFloat : null;
}

/**
 * Listing-level float estimate for a receipt whose reported float failed. A float that fits under
 * the reported (ordinary-share) count of a receipt whose count was withheld was reported on the
 * ordinary base: its fraction is applied to the listing count. Otherwise the listing count is
 * reduced by the reported insider ownership, which reads high (other locked-up holders stay in).
 */
export function estimateReceiptFloat(
  freeFloat: number,
  reportedShares: number | undefined,
  listingCount: number | undefined,
  countWithheld: boolean,
  insiderOwnership: number | undefined,
): number | undefined {
  if (listingCount === undefined) return undefined;
  if (countWithheld && reportedShares !== undefined && reportedShares > 0 && freeFloat <= reportedShares) {
    return Math.round((listingCount * freeFloat) / reportedShares);
  }
  if (insiderOwnership !== undefined) return Math.round(listingCount * (1 - insiderOwnership));
  return undefined;
}

/** free_float / shares_total, only when both are served and the float fits in the count. */
export function floatRatio(freeFloat: number | undefined, sharesTotal: number | undefined): number | undefined {
  if (freeFloat === undefined || sharesTotal === undefined || sharesTotal <= 0 || freeFloat > sharesTotal) return undefined;
  return freeFloat / sharesTotal;
}

/** short_interest / free_float, under the same guarantee as the float ratio. */
export function shortFloatRatio(shortInterest: number | undefined, freeFloat: number | undefined): number | undefined {
  if (shortInterest === undefined || freeFloat === undefined || freeFloat <= 0 || shortInterest > freeFloat) return undefined;
  return shortInterest / freeFloat;
}
