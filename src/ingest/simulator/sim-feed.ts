// The built-in simulator as one feed with parts: the spot classes and the perpetuals, each
// simulated venue a named source (`sim-1` … `sim-6`) of the one ingest path, plus the publishers
// of fundamentals, bond yields and the economic calendar. Its history is the feed's backfill.
import type { BackfillRequest, Feed, FeedHealth, FeedInstrument, FeedSink, FeedState } from '../../domain/feed.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/index.ts';
import { CATALOG, PERPETUALS, SIMULATED } from '../reference/catalog.ts';
import type { VenueQuote, VenueTickInput, VenueTrade } from '../ticks.ts';
import { makeHistory } from './backfill.ts';
import { HistoryBuild } from './history-build.ts';
import { SimulatedBonds } from './bonds.ts';
import { SimulatedCalendar } from './economic-calendar.ts';
import { SimulatedFundamentals } from './fundamentals.ts';
import { PerpetualVenues } from './perpetual-venues.ts';
import { SIM_QUOTES_PER_SECOND, SIM_TRADES_PER_SECOND } from './price-model.ts';
import { Simulator, VENUES_PER_CLASS } from './simulator.ts';

export const SIM_FEED_ID = 'sim';
/** How often the simulator advances its instruments: a short step spreads ticks over time as a live feed does. */
const SIM_STEP_MS = 25;
const SOURCES = Math.max(...Object.values(VENUES_PER_CLASS));

export interface SimFeedOptions {
  seed: number;
  /** Multiplies the tick rate. */
  simRate: number;
  historyDays: number;
  historyYears: number;
}

/** The name of simulated venue `venue` (0-based) as a consolidation source. */
export function simSourceName(venue: number): string {
  return `${SIM_FEED_ID}-${venue + 1}`;
}

export class SimFeed implements Feed {
  readonly id = SIM_FEED_ID;
  private readonly list: readonly FeedInstrument[] = [...SIMULATED, ...PERPETUALS].map((s) => ({ assetClass: s.assetClass, symbol: s.symbol, venueSymbol: s.symbol, name: s.name, decimals: s.decimals }));
  private simulator: Simulator | null = null;
  private perpetuals: PerpetualVenues | null = null;
  private fundamentals: SimulatedFundamentals | null = null;
  private bonds: SimulatedBonds | null = null;
  private calendar: SimulatedCalendar | null = null;
  private history: HistoryBuild | null = null;
  private state: FeedState = 'connecting';
  private startedMs: number | null = null;
  private messages = 0;
  /** The newest tick time, not the last: closing books of closed markets carry their old times. */
  private lastMessageMs: number | null = null;
  private rate = { atMs: 0, messages: 0, perSecond: 0 };

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly opts: SimFeedOptions,
    private readonly log: (line: string) => void,
  ) {}

  /** An onError for a simulator part: the failure goes to the log as an error, the feed runs on. */
  private failed(what: string): (err: unknown) => void {
    return (err) => this.log(`error: feed sim: ${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }

  instruments(): readonly FeedInstrument[] {
    return this.list;
  }

  async backfill(request: BackfillRequest): Promise<void> {
    await makeHistory(this.store, request, this.clock, this.opts, this.log);
  }

  /** The history older than each series' head, unless a first start's build is done already. */
  async backfillOlder(): Promise<void> {
    if (this.state === 'stopped') return;
    this.history = new HistoryBuild(this.store, this.clock, this.log);
    await this.history.run();
  }

  start(sink: FeedSink): void {
    const { store, clock, opts } = this;
    const parts = Array.from({ length: SOURCES }, (_, v) => sink.source?.(simSourceName(v)) ?? sink);
    // The simulator speaks symbol ids; the sink speaks this feed's instrument indexes.
    const indexOf: number[] = [];
    this.list.forEach((inst, i) => {
      const entry = store.registry.resolve(inst.assetClass, inst.symbol);
      if (entry) indexOf[entry.id] = i;
    });
    const input: VenueTickInput = {
      onVenueQuote: (symId: number, q: VenueQuote) => {
        const i = indexOf[symId];
        if (i === undefined) return;
        this.messages++;
        if (this.lastMessageMs === null || q.tsMs > this.lastMessageMs) this.lastMessageMs = q.tsMs;
        parts[q.venue]!.quote(i, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
      },
      onVenueTrade: (symId: number, t: VenueTrade) => {
        const i = indexOf[symId];
        if (i === undefined) return;
        this.messages++;
        if (this.lastMessageMs === null || t.tsMs > this.lastMessageMs) this.lastMessageMs = t.tsMs;
        parts[t.venue]!.trade(i, t.tsMs, t.price, t.size);
      },
    };
    const rates = { seed: opts.seed, stepMs: SIM_STEP_MS, quotesPerSecond: SIM_QUOTES_PER_SECOND * opts.simRate, tradesPerSecond: SIM_TRADES_PER_SECOND * opts.simRate };
    this.simulator = new Simulator(store, SIMULATED, input, clock, rates);
    this.simulator.onError = this.failed('simulator step');
    this.simulator.publishClosingBooks(store);
    this.simulator.start();
    this.perpetuals = new PerpetualVenues(store, PERPETUALS, input, clock, rates);
    this.perpetuals.onError = this.failed('perpetual venues step');
    this.perpetuals.open(clock.nowMs());
    this.perpetuals.start();
    // After the closing books: the fundamentals are cross-checked against these prices.
    this.fundamentals = new SimulatedFundamentals(store, CATALOG, clock, opts.seed);
    this.fundamentals.onError = this.failed('simulated fundamentals refresh');
    this.fundamentals.start();
    // Daily official-style observations, so bond history is there on a fresh start (>= 1 year).
    const bondsStarted = performance.now();
    this.bonds = new SimulatedBonds(store, clock, opts.seed, Math.max(1, opts.historyYears));
    this.bonds.onError = this.failed('simulated bond yields');
    const published = this.bonds.start();
    if (published > 0) this.log(`bond yields: ${published} daily observations published in ${((performance.now() - bondsStarted) / 1000).toFixed(2)}s`);
    // Recurring releases from 60 days back to 60 ahead; actuals arrive as the clock passes them.
    this.calendar = new SimulatedCalendar(store, clock, opts.seed);
    this.calendar.onError = this.failed('simulated economic calendar');
    this.calendar.start();
    this.state = 'live';
    this.startedMs = clock.nowMs();
    this.rate = { atMs: this.startedMs, messages: this.messages, perSecond: 0 };
  }

  async stop(): Promise<void> {
    // A step of the history build in flight ends at its next series; the store closes after.
    await this.history?.stop();
    this.simulator?.stop();
    this.perpetuals?.stop();
    this.fundamentals?.stop();
    this.bonds?.stop();
    this.calendar?.stop();
    this.state = 'stopped';
  }

  health(): FeedHealth {
    const nowMs = this.clock.nowMs();
    // The rate over the time since the last report, once at least a second has passed.
    if (nowMs - this.rate.atMs >= 1000) this.rate = { atMs: nowMs, messages: this.messages, perSecond: Math.round(((this.messages - this.rate.messages) * 1000) / (nowMs - this.rate.atMs)) };
    return {
      id: this.id,
      state: this.state,
      connectedSinceMs: this.state === 'live' ? this.startedMs : null,
      lastMessageMs: this.lastMessageMs,
      messagesPerSecond: this.rate.perSecond,
      reconnects: 0,
      parseErrors: 0,
      instruments: this.list.length,
      reason: null,
      ticks: this.messages,
      conflated: 0,
      dropped: 0,
    };
  }
}
