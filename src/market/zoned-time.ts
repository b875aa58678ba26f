// Local wall-clock time in a market's time zone to epoch milliseconds and back. luxon does the
// DST math; this is the only file of the module that knows about it.
import { DateTime, IANAZone } from 'luxon';

const zones = new Map<string, IANAZone>();

function zoneOf(name: string): IANAZone {
  let zone = zones.get(name);
  if (!zone) {
    zone = IANAZone.create(name);
    if (!zone.isValid) throw new RangeError(`unknown time zone ${name}`);
    zones.set(name, zone);
  }
  return zone;
}

/**
 * Epoch ms of `minutes` after local midnight of `date` in `zone` (minutes may leave the day).
 * Two offset lookups instead of a full DateTime: building a year of sessions does thousands.
 * No session boundary lies inside a DST gap or overlap, where this picks one reading arbitrarily.
 */
export function localMinutesToMs(date: string, minutes: number, zone: string): number {
  const tz = zoneOf(zone);
  const asUtc = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) + minutes * 60_000;
  const firstGuess = asUtc - tz.offset(asUtc) * 60_000;
  const offset = tz.offset(firstGuess);
  return asUtc - offset * 60_000;
}

export function localDateOf(tsMs: number, zone: string): string {
  return DateTime.fromMillis(tsMs, { zone }).toISODate() ?? '';
}

/** "HH:MM" to minutes after midnight. */
export function hm(text: string): number {
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
}

/** Whether local noon of `date` in `zone` is on daylight-saving time. */
export function isDstOn(date: string, zone: string): boolean {
  return DateTime.fromISO(`${date}T12:00`, { zone }).isInDST;
}
