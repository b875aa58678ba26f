// RFC 3339 UTC timestamps with up to nanosecond fractions (`2021-02-22T15:51:45.335689322Z`) to
// epoch milliseconds, without Date.parse (which not every runtime accepts past milliseconds).

/** Epoch ms (fraction truncated to the millisecond), or NaN when the text is not `YYYY-MM-DDTHH:MM:SS[.f]Z`. */
export function rfc3339ToMs(s: string): number {
  if (s.length < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return NaN;
  const last = s.length - 1;
  if (s.charCodeAt(last) !== 90) return NaN; // Z
  let ms = 0;
  if (last > 19) {
    if (s.charCodeAt(19) !== 46) return NaN; // .
    let scale = 100;
    for (let i = 20; i < last; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return NaN;
      if (scale >= 1) ms += d * scale;
      scale /= 10;
    }
  }
  const t = Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10), +s.slice(11, 13), +s.slice(14, 16), +s.slice(17, 19));
  return t + Math.floor(ms);
}
