// The one median the benches report: the middle value, or the mean of the middle two.
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of no values');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
