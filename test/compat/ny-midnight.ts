// The vendors' stamp of a US stock's daily bar, worked out here on its own (not with the server's
// code): of 04:00 and 05:00 UTC of the bar's date, the instant New York's wall clock reads 00:00.
const newYorkHour = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: '2-digit', hourCycle: 'h23' });

export function nyMidnight(utcDayMs: number): number {
  for (const hours of [4, 5]) {
    const ms = utcDayMs + hours * 3_600_000;
    if (newYorkHour.format(new Date(ms)) === '00') return ms;
  }
  throw new Error(`no New York midnight found for ${new Date(utcDayMs).toISOString()}`);
}

/** A native US stock daily bar as the dialects stamp it. */
export const stampedNy = <B extends { t: number }>(bar: B): B => ({ ...bar, t: nyMidnight(bar.t) });
