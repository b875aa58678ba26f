// How the console writes numbers, prices, ages and countdowns.

const grouped = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const fmtInt = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : grouped.format(Math.round(n)));
/** A volume: 333.8K, 12.5, 0.0164 (crypto sizes are fractions: compact notation would say 0). */
export function fmtVolume(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (Math.abs(n) >= 1000) return compact.format(n);
  return n === 0 ? '0' : String(Number(n.toPrecision(4)));
}

/**
 * A price with the decimals its size needs: 95,012.34, 1.08453, 0.000123. `digits` fixes them (the
 * board keeps one symbol's decimals steady, so columns do not jump as trailing zeros come and go).
 */
export function fmtPrice(p: number | null | undefined, digits?: number): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  const d = digits ?? priceDigits(p);
  return p.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

export function priceDigits(p: number): number {
  const a = Math.abs(p);
  if (a >= 1000) return 2;
  if (a >= 10) return 3;
  if (a >= 1) return 5;
  if (a === 0) return 2;
  return Math.min(8, 2 - Math.floor(Math.log10(a)) + 3);
}

export function fmtPercent(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return `${p > 0 ? '+' : ''}${p.toFixed(2)}%`;
}

/** Bytes in binary units: 812.0 MiB, 36.4 GiB. */
export function fmtBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** 450ms, 12.3s, 4m 12s, 3h 05m, 2d 04h. */
export function fmtAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return fmtDuration(ms);
}

/** The coarsest unit only, for narrow cells: 450ms, 12s, 4m, 3h, 2d. */
export function fmtAgeShort(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  if (ms < 60_000) return `${Math.floor(ms / 1000)}s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m`;
  if (ms < 172_800_000) return `${Math.floor(ms / 3_600_000)}h`;
  return `${Math.floor(ms / 86_400_000)}d`;
}

/** A countdown or a span, to the second under an hour: 59s, 4m 07s, 3h 05m, 2d 04h. */
export function fmtDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const hrs = Math.floor(m / 60);
  if (hrs < 48) return `${hrs}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(hrs / 24)}d ${String(hrs % 24).padStart(2, '0')}h`;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock time in a time zone: `14:05` (`14:05:09` with seconds). */
export function fmtClock(ms: number, timeZone: string, seconds = false): string {
  const key = `${timeZone}|${seconds}`;
  let f = timeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', ...(seconds && { second: '2-digit' }), hourCycle: 'h23' });
    timeFormats.set(key, f);
  }
  return f.format(ms);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** `Wed 4 Mar 14:05` in a time zone. */
export function fmtDateTime(ms: number, timeZone: string): string {
  let f = dateTimeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    dateTimeFormats.set(timeZone, f);
  }
  return f.format(ms);
}

/** `YYYY-MM-DD` of a UTC instant (the range routes take UTC dates). */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
