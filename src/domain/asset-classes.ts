// The asset classes of the spec and what differs between them. Class differences live in this
// table (and in symbol rules), never in `if` chains inside handlers.

export const ASSET_CLASSES = ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities'] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];

const CLASS_SET: ReadonlySet<string> = new Set(ASSET_CLASSES);

export function isAssetClass(value: string): value is AssetClass {
  return CLASS_SET.has(value);
}

/** Which consolidated value drives bars, whether bars carry volume, and how the last trade resolves. */
export interface ClassPolicy {
  /** 'trade': bars are built from trades; 'mid': from the consolidated quote mid. */
  barSource: 'trade' | 'mid';
  /** Bars carry a volume (sum of trade sizes); otherwise `v` is null. */
  hasVolume: boolean;
  /** Last trade falls back to the quote mid when the tape is empty (spec: stocks, forex, ...). */
  tradeFallsBackToMid: boolean;
  /** Snapshot `last_size`: 'always' (crypto), 'when-known' (stocks, forex, commodities), 'never' (ETFs). */
  snapshotLastSize: 'always' | 'when-known' | 'never';
  /** Market calendar code that says when the class trades (stocks use their own market). */
  calendar: string;
}

export const CLASS_POLICY: Record<AssetClass, ClassPolicy> = {
  crypto: { barSource: 'trade', hasVolume: true, tradeFallsBackToMid: false, snapshotLastSize: 'always', calendar: 'CRYPTO' },
  forex: { barSource: 'mid', hasVolume: false, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'FOREX' },
  stocks: { barSource: 'trade', hasVolume: true, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'US' },
  indices: { barSource: 'mid', hasVolume: false, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'INDICES' },
  etfs: { barSource: 'mid', hasVolume: false, tradeFallsBackToMid: true, snapshotLastSize: 'never', calendar: 'ETFS' },
  commodities: { barSource: 'trade', hasVolume: true, tradeFallsBackToMid: true, snapshotLastSize: 'when-known', calendar: 'COMMODITIES' },
};
