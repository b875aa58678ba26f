// The simulated perpetual venues: several independent sources per perpetual, quoting and trading
// around one random walk, so the composite rules show on a fresh start. Three venues are steady;
// one lapses (silent 30 s in every 90 s, so it goes stale), one crosses its book (10 s in every
// minute) and one drifts away from the others and back (a slow swing of ±1.5%). Deterministic
// for a seed and a clock; the venues of each symbol run on their own phase.
import type { InstrumentSpec, SymbolEntry } from '../../domain/instrument.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/index.ts';
import type { VenueTickInput } from '../ticks.ts';
import { quoteAround, roundTo, sigmaOver, SIM_QUOTES_PER_SECOND, SIM_TRADES_PER_SECOND, stepPrice, type VenueBook } from './price-model.ts';
import { Rng, seedFor } from './random.ts';
import { startPrice, VENUES_PER_CLASS } from './simulator.ts';

export type VenueBehaviour = 'steady' | 'lapsing' | 'crossing' | 'drifting';

export const PERPETUAL_VENUES: readonly VenueBehaviour[] = ['steady', 'steady', 'steady', 'lapsing', 'crossing', 'drifting'];

const LAPSE_CYCLE_MS = 90_000;
const LAPSE_SILENT_MS = 30_000;
const CROSS_CYCLE_MS = 60_000;
const CROSS_MS = 10_000;
const DRIFT_CYCLE_MS = 300_000;
const DRIFT_BPS = 150;
/** A late step stands for at most this many steps (a process resumed after hours quotes once). */
const MAX_STEPS_PER_STEP = 1000;

/**
 * The chance of at least one event in `steps` steps of chance `p` each. A step that fires late
 * (a starved process) stands for the steps it missed, so the venues stay as fresh per second of
 * time passed; on time it is `p` itself, and the random sequence is as before.
 */
function chanceOver(p: number, steps: number): number {
  return steps <= 1 ? p : 1 - (1 - p) ** Math.min(steps, MAX_STEPS_PER_STEP);
}

/** Where the composites take venue ticks. */
export type CompositeInput = VenueTickInput;

export interface PerpetualVenueOptions {
  seed: number;
  stepMs?: number;
  /** Quote updates per symbol per second, across its venues. */
  quotesPerSecond?: number;
  tradesPerSecond?: number;
}

interface SimPerpetual {
  entry: SymbolEntry;
  spec: InstrumentSpec;
  fair: number;
  rng: Rng;
  biasBps: number[];
  /** Per-symbol offset of the venues' schedules. */
  phaseMs: number;
}

/** A perpetual print: a tenth of a lot to two lots, in fractions (perpetuals trade fractional contracts). */
export function perpetualTradeSize(spec: InstrumentSpec, rng: Rng): number {
  return roundTo((spec.lotSize * (1 + rng.int(20))) / 10, 6);
}

/** Whether a venue of this behaviour is silent at `atMs`. */
export function isSilent(behaviour: VenueBehaviour, atMs: number): boolean {
  return behaviour === 'lapsing' && atMs % LAPSE_CYCLE_MS < LAPSE_SILENT_MS;
}

/** A venue's book at `atMs` around the fair price, its misbehaviour applied. */
export function venueBook(behaviour: VenueBehaviour, spec: InstrumentSpec, fair: number, biasBps: number, atMs: number, rng: Rng): VenueBook {
  const drift = behaviour === 'drifting' ? DRIFT_BPS * Math.sin((2 * Math.PI * (atMs % DRIFT_CYCLE_MS)) / DRIFT_CYCLE_MS) : 0;
  const book = quoteAround(spec, fair, biasBps + drift, 1, rng);
  if (behaviour === 'crossing' && atMs % CROSS_CYCLE_MS < CROSS_MS) {
    // A crossed book: the bid above the ask, as a venue with a stuck side publishes.
    const step = 10 ** -spec.decimals;
    return { ...book, bid: roundTo(book.ask + Math.max(step, book.ask - book.bid), spec.decimals) };
  }
  return book;
}

export class PerpetualVenues {
  private readonly symbols: SimPerpetual[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastStepMs: number;
  private readonly stepMs: number;
  private readonly quoteProb: number;
  private readonly tradeProb: number;
  private readonly venues = VENUES_PER_CLASS.perpetuals;
  ticksEmitted = 0;
  /** Told of a failed step; SimFeed sends it to the service log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    store: Store,
    specs: readonly InstrumentSpec[],
    private readonly composites: CompositeInput,
    private readonly clock: Clock,
    opts: PerpetualVenueOptions,
  ) {
    this.stepMs = opts.stepMs ?? 100;
    this.quoteProb = ((opts.quotesPerSecond ?? SIM_QUOTES_PER_SECOND) * this.stepMs) / 1000;
    this.tradeProb = ((opts.tradesPerSecond ?? SIM_TRADES_PER_SECOND) * this.stepMs) / 1000;
    this.lastStepMs = clock.nowMs();
    for (const spec of specs) {
      if (spec.assetClass !== 'perpetuals') continue;
      const entry = store.registry.bySymbolName(spec.symbol);
      if (!entry) continue;
      const rng = new Rng(seedFor(opts.seed ^ 0x9e77, spec.symbol));
      this.symbols.push({
        entry,
        spec,
        fair: startPrice(store, entry, spec),
        rng,
        biasBps: Array.from({ length: this.venues }, () => (rng.next() - 0.5) * spec.spreadBps * 0.5),
        phaseMs: rng.int(LAPSE_CYCLE_MS * CROSS_CYCLE_MS),
      });
    }
  }

  /** Every venue quotes once at `nowMs` (a fresh start has its composites at once). */
  open(nowMs: number): void {
    for (const s of this.symbols) {
      for (let venue = 0; venue < this.venues; venue++) this.quote(s, venue, nowMs);
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

  /**
   * Advances every perpetual to `nowMs` (they trade around the clock) and emits its venues' ticks,
   * as many as the time since the last step calls for (one per venue at most).
   */
  step(nowMs: number): void {
    const dt = Math.max(1, nowMs - this.lastStepMs);
    this.lastStepMs = nowMs;
    const steps = dt / this.stepMs;
    const quoteChance = chanceOver(this.quoteProb / this.venues, steps);
    const tradeChance = chanceOver(this.tradeProb, steps);
    for (const s of this.symbols) {
      s.fair = stepPrice(s.fair, sigmaOver(s.spec, dt), s.rng);
      for (let venue = 0; venue < this.venues; venue++) {
        if (s.rng.next() < quoteChance) this.quote(s, venue, nowMs);
      }
      if (s.rng.next() < tradeChance) {
        const venue = s.rng.int(this.venues);
        const behaviour = PERPETUAL_VENUES[venue]!;
        if (isSilent(behaviour, nowMs + s.phaseMs)) continue;
        const book = venueBook(behaviour, s.spec, s.fair, s.biasBps[venue]!, nowMs + s.phaseMs, s.rng);
        const price = s.rng.next() < 0.5 ? book.bid : book.ask;
        this.composites.onVenueTrade(s.entry.id, { venue, tsMs: nowMs, price, size: perpetualTradeSize(s.spec, s.rng) });
        this.ticksEmitted++;
      }
    }
  }

  private quote(s: SimPerpetual, venue: number, nowMs: number): void {
    const behaviour = PERPETUAL_VENUES[venue]!;
    const atMs = nowMs + s.phaseMs;
    if (isSilent(behaviour, atMs)) return;
    const book = venueBook(behaviour, s.spec, s.fair, s.biasBps[venue]!, atMs, s.rng);
    this.composites.onVenueQuote(s.entry.id, { venue, tsMs: nowMs, bid: book.bid, ask: book.ask, bidSize: book.bidSize, askSize: book.askSize });
    this.ticksEmitted++;
  }
}
