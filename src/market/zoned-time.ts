// Local wall-clock time in a market's time zone to epoch milliseconds and back. luxon does the
// DST math; this is the only file of the module that knows about it.
import { DateTime } from 'luxon';

/** Epoch ms of `minutes` after local midnight of `date` in `zone` (minutes may leave the day). */
export function localMinutesToMs(date: string, minutes: number, zone: string): number {
  const dayShift = Math.floor(minutes / 1440);
  const minuteOfDay = minutes - dayShift * 1440;
  const base = DateTime.fromISO(date, { zone }).plus({ days: dayShift });
  const local = base.set({ hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 });
  if (!local.isValid) throw new RangeError(`invalid local time ${date} +${minutes}min in ${zone}`);
  return local.toMillis();
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
