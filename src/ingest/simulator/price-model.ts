// How the simulator moves and quotes one instrument: a geometric random walk for the fair price,
// and per-venue quotes around it with the instrument's spread, sizes and a small venue bias.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import type { Rng } from './random.ts';

export const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Default tape rate per instrument; history volumes are scaled to it. */
export const SIM_TRADES_PER_SECOND = 1;
export const SIM_QUOTES_PER_SECOND = 4;

export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** Standard deviation of the log price over `durMs`. */
export function sigmaOver(spec: Pick<InstrumentSpec, 'volAnnual'>, durMs: number): number {
  return spec.volAnnual * Math.sqrt(durMs / YEAR_MS);
}

/** One step of the walk: the fair price `durMs` later (or earlier, the same in distribution). */
export function stepPrice(price: number, sigma: number, rng: Rng): number {
  return price * Math.exp(sigma * rng.normal());
}

/** Size of one simulated trade: 1 to 20 lots (crypto in hundredths of a lot). */
export function tradeSize(spec: InstrumentSpec, rng: Rng): number {
  const isCrypto = spec.assetClass === 'crypto';
  return roundTo((spec.lotSize * (1 + rng.int(20))) / (isCrypto ? 100 : 1), isCrypto ? 6 : 0);
}

/** Expected traded volume over `durMs` at `tradesPerSecond` (keeps history and live volumes alike). */
export function expectedVolume(spec: InstrumentSpec, durMs: number, tradesPerSecond: number, rng: Rng): number {
  const mean = (spec.lotSize * 10.5) / (spec.assetClass === 'crypto' ? 100 : 1);
  const v = mean * tradesPerSecond * (durMs / 1000) * (0.5 + rng.next());
  return roundTo(v, spec.assetClass === 'crypto' ? 6 : 0);
}

export interface VenueBook {
  bid: number;
  ask: number;
  bidSize: number;
  askSize: number;
}

/**
 * A venue's top of book around the fair price. `widen` ≥ 1 scales the spread (thin books
 * outside the regular session); `biasBps` shifts the venue's mid.
 */
export function quoteAround(spec: InstrumentSpec, fair: number, biasBps: number, widen: number, rng: Rng): VenueBook {
  const step = 10 ** -spec.decimals;
  const mid = fair * (1 + biasBps / 10_000);
  const half = Math.max(step / 2, (mid * spec.spreadBps * widen * (0.7 + 0.6 * rng.next())) / 20_000);
  let bid = roundTo(mid - half, spec.decimals);
  let ask = roundTo(mid + half, spec.decimals);
  if (ask <= bid) ask = roundTo(bid + step, spec.decimals);
  if (bid <= 0) {
    bid = step;
    ask = 2 * step;
  }
  const size = () => roundTo(spec.lotSize * (1 + rng.int(10)), spec.lotSize < 1 ? 6 : 0);
  return { bid, ask, bidSize: size(), askSize: size() };
}
