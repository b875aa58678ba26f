export { Store, type StoreOptions } from './store.ts';
export type { BarChunkSpan, BarSlice } from './bars.ts';
export type { LatestState, LatestQuote, LatestTrade } from './latest.ts';
export type { TickKind } from './ticks.ts';
export { BAR_FIELDS } from './codecs.ts';
export { AccountStore, hashSecret, type NewKey } from './accounts.ts';
export type { BondPoint, BondWriteSummary, BondHistoryPage } from './bonds.ts';
export type { CalendarPage, CalendarWriteSummary, StoredEvent } from './economic-calendar.ts';
export { backupStore, hasStore, STORE_FILE, type BackupResult } from './backup.ts';
