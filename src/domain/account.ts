// An account's key and what it may use. Entitlement checks are pure and return the 403 message
// that names what is missing, or null when allowed.
import { PRODUCT_ACCESS, type AssetClass } from './asset-classes.ts';
import { planOffersMarket, type Addon, type Plan } from './plans.ts';

export interface KeyRecord {
  /** Public id, safe to show and log: `key_...`. */
  id: string;
  name: string;
  plan: string;
  /** Stock markets enabled (`US`, `DE`, ...); `*` for all. */
  markets: string[];
  addons: Addon[];
  createdMs: number;
  revokedMs: number | null;
  /** sha256 of the secret, hex. The secret itself is never stored. */
  hash: string;
}

/** The identity a request runs as: a stored key with its plan, or the development key. */
export interface Account {
  id: string;
  plan: Plan;
  markets: ReadonlySet<string> | 'all';
  addons: ReadonlySet<string>;
  createdMs: number;
}

export function classDenied(account: Account, assetClass: string): string | null {
  return account.plan.classes.includes(assetClass as never) ? null : `asset class ${assetClass} is not included in the ${account.plan.name} plan`;
}

export function marketDenied(account: Account, market: string): string | null {
  if (!planOffersMarket(account.plan, market)) return `market ${market} is not included in the ${account.plan.name} plan`;
  return account.markets === 'all' || account.markets.has(market) ? null : `market ${market} is not enabled for this account`;
}

export function addonDenied(account: Account, addon: Addon): string | null {
  return account.addons.has(addon) ? null : `the ${addon} add-on is not enabled for this account`;
}

export function isMarketEnabled(account: Account, market: string): boolean {
  return marketDenied(account, market) === null;
}

/**
 * What a class's routes need: its plan class, or for a product on top of another class (the US
 * overnight session) that class, its stock market and the add-on; the first thing missing is named.
 */
export function classAccessDenied(account: Account, assetClass: AssetClass): string | null {
  const product = PRODUCT_ACCESS[assetClass];
  if (!product) return classDenied(account, assetClass);
  const denied = classDenied(account, product.planClass) ?? marketDenied(account, product.market) ?? addonDenied(account, product.addon);
  return denied === null ? null : `${product.product} needs ${product.planClass} with market ${product.market} and the ${product.addon} add-on: ${denied}`;
}
