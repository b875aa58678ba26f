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
  const firstGuess = asUtc - offsetAt(zone, tz, asUtc) * 60_000;
  const offset = offsetAt(zone, tz, firstGuess);
  return asUtc - offset * 60_000;
}

const BLOCK_MS = 7 * 86_400_000;
/** Zone → week number since the epoch → the zone's offset (minutes) through that whole week, or null when it changes within it. */
const blockOffsets = new Map<string, Map<number, number | null>>();

/**
 * The zone's UTC offset at `ms`. Each luxon lookup formats a date with Intl, and building calendar
 * years does thousands (most of a first start's cost of building them), so a week's offset is
 * looked up at its two ends once: equal ends mean no change within it, as a zone changes offset
 * at most a few times a year, weeks apart. A week with a change is looked up instant by instant.
 */
function offsetAt(zone: string, tz: IANAZone, ms: number): number {
  const block = Math.floor(ms / BLOCK_MS);
  let blocks = blockOffsets.get(zone);
  if (!blocks) {
    blocks = new Map();
    blockOffsets.set(zone, blocks);
  }
  let whole = blocks.get(block);
  if (whole === undefined) {
    const first = tz.offset(block * BLOCK_MS);
    whole = first === tz.offset((block + 1) * BLOCK_MS - 1) ? first : null;
    blocks.set(block, whole);
  }
  return whole ?? tz.offset(ms);
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
