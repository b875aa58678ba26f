// The simulator's yield curves: a Nelson–Siegel curve (level, slope, curvature) per day whose
// factors wander as slow mean-reverting random walks, so curves are smooth from one day to the
// next, usually upward-sloping and inverted for spells. The euro-area countries share one set of
// factors plus a country spread that widens with maturity. The path starts at a fixed date and
// steps once per calendar day, so a date's curve depends only on the seed, never on when it is
// asked for (a first start's history and later daily observations agree).
import { BOND_TENORS, tenorMonths, type BondCountry } from '../../domain/bonds.ts';
import { Rng, seedFor } from './random.ts';

/** The walk starts here, one step per calendar day. */
export const MODEL_START_DATE = '1990-01-01';
const DAY_MS = 86_400_000;
const START_DAY = Date.parse(`${MODEL_START_DATE}T00:00:00Z`) / DAY_MS;

interface Factor {
  mean: number;
  /** Pull towards the mean per day. */
  reversion: number;
  /** Standard deviation of the daily step, percentage points. */
  dailySd: number;
}

/** Curves with their own factors: the US, the UK and the euro area (its countries add a spread). */
type CurveBlock = 'US' | 'GB' | 'EA';
const BLOCK_FACTORS: Record<CurveBlock, { level: Factor; slope: Factor; curvature: Factor; lambdaYears: number }> = {
  // Slope is the short end minus the long end: negative is upward-sloping, positive inverted.
  US: { level: { mean: 4.6, reversion: 0.0015, dailySd: 0.035 }, slope: { mean: -0.9, reversion: 0.0015, dailySd: 0.05 }, curvature: { mean: 0, reversion: 0.01, dailySd: 0.06 }, lambdaYears: 1.8 },
  GB: { level: { mean: 4.4, reversion: 0.0015, dailySd: 0.035 }, slope: { mean: -0.8, reversion: 0.0015, dailySd: 0.05 }, curvature: { mean: 0, reversion: 0.01, dailySd: 0.06 }, lambdaYears: 2.2 },
  EA: { level: { mean: 3.0, reversion: 0.0015, dailySd: 0.03 }, slope: { mean: -0.9, reversion: 0.0015, dailySd: 0.045 }, curvature: { mean: 0, reversion: 0.01, dailySd: 0.05 }, lambdaYears: 2.0 },
};

/** Euro-area spread over the common curve at the long end (percentage points). */
const EA_SPREADS: Partial<Record<BondCountry, Factor>> = {
  DE: { mean: -0.35, reversion: 0.004, dailySd: 0.008 },
  FR: { mean: 0.3, reversion: 0.004, dailySd: 0.012 },
  IT: { mean: 1.2, reversion: 0.003, dailySd: 0.025 },
  ES: { mean: 0.6, reversion: 0.003, dailySd: 0.018 },
};

const BLOCKS: CurveBlock[] = ['US', 'GB', 'EA'];
const SPREAD_COUNTRIES = Object.keys(EA_SPREADS) as BondCountry[];

function blockOf(cc: BondCountry): CurveBlock {
  return cc === 'US' || cc === 'GB' ? cc : 'EA';
}

/** Nelson–Siegel loadings of slope and curvature at a maturity in years. */
function loadings(years: number, lambdaYears: number): [number, number] {
  const x = years / lambdaYears;
  const slope = (1 - Math.exp(-x)) / x;
  return [slope, slope - Math.exp(-x)];
}

/** Spreads are smaller at the short end. */
function spreadLoading(years: number): number {
  return 0.35 + 0.65 * (1 - Math.exp(-years / 6));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export class BondCurveModel {
  private rng: Rng;
  private day = START_DAY;
  private readonly state: Record<CurveBlock, [number, number, number]>;
  private readonly spreads: Partial<Record<BondCountry, number>>;

  constructor(private readonly seed: number) {
    this.rng = new Rng(seedFor(seed, 'bonds'));
    this.state = { US: [0, 0, 0], GB: [0, 0, 0], EA: [0, 0, 0] };
    this.spreads = {};
    this.reset();
  }

  private reset(): void {
    this.rng = new Rng(seedFor(this.seed, 'bonds'));
    this.day = START_DAY;
    for (const b of BLOCKS) {
      const f = BLOCK_FACTORS[b];
      this.state[b] = [f.level.mean, f.slope.mean, f.curvature.mean];
    }
    for (const cc of SPREAD_COUNTRIES) this.spreads[cc] = EA_SPREADS[cc]!.mean;
  }

  private step(): void {
    const move = (x: number, f: Factor) => x + f.reversion * (f.mean - x) + f.dailySd * this.rng.normal();
    for (const b of BLOCKS) {
      const f = BLOCK_FACTORS[b];
      const s = this.state[b];
      s[0] = move(s[0], f.level);
      s[1] = move(s[1], f.slope);
      s[2] = move(s[2], f.curvature);
    }
    for (const cc of SPREAD_COUNTRIES) this.spreads[cc] = move(this.spreads[cc]!, EA_SPREADS[cc]!);
    this.day++;
  }

  /** Moves the walk to a date (`YYYY-MM-DD`); going back starts it over. */
  private advanceTo(date: string): void {
    const target = Date.parse(`${date}T00:00:00Z`) / DAY_MS;
    if (target < this.day) this.reset();
    while (this.day < target) this.step();
  }

  /**
   * The curve of a country on a date: yield in percent (2 decimals, as the Treasury publishes) per
   * tenor, in the country's tenor order. Cheapest when asked with ascending dates.
   */
  curve(cc: BondCountry, date: string): number[] {
    this.advanceTo(date);
    const block = blockOf(cc);
    const [level, slope, curvature] = this.state[block];
    const lambda = BLOCK_FACTORS[block].lambdaYears;
    const spread = this.spreads[cc] ?? 0;
    return BOND_TENORS[cc].map((tenor) => {
      const years = tenorMonths(tenor) / 12;
      const [ls, lc] = loadings(years, lambda);
      // A basis point or so of tenor-specific noise, fixed per seed, symbol and date.
      const noise = (seedFor(this.seed, `${cc}:${tenor}|${date}`) / 2 ** 32 - 0.5) * 0.02;
      const y = level + slope * ls + curvature * lc + spread * spreadLoading(years) + noise;
      return round2(Math.min(25, Math.max(-1.5, y)));
    });
  }
}
