// The asset classes of the spec and what differs between them. Class differences live in this
// table (and in symbol rules), never in `if` chains inside handlers.
import type { Addon } from './plans.ts';

export const ASSET_CLASSES = ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities', 'perpetuals', 'overnight'] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];

const CLASS_SET: ReadonlySet<string> = new Set(ASSET_CLASSES);

export function isAssetClass(value: string): value is AssetClass {
  return CLASS_SET.has(value);
}

/**
 * Classes priced as composites of independent sources with a `source_count` on every value
 * (spec: perpetual futures); their latest values come from the composites, not the stored quote.
 */
export const COMPOSITE_CLASSES: ReadonlySet<AssetClass> = new Set<AssetClass>(['perpetuals']);

/** Which consolidated value drives bars, whether bars carry volume, and how the last trade resolves. */
export interface ClassPolicy {
  /** 'trade': bars are built from trades; 'mid': from the consolidated quote mid. */
  barSource: 'trade' | 'mid';
  /** Bars carry a volume (sum of trade sizes); otherwise `v` is null. */
  hasVolume: boolean;
  /** Last trade falls back to the quote mid when the tape is empty (spec: stocks, forex, ...). */
  tradeFallsBackToMid: boolean;
  /**
   * Snapshot `last_size`: 'always' (crypto; indices, which the spec's rule does not list for omission,
   * so null when unknown), 'when-known' (stocks, forex, commodities), 'never' (ETFs).
   */
  snapshotLastSize: 'always' | 'when-known' | 'never';
  /** Market calendar code that says when the class trades (stocks use their own market). */
  calendar: string;
  /** The class's symbol list answers any valid key, whatever its plan (spec: perpetuals). */
  listOpenToAnyKey: boolean;
  /**
   * The class serves the same symbols as other classes as series of its own (the overnight lines
   * of `US:AAPL`, `US500ETF`): the registry keeps its names apart under this namespace.
   */
  symbolNamespace?: string;
  /** Latest values and the daily bar carry the trading session they belong to (`session_start`, `session_end`). */
  sessionFields?: boolean;
}

export const CLASS_POLICY: Record<AssetClass, ClassPolicy> = {
  crypto: { barSource: 'trade', hasVolume: true, tradeFallsBackToMid: false, snapshotLastSize: 'always', calendar: 'CRYPTO', listOpenToAnyKey: false },
  forex: { barSource: 'mid', hasVolume: false, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'FOREX', listOpenToAnyKey: false },
  stocks: { barSource: 'trade', hasVolume: true, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'US', listOpenToAnyKey: false },
  indices: { barSource: 'mid', hasVolume: false, tradeFallsBackToMid: true, snapshotLastSize: 'always', calendar: 'INDICES', listOpenToAnyKey: false },
  etfs: { barSource: 'mid', hasVolume: false, tradeFallsBackToMid: true, snapshotLastSize: 'never', calendar: 'ETFS', listOpenToAnyKey: false },
  commodities: { barSource: 'trade', hasVolume: true, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'COMMODITIES', listOpenToAnyKey: false },
  // Composites around the clock: bars from the composite mid, no volume (the sources' volumes are
  // not one market's), the last trade falls back to the mark.
  perpetuals: { barSource: 'mid', hasVolume: false, tradeFallsBackToMid: true, snapshotLastSize: 'never', calendar: 'CRYPTO', listOpenToAnyKey: true },
  // The US overnight session (20:00-04:00 New York, Sunday to Thursday nights): aggregated books
  // and trades of US stocks and ETFs, kept apart from their regular-session series.
  overnight: { barSource: 'trade', hasVolume: true, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'OVERNIGHT', listOpenToAnyKey: false, symbolNamespace: 'overnight', sessionFields: true },
};

/** What an account needs for a class that is a product on top of another class's plan. */
export interface ProductAccess {
  /** How 403 messages name the product. */
  product: string;
  /** The plan class it builds on. */
  planClass: AssetClass;
  /** The stock market that must be enabled on the account. */
  market: string;
  addon: Addon;
}

/** Spec: the US overnight session needs a US Stocks plan plus the overnight add-on. */
export const PRODUCT_ACCESS: Partial<Record<AssetClass, ProductAccess>> = {
  overnight: { product: 'the US overnight session', planClass: 'stocks', market: 'US', addon: 'overnight' },
};

/** The registry's key of a symbol: its own name, or namespaced for classes that repeat other classes' names. */
export function registryKeyOf(assetClass: AssetClass, symbol: string): string {
  const ns = CLASS_POLICY[assetClass].symbolNamespace;
  return ns === undefined ? symbol : `${ns}|${symbol}`;
}
