// The simulator's fundamentals: one raw issuer record per US, DE, ES and FR stock per day,
// priced off the listing's live price so market caps agree with the quotes, written through the
// same validation as a file import. Some listings carry the flaws real vendor data has
// (SIM_FUNDAMENTALS_CASES) so every rule of the spec shows on a fresh start. Deterministic for a
// seed and a date; the share structure refreshes daily, the profile monthly.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import type { RawFundamentals } from '../../domain/fundamentals-input.ts';
import { isFundamentalsMarket } from '../../domain/fundamentals.ts';
import { DAY_MS } from '../../domain/timeframes.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/index.ts';
import { livePriceOf, writeFundamentals, type WriteSummary } from '../fundamentals-writer.ts';
import { SIM_FUNDAMENTALS_CASES, SIM_PROFILES, type SimCase, type SimProfile } from './fundamentals-profiles.ts';
import { Rng, seedFor } from './random.ts';

/** How often the feed looks whether a new day has begun. */
const CHECK_EVERY_MS = 10 * 60_000;
/** Metadata key: the last vintage date the feed delivered, so a restart the same day delivers nothing. */
const DELIVERED_KEY = 'simFundamentalsDelivered';

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The raw record of one listing for one vintage date, as a data vendor would deliver it. */
export function simulatedRecord(spec: InstrumentSpec, profile: SimProfile, price: number, date: string, seed: number, simCase: SimCase | undefined): RawFundamentals {
  const stable = new Rng(seedFor(seed, `fundamentals:${spec.symbol}`));
  const daily = new Rng(seedFor(seed, `fundamentals:${spec.symbol}:${date}`));
  let shares = Math.round(profile.sharesM * 1e6) + stable.int(1_000_000);
  // A count divisible by 20 makes "exactly 5% over" a whole number of shares.
  if (simCase === 'float-exactly-5pct') shares -= shares % 20;
  const insider = round4(0.002 + stable.next() * 0.06);
  const freeFloat = Math.round(shares * (1 - insider - stable.next() * 0.04));
  const turnover = (0.002 + stable.next() * 0.01) * (0.8 + daily.next() * 0.4);
  const adv10d = Math.round(shares * turnover);
  const shortInterest = Math.round(freeFloat * (0.004 + daily.next() * 0.03));
  const ratio = profile.ratio ?? 1;
  const record: RawFundamentals = {
    symbol: spec.symbol,
    market: spec.market!,
    baseSymbol: spec.baseSymbol!,
    asOf: date,
    isDepositaryReceipt: spec.isDepositaryReceipt === true,
    company: spec.name,
    exchange: profile.exchange,
    mic: profile.mic,
    country: profile.country,
    sector: profile.sector,
    industry: profile.industry,
    securityType: profile.securityType ?? 'Common Stock',
    employees: 1000 + stable.int(300) * 1000,
    marketCap: Math.round(shares * price * (1 + (daily.next() - 0.5) * 0.02)),
    sharesTotal: shares,
    freeFloat,
    shortInterest,
    daysToCover: round2(shortInterest / adv10d),
    insiderOwnership: insider,
    institutionalOwnership: round4(0.45 + stable.next() * 0.4),
    adv10d,
    adv90d: Math.round(adv10d * (0.85 + daily.next() * 0.3)),
    beta: round2(0.6 + stable.next() * 1.2),
  };
  switch (simCase) {
    case 'receipt-ordinary-count':
      record.sharesTotal = shares * ratio;
      break;
    case 'receipt-ordinary-float':
      record.sharesTotal = shares * ratio;
      record.freeFloat = freeFloat * ratio;
      break;
    case 'receipt-garbled-float':
      record.sharesTotal = shares * ratio;
      record.freeFloat = Math.round(shares * ratio * 1.2);
      break;
    case 'receipt-no-float':
      record.sharesTotal = shares * ratio;
      delete record.freeFloat;
      break;
    case 'receipt-float-over':
      record.freeFloat = Math.round(shares * 1.08);
      break;
    case 'stale-split-count':
      record.sharesTotal = Math.round(shares / 10);
      record.freeFloat = Math.round(freeFloat / 10);
      break;
    case 'float-within-5pct':
      record.freeFloat = Math.round(shares * 1.02);
      break;
    case 'float-exactly-5pct':
      record.freeFloat = (shares / 100) * 105;
      break;
    case 'float-far-over':
      record.freeFloat = Math.round(shares * 1.4);
      break;
    case 'float-unreconciled':
      record.freeFloat = Math.round(shares * 1.02);
      delete record.insiderOwnership;
      break;
    case 'unreported-fields':
      delete record.employees;
      delete record.beta;
      delete record.institutionalOwnership;
      break;
    default:
      break;
  }
  return record;
}

export class SimulatedFundamentals {
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastDate: string | null = null;
  private readonly listings: { spec: InstrumentSpec; profile: SimProfile }[];
  /** Called when a refresh fails; the next day's refresh tries again. */
  /** Told of a failed step; SimFeed sends it to the service log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    private readonly store: Store,
    specs: readonly InstrumentSpec[],
    private readonly clock: Clock,
    private readonly seed: number,
  ) {
    this.listings = specs.flatMap((spec) => {
      const profile = SIM_PROFILES[spec.symbol];
      return spec.assetClass === 'stocks' && spec.market && isFundamentalsMarket(spec.market) && profile ? [{ spec, profile }] : [];
    });
  }

  /**
   * Delivers today's records, once per day (the records are written before the first await), to
   * listings not already refreshed today by an import. Null when nothing was due.
   */
  async refresh(): Promise<WriteSummary | null> {
    const nowMs = this.clock.nowMs();
    const today = isoDate(nowMs);
    this.lastDate = today;
    if (this.store.getMeta<string>(DELIVERED_KEY) === today) return null;
    const records: RawFundamentals[] = [];
    for (const { spec, profile } of this.listings) {
      const stored = this.store.fundamentals.get(spec.symbol);
      if (stored?.sharesAsOf && stored.sharesAsOf >= today) continue;
      const live = livePriceOf(this.store, spec.symbol);
      const price = live ?? spec.price;
      const simCase = SIM_FUNDAMENTALS_CASES[spec.symbol];
      const record = simulatedRecord(spec, profile, price, today, this.seed, simCase);
      if (live === null) record.price = price;
      if (simCase === 'restatement-missing-figure' && !stored) {
        // Yesterday's complete set, then today's restatement without short interest: the set
        // keeps yesterday's figures and as_of.
        const yesterday = simulatedRecord(spec, profile, price, isoDate(nowMs - DAY_MS), this.seed, undefined);
        if (live === null) yesterday.price = price;
        records.push(yesterday);
        delete record.shortInterest;
      }
      records.push(record);
    }
    const summary = records.length === 0 ? null : writeFundamentals(this.store, records);
    // For an ingest node to publish to its edges (store/history-changes.ts).
    await this.store.historyChanges.note({ kind: 'fundamentals', symbols: [...new Set(records.map((r) => r.symbol))] });
    await this.store.putMeta(DELIVERED_KEY, today);
    return summary;
  }

  /** Delivers today's records now (synchronously), then each new day's. */
  start(): void {
    const refresh = () => void this.refresh().catch(this.onError);
    refresh();
    this.timer ??= setInterval(() => {
      if (isoDate(this.clock.nowMs()) !== this.lastDate) refresh();
    }, CHECK_EVERY_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
