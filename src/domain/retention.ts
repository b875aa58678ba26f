// How long completed bars are kept per timeframe (`--retain 1m=90d,5m=1y`): the grammar, the
// defaults, and the cutoff a retention pass removes before. Timeframes not named keep their default.
import { DAY_MS, TIMEFRAMES, type Timeframe } from './timeframes.ts';

/** Milliseconds kept per timeframe; null keeps bars for ever. */
export type Retention = Record<Timeframe, number | null>;

const UNIT_MS: Record<string, number> = { d: DAY_MS, w: 7 * DAY_MS, y: 365 * DAY_MS };

/**
 * The defaults: longer than the simulator's history (31 days of 1-minute, 5 years of daily bars)
 * and than the longest window a range request may ask for per timeframe.
 */
export const DEFAULT_RETENTION: Retention = { '1m': 90 * DAY_MS, '5m': 365 * DAY_MS, '15m': 2 * 365 * DAY_MS, '1h': 5 * 365 * DAY_MS, '4h': 10 * 365 * DAY_MS, '1d': null };

export const RETENTION_ALLOWED = `a comma-separated list of TIMEFRAME=AGE, TIMEFRAME one of ${TIMEFRAMES.join(', ')}, AGE a whole number of days, weeks or years (90d, 12w, 2y) or 'forever'`;

/** `1m=30d,1d=forever` over the defaults; a string saying what is wrong otherwise. */
export function parseRetention(raw: string): Retention | string {
  const out: Retention = { ...DEFAULT_RETENTION };
  const seen = new Set<string>();
  for (const part of raw.split(',')) {
    const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(part);
    if (!m) return `${JSON.stringify(part.trim())} is not TIMEFRAME=AGE`;
    const [, tf, age] = m as unknown as [string, string, string];
    if (!(TIMEFRAMES as readonly string[]).includes(tf)) return `unknown timeframe ${JSON.stringify(tf)}`;
    if (seen.has(tf)) return `${tf} is named twice`;
    seen.add(tf);
    if (age === 'forever') {
      out[tf as Timeframe] = null;
      continue;
    }
    const a = /^([1-9]\d{0,5})([dwy])$/.exec(age);
    if (!a) return `${tf}=${age}: the age must be a whole number of days, weeks or years (90d, 12w, 2y) or 'forever'`;
    out[tf as Timeframe] = Number(a[1]) * UNIT_MS[a[2]!]!;
  }
  return out;
}

/** `1m=90d,5m=365d,...,1d=forever`: how `--help` and the log show a retention. */
export function formatRetention(retention: Retention): string {
  return TIMEFRAMES.map((tf) => {
    const ms = retention[tf];
    return `${tf}=${ms === null ? 'forever' : ms % UNIT_MS.y! === 0 ? `${ms / UNIT_MS.y!}y` : `${Math.round(ms / DAY_MS)}d`}`;
  }).join(',');
}

/** Bars with t before this are past their retention at `nowMs`; null: kept for ever. */
export function retentionCutoffMs(retention: Retention, tf: Timeframe, nowMs: number): number | null {
  const ms = retention[tf];
  return ms === null ? null : nowMs - ms;
}
