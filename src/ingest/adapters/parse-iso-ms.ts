// RFC 3339 / ISO 8601 UTC timestamps to epoch milliseconds, for venues that stamp frames with text
// times (Coinbase, Kraken v2). Hand-rolled because it runs per frame: Date.parse is slower and not
// every engine takes the nanosecond fractions Coinbase sends.

/** The digit at `i` as a number, or NaN when it is not one. */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * `2023-02-09T20:30:37.167359596Z` (any number of fraction digits, `Z` or `±hh:mm`) to epoch ms,
 * fractions below a millisecond truncated; NaN for anything else.
 */
export function parseIsoMs(s: unknown): number {
  if (typeof s !== 'string' || s.length < 20) return NaN;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return NaN;
  const t = s.charCodeAt(10);
  if (t !== 84 && t !== 116 && t !== 32) return NaN; // 'T', 't' or a space
  const year = two(s, 0) * 100 + two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60)) return NaN;
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    // Up to three fraction digits count; the rest are read past.
    let scale = 100;
    i++;
    const start = i;
    for (; i < s.length; i++) {
      const d = digit(s, i);
      if (Number.isNaN(d)) break;
      ms += d * scale;
      scale /= 10;
    }
    if (i === start) return NaN;
    ms = Math.floor(ms);
  }
  let offsetMin = 0;
  const z = s.charCodeAt(i);
  if (z === 90 || z === 122) i++;
  else if (z === 43 || z === 45) {
    if (s.charCodeAt(i + 3) !== 58) return NaN;
    const off = two(s, i + 1) * 60 + two(s, i + 4);
    offsetMin = z === 43 ? off : -off;
    i += 6;
  } else return NaN;
  if (i !== s.length) return NaN;
  const result = (daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetMin * 60) * 1000 + ms;
  return Number.isFinite(result) ? result : NaN;
}
