// JSON of bars, written as strings straight from packed records (no intermediate objects per bar).
// Field names and order follow the spec's tables; the range route reuses this text (range-body.ts).
export const BAR_FIELDS_COUNT = 6;

/** Packed bars: t, o, h, l, c, v per bar; v NaN = null. */
export type BarColumns = Float64Array;

function num(value: number): string {
  return Number.isNaN(value) ? 'null' : String(value);
}

/** One bar as JSON, in the spec's field order: o, h, l, c, v, t. */
export function barJson(data: BarColumns, index: number): string {
  const at = index * BAR_FIELDS_COUNT;
  return `{"o":${data[at + 1]},"h":${data[at + 2]},"l":${data[at + 3]},"c":${data[at + 4]},"v":${num(data[at + 5]!)},"t":${data[at]}}`;
}
