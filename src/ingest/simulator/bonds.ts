// The simulator's bond yields: one observation per tenor per business day of each country (the
// sessions of its stock market's calendar), published once that day's session has closed, as an
// official end-of-day figure is. A first start publishes the history window; later, each new
// business day as the clock moves. Never replaces a stored observation (an imported one wins).
import { BOND_COUNTRIES, BOND_TENORS, type BondCountry, type BondObservation } from '../../domain/bonds.ts';
import { addDays, sessionsBetween } from '../../market/index.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/index.ts';
import { BondCurveModel } from './bonds-model.ts';

/** The `source` of every simulated observation: never passed off as an official figure. */
export const SIM_BONDS_SOURCE = 'mds simulator';
/** How often the feed looks for a newly closed business day. */
const CHECK_EVERY_MS = 60_000;

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class SimulatedBonds {
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly model: BondCurveModel;
  /** Called when publishing fails; the next check tries again. */
  /** Told of a failed step; SimFeed sends it to the service log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    seed: number,
    /** Years of daily observations made on a first start. */
    private readonly historyYears: number,
  ) {
    this.model = new BondCurveModel(seed);
  }

  /** Writes every observation due by now and not stored yet, in one transaction; returns how many. */
  publish(): number {
    const nowMs = this.clock.nowMs();
    const today = isoDate(nowMs);
    const windowStart = addDays(today, -Math.round(this.historyYears * 365.25));
    // Per country: the business days due and, per tenor, the last date already stored.
    const due: { cc: BondCountry; dates: Set<string>; stored: (string | undefined)[] }[] = [];
    const allDates = new Set<string>();
    for (const cc of BOND_COUNTRIES) {
      const stored = BOND_TENORS[cc].map((tenor) => this.store.bonds.latest(`${cc}:${tenor}`)?.date);
      const oldest = stored.some((d) => d === undefined) ? windowStart : stored.reduce((a, b) => (a! < b! ? a : b))!;
      const from = oldest > windowStart ? addDays(oldest, 1) : windowStart;
      if (from > today) continue;
      const dates = sessionsBetween(cc, from, today)
        .filter((s) => s.closeMs <= nowMs)
        .map((s) => s.date);
      if (dates.length === 0) continue;
      due.push({ cc, dates: new Set(dates), stored });
      for (const d of dates) allDates.add(d);
    }
    const observations: BondObservation[] = [];
    // Ascending dates: the model's walk only moves forward.
    const byDate = [...allDates].sort();
    for (const date of byDate) {
      for (const { cc, dates, stored } of due) {
        if (!dates.has(date)) continue;
        const curve = this.model.curve(cc, date);
        BOND_TENORS[cc].forEach((tenor, i) => {
          const last = stored[i];
          if (last === undefined || date > last) observations.push({ symbol: `${cc}:${tenor}`, date, yieldPct: curve[i]!, source: SIM_BONDS_SOURCE });
        });
      }
    }
    if (observations.length > 0) {
      this.store.bonds.putNew(observations);
      // For an ingest node to publish to its edges (store/history-changes.ts).
      this.store.historyChanges.note({ kind: 'bonds', symbols: [...new Set(observations.map((o) => o.symbol))] }).catch(this.onError);
    }
    return observations.length;
  }

  /** Publishes what is due now (synchronously; returns how many), then checks every minute. */
  start(): number {
    const publish = () => {
      try {
        return this.publish();
      } catch (err) {
        this.onError(err);
        return 0;
      }
    };
    this.timer ??= setInterval(publish, CHECK_EVERY_MS);
    return publish();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
