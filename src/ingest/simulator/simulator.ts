// The built-in feed: several simulated venues per instrument, quoting and trading around a random
// walk, each only while its market is open. Deterministic for a seed and a clock. It feeds the
// ingest path as a live adapter would (through the sim feed's sink, sim-feed.ts).
import { CLASS_POLICY, registryKeyOf } from '../../domain/asset-classes.ts';
import type { InstrumentSpec, SymbolEntry } from '../../domain/instrument.ts';
import type { Clock } from '../../clock.ts';
import { isOpenAt, usRegularSessionAt } from '../../market/index.ts';
import type { Store } from '../../store/index.ts';
import type { VenueTickInput } from '../ticks.ts';
import { calendarOf } from './hours.ts';
import { roundTo, quoteAround, sigmaOver, SIM_QUOTES_PER_SECOND, SIM_TRADES_PER_SECOND, stepPrice, tradeSize } from './price-model.ts';
import { Rng, seedFor } from './random.ts';

export interface SimulatorOptions {
  seed: number;
  /** Simulation step. */
  stepMs?: number;
  /** Quote updates per instrument per second, across its venues. */
  quotesPerSecond?: number;
  /** Trades per instrument per second, for classes with a tape. */
  tradesPerSecond?: number;
}

interface SimInstrument {
  entry: SymbolEntry;
  spec: InstrumentSpec;
  calendar: string;
  fair: number;
  rng: Rng;
  venues: number;
  biasBps: number[];
  hasTape: boolean;
}

/**
 * Perpetuals: three steady venues plus one that lapses, one that crosses and one that drifts
 * (perpetual-venues.ts). Overnight lines: two thin overnight venues.
 */
export const VENUES_PER_CLASS = { crypto: 3, forex: 4, stocks: 3, indices: 3, etfs: 3, commodities: 3, perpetuals: 6, overnight: 2 } as const;

export class Simulator {
  private readonly instruments: SimInstrument[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastStepMs: number;
  private readonly stepMs: number;
  private readonly quoteProb: number;
  private readonly tradeProb: number;
  ticksEmitted = 0;
  /** Called when a step fails; the feed goes on with the next step. */
  /** Told of a failed step; SimFeed sends it to the service log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    store: Store,
    specs: readonly InstrumentSpec[],
    private readonly pipeline: VenueTickInput,
    private readonly clock: Clock,
    opts: SimulatorOptions,
  ) {
    this.stepMs = opts.stepMs ?? 100;
    this.quoteProb = ((opts.quotesPerSecond ?? SIM_QUOTES_PER_SECOND) * this.stepMs) / 1000;
    this.tradeProb = ((opts.tradesPerSecond ?? SIM_TRADES_PER_SECOND) * this.stepMs) / 1000;
    this.lastStepMs = clock.nowMs();
    for (const spec of specs) {
      const entry = store.registry.resolve(spec.assetClass, spec.symbol);
      if (!entry) continue;
      // Keyed like the registry, so an overnight line does not walk in step with its regular-session
      // series, and by the ticks stored so far, so a restart does not replay the last start's ticks.
      const stored = store.latest(entry.id);
      const key = registryKeyOf(spec.assetClass, spec.symbol);
      const rng = new Rng(seedFor(opts.seed ^ 0x5eed, stored ? `${key}:${stored.quoteSeq}:${stored.tradeSeq}` : key));
      const venues = VENUES_PER_CLASS[spec.assetClass];
      this.instruments.push({
        entry,
        spec,
        calendar: calendarOf(spec),
        fair: startPrice(store, entry, spec),
        rng,
        venues,
        biasBps: Array.from({ length: venues }, () => (rng.next() - 0.5) * spec.spreadBps * 0.5),
        hasTape: CLASS_POLICY[spec.assetClass].barSource === 'trade',
      });
    }
  }

  /**
   * Instruments with no quote yet (a fresh store whose market is closed now) get their venues'
   * closing book at the end of their last stored minute, so quotes and trades resolve at once.
   */
  publishClosingBooks(store: Store): void {
    for (const inst of this.instruments) {
      if (store.latest(inst.entry.id)?.quote) continue;
      const t = store.lastCompletedBarT(inst.entry.id, '1m');
      const open = store.openBar(inst.entry.id, '1m');
      const lastT = open ? open.t : t;
      if (lastT === null) continue;
      // Late in the last minute, with room for the consolidator's strictly increasing timestamps
      // (one millisecond per venue), so no value lands on the session's close instant.
      const tsMs = lastT + 59_900;
      for (let venue = 0; venue < inst.venues; venue++) {
        const book = quoteAround(inst.spec, inst.fair, inst.biasBps[venue]!, 1, inst.rng);
        this.pipeline.onVenueQuote(inst.entry.id, { venue, tsMs, ...book });
      }
      if (inst.hasTape) this.pipeline.onVenueTrade(inst.entry.id, { venue: 0, tsMs, price: roundTo(inst.fair, inst.spec.decimals), size: tradeSize(inst.spec, inst.rng) });
    }
  }

  start(): void {
    if (this.timer) return;
    this.lastStepMs = this.clock.nowMs();
    this.timer = setInterval(() => {
      try {
        this.step(this.clock.nowMs());
      } catch (err) {
        this.onError(err);
      }
    }, this.stepMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Advances every open instrument to `nowMs` and emits its venues' ticks. */
  step(nowMs: number): void {
    const dt = Math.max(1, nowMs - this.lastStepMs);
    this.lastStepMs = nowMs;
    const usRegular = usRegularSessionAt(nowMs) !== null;
    for (const inst of this.instruments) {
      if (!isOpenAt(inst.calendar, nowMs)) continue;
      const { spec, rng } = inst;
      inst.fair = stepPrice(inst.fair, sigmaOver(spec, dt), rng);
      // Thin books outside the US regular session: ETF spreads sometimes pass the 0.5% gate.
      const widen = spec.assetClass === 'etfs' && !usRegular ? 1 + rng.next() * rng.next() * 120 : 1;
      for (let venue = 0; venue < inst.venues; venue++) {
        for (let n = eventsThisStep(this.quoteProb / inst.venues, rng); n > 0; n--) {
          const book = quoteAround(spec, inst.fair, inst.biasBps[venue]!, widen, rng);
          this.pipeline.onVenueQuote(inst.entry.id, { venue, tsMs: nowMs, bid: book.bid, ask: book.ask, bidSize: book.bidSize, askSize: book.askSize });
          this.ticksEmitted++;
        }
      }
      if (!inst.hasTape) continue;
      for (let n = eventsThisStep(this.tradeProb, rng); n > 0; n--) {
        const venue = rng.int(inst.venues);
        const book = quoteAround(spec, inst.fair, inst.biasBps[venue]!, 1, rng);
        const price = rng.next() < 0.5 ? book.bid : book.ask;
        this.pipeline.onVenueTrade(inst.entry.id, { venue, tsMs: nowMs, price, size: tradeSize(spec, rng) });
        this.ticksEmitted++;
      }
    }
  }
}

/** Continues from the stored state: the last quote mid, else the last bar close, else the reference level. */
export function startPrice(store: Store, entry: SymbolEntry, spec: InstrumentSpec): number {
  const q = store.latest(entry.id)?.quote;
  if (q) return (q.bid + q.ask) / 2;
  const open = store.openBar(entry.id, '1m');
  if (open) return open.c;
  const t = store.lastCompletedBarT(entry.id, '1m');
  if (t !== null) {
    const bar = store.lastBarBefore(entry.id, '1m', t + 1);
    if (bar) return bar.c;
  }
  return spec.price;
}

/** How many events with this expected count happen in one step: the whole part, plus one more with the fraction's probability (one draw). */
function eventsThisStep(expected: number, rng: Rng): number {
  const whole = Math.floor(expected);
  return whole + (rng.next() < expected - whole ? 1 : 0);
}
