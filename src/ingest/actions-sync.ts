// Corporate actions from a keyed stock upstream (Massive, Alpaca): fetched for the feed's symbols
// when it starts, then once a day, and stored like `mds import splits|dividends` does: every row
// passes the importer's checks (domain/corporate-actions.ts) and is written through the same
// function, so fetching the same actions again changes nothing, and the adjustment version moves
// only with a new or corrected action. Time is the service clock's: a timer only asks, now and
// then, whether a round is due (`tick`), so a test drives the schedule with its clock.
// A failure (network, HTTP status, an answer that does not parse) is logged once, never stops the
// feed, and is retried later, resuming at the request that failed: after 1 min while the retries
// make progress (a vendor's per-minute rate limit), with a growing delay while they do not.
import type { Clock } from '../clock.ts';
import { parseDividendInput, parseSplitInput, type Dividend, type Split } from '../domain/corporate-actions.ts';
import type { BackfillRequest, CorporateActionsHealth, Feed, FeedInstrument, FeedSink } from '../domain/feed.ts';
import { DAY_MS } from '../domain/timeframes.ts';
import type { Store } from '../store/index.ts';
import type { ActionRowFields, ActionsRequest, ActionsSource } from './adapters/actions-source.ts';
import type { VenueFeedSettings, VenueProtocol } from './adapters/venue-protocol.ts';
import { writeCorporateActions } from './importers/corporate-actions-import.ts';

/** The first retry after a failure; each further one waits twice as long, up to a day. */
const RETRY_MIN_MS = 60_000;
/** How often the timer asks whether a round is due. */
const CHECK_EVERY_MS = 60_000;
/** Pages of one request series at most (a vendor whose paging loops must not keep a round busy). */
const MAX_PAGES = 1000;

export interface ActionsSyncOptions {
  feedId: string;
  source: ActionsSource;
  instruments: readonly FeedInstrument[];
  credentials: Readonly<Record<string, string>>;
  /** The vendor's REST origin; default the source's. */
  restUrl?: string;
  store: Store;
  clock: Clock;
  log: (line: string) => void;
  /** Between two rounds that succeeded (default a day). */
  everyMs?: number;
  /** Whether `start` runs the timer that calls `tick` (tests call it themselves). Default true. */
  timer?: boolean;
  fetch?: typeof fetch;
}

/** What the last rounds did, for tests and the log. */
export interface ActionsSyncStatus {
  rounds: number;
  requests: number;
  added: number;
  replaced: number;
  badRows: number;
  /** The failure being retried, or null. */
  failure: string | null;
  nextDueMs: number;
  /** When the last complete round ended, or null before one did. */
  lastRoundMs: number | null;
}

export class ActionsSync {
  private readonly restUrl: string;
  /** Venue symbol → mds symbol, for the stocks among the feed's instruments. */
  private readonly symbolOf = new Map<string, string>();
  private readonly everyMs: number;
  private readonly doFetch: typeof fetch;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private stopped = true;
  /** The requests of the round under way (from the one that failed last), or null between rounds. */
  private pending: ActionsRequest[] | null = null;
  private retryMs = RETRY_MIN_MS;
  readonly status: ActionsSyncStatus = { rounds: 0, requests: 0, added: 0, replaced: 0, badRows: 0, failure: null, nextDueMs: 0, lastRoundMs: null };

  constructor(private readonly opts: ActionsSyncOptions) {
    this.restUrl = opts.restUrl ?? opts.source.defaultRestUrl;
    this.everyMs = opts.everyMs ?? DAY_MS;
    this.doFetch = opts.fetch ?? fetch;
    for (const inst of opts.instruments) if (inst.assetClass === 'stocks') this.symbolOf.set(inst.venueSymbol, inst.symbol);
  }

  /** Starts the first round now (in the background) and, unless told not to, the timer for the next ones. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.status.nextDueMs = this.opts.clock.nowMs();
    if (this.opts.timer !== false) {
      this.timer = setInterval(() => void this.tick(), CHECK_EVERY_MS);
      this.timer.unref?.();
    }
    void this.tick();
  }

  /** Where the fetch stands, for /health and /metrics. */
  health(): CorporateActionsHealth {
    const s = this.status;
    return { state: s.failure !== null ? 'retrying' : s.lastRoundMs === null ? 'pending' : 'ok', lastRoundMs: s.lastRoundMs, failure: s.failure, nextDueMs: s.nextDueMs, added: s.added, replaced: s.replaced, badRows: s.badRows };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.abort?.abort();
    await this.running;
  }

  /** Runs a round if one is due and none is under way; resolves when the round (if any) ends. */
  tick(): Promise<void> {
    if (this.running !== null) return this.running;
    if (this.stopped || this.opts.clock.nowMs() < this.status.nextDueMs) return Promise.resolve();
    this.running = this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    const today = new Date(this.opts.clock.nowMs()).toISOString().slice(0, 10);
    this.pending ??= this.opts.source.requests(this.restUrl, [...this.symbolOf.keys()], today);
    let added = 0;
    let replaced = 0;
    let bad = 0;
    let firstBad: string | null = null;
    let progressed = false;
    while (this.pending.length > 0) {
      if (this.stopped) return;
      let fetched: { splits: Split[]; dividends: Dividend[]; bad: string[] };
      try {
        fetched = await this.fetchSeries(this.pending[0]!);
      } catch (err) {
        if (this.stopped) return;
        // A rate limit that lets some requests through each time is progress: retry soon again.
        if (progressed) this.retryMs = RETRY_MIN_MS;
        this.failed(err instanceof Error ? err.message : String(err));
        return;
      }
      progressed = true;
      bad += fetched.bad.length;
      firstBad ??= fetched.bad[0] ?? null;
      if (fetched.splits.length + fetched.dividends.length > 0) {
        const written = await writeCorporateActions(this.opts.store, fetched.splits, fetched.dividends);
        added += written.added;
        replaced += written.replaced;
      }
      this.pending.shift();
    }
    this.pending = null;
    this.status.rounds++;
    this.status.added += added;
    this.status.replaced += replaced;
    this.status.badRows += bad;
    if (this.status.failure !== null) this.opts.log(`feed ${this.opts.feedId}: corporate actions fetched again after the failure (${this.status.failure})`);
    this.status.failure = null;
    this.retryMs = RETRY_MIN_MS;
    this.status.lastRoundMs = this.opts.clock.nowMs();
    this.status.nextDueMs = this.opts.clock.nowMs() + this.everyMs;
    if (added + replaced > 0) this.opts.log(`feed ${this.opts.feedId}: corporate actions of ${this.symbolOf.size} symbols: ${added} new, ${replaced} replaced`);
    if (bad > 0) this.opts.log(`warn: feed ${this.opts.feedId}: ${bad} corporate actions skipped as bad (the first: ${firstBad})`);
  }

  /** One request and the pages after it: the checked actions of its rows, and why each bad row is bad. */
  private async fetchSeries(request: ActionsRequest): Promise<{ splits: Split[]; dividends: Dividend[]; bad: string[] }> {
    const out = { splits: [] as Split[], dividends: [] as Dividend[], bad: [] as string[] };
    let url: string | null = request.url;
    for (let pages = 0; url !== null; pages++) {
      if (pages >= MAX_PAGES) throw new Error(`more than ${MAX_PAGES} pages for ${pathOf(request.url)}`);
      this.abort = new AbortController();
      const res = await this.doFetch(url, { headers: { accept: 'application/json', ...this.opts.source.headers(this.opts.credentials) }, signal: this.abort.signal });
      this.status.requests++;
      if (!res.ok) {
        const text = (await res.text().catch(() => '')).slice(0, 200).replace(/\s+/g, ' ').trim();
        throw new Error(`HTTP ${res.status} from ${pathOf(url)}${text === '' ? '' : `: ${text}`}`);
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        throw new Error(`the answer of ${pathOf(url)} is not JSON`);
      }
      const page = this.opts.source.parsePage(request, url, body, this.restUrl);
      if (typeof page === 'string') throw new Error(`the answer of ${pathOf(url)} does not parse: ${page}`);
      for (const row of page.splits) this.take(row, 'splits', out);
      for (const row of page.dividends) this.take(row, 'dividends', out);
      url = page.next;
    }
    return out;
  }

  private take(row: ActionRowFields, kind: 'splits' | 'dividends', out: { splits: Split[]; dividends: Dividend[]; bad: string[] }): void {
    const ticker = typeof row.ticker === 'string' ? row.ticker : null;
    const symbol = ticker === null ? undefined : this.symbolOf.get(ticker);
    // An action of a symbol the feed does not supply (a vendor that answers more than it was asked) is not ours to store.
    if (symbol === undefined) {
      if (ticker === null) out.bad.push(`${kind} row without a ticker`);
      return;
    }
    const fields = { ...row, ticker: symbol };
    if (kind === 'splits') {
      const p = parseSplitInput(fields);
      if (p.ok) out.splits.push(p.value);
      else out.bad.push(`${ticker}: ${p.error}`);
    } else {
      const p = parseDividendInput(fields);
      if (p.ok) out.dividends.push(p.value);
      else out.bad.push(`${ticker}: ${p.error}`);
    }
  }

  private failed(message: string): void {
    // Logged when it starts and when it changes; retried with a growing delay meanwhile.
    if (message !== this.status.failure) this.opts.log(`error: feed ${this.opts.feedId}: fetching corporate actions failed: ${message}; the feed goes on, retrying in ${Math.round(this.retryMs / 1000)} s and later`);
    this.status.failure = message;
    this.status.nextDueMs = this.opts.clock.nowMs() + this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.everyMs);
  }
}

/** The path of a URL, for messages: its query may hold a key (Massive's apiKey) and is left out. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return 'the request';
  }
}

/**
 * The corporate-actions sync of a venue feed, when its protocol has a REST source and its key is
 * configured; null otherwise.
 */
export function actionsSyncFor(protocol: VenueProtocol, settings: VenueFeedSettings, deps: { store: Store; clock: Clock; log: (line: string) => void }): ActionsSync | null {
  const source = protocol.corporateActions;
  const credentials = settings.credentials ?? {};
  if (source === undefined || !(protocol.credentials ?? []).every((name) => (credentials[name] ?? '') !== '')) return null;
  return new ActionsSync({ feedId: protocol.id, source, instruments: settings.instruments ?? protocol.defaultInstruments, credentials, restUrl: settings.restUrl, ...deps });
}

/** The feed, with its corporate actions fetched from its start to its stop. */
export function withCorporateActions(feed: Feed, sync: ActionsSync): Feed {
  return {
    id: feed.id,
    instruments: () => feed.instruments(),
    start(sink: FeedSink) {
      const started = feed.start(sink);
      sync.start();
      return started;
    },
    async stop() {
      await sync.stop();
      await feed.stop();
    },
    health: () => ({ ...feed.health(), corporateActions: sync.health() }),
    ...(feed.backfill && { backfill: (request: BackfillRequest) => feed.backfill!(request) }),
    ...(feed.backfillOlder && { backfillOlder: () => feed.backfillOlder!() }),
  };
}
