// The contract of one vendor's corporate-actions REST API, as data and pure functions (like
// venue-protocol.ts for its WebSocket): which requests fetch the actions of a list of symbols, the
// headers that carry the key, and how one answer page turns into rows and the next page. Rows are
// in the field names of Massive's reference API (ticker = the venue's symbol), the names the
// `mds import splits|dividends` checks read, so every source is validated by the same code
// (src/ingest/actions-sync.ts runs it).

/** One series of pages: its first URL, and which actions its answers hold. */
export interface ActionsRequest {
  url: string;
  kind: 'splits' | 'dividends' | 'both';
}

export type ActionRowFields = Record<string, unknown>;

/** One answer page: its rows in Massive's field names, and the URL of the next page (or null). */
export interface ActionsPage {
  splits: ActionRowFields[];
  dividends: ActionRowFields[];
  next: string | null;
}

export interface ActionsSource {
  /** The vendor's REST origin, replaced by a feed's `restUrl` (a proxy, a local test server). */
  defaultRestUrl: string;
  /** The requests that fetch every action of these venue symbols, `today` being YYYY-MM-DD (UTC). */
  requests(restUrl: string, venueSymbols: readonly string[], today: string): ActionsRequest[];
  /** Request headers carrying the key (never logged). */
  headers(credentials: Readonly<Record<string, string>>): Record<string, string>;
  /** Pure: one JSON answer of `request` (whose URL was `pageUrl`) to rows and the next page; a string says what is wrong. */
  parsePage(request: ActionsRequest, pageUrl: string, body: unknown, restUrl: string): ActionsPage | string;
}

/** The base URL without a trailing slash: request paths are appended to it. */
export function trimBase(restUrl: string): string {
  return restUrl.replace(/\/+$/, '');
}
