// JSON bodies of the hot routes, written as strings straight from packed bars and latest state
// (no intermediate objects per bar). Field names and order follow the spec's tables.
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

export function rangeJson(symbol: string, data: BarColumns, start: number, count: number, step: 1 | -1, total: number, offset: number): string {
  const parts = new Array<string>(count);
  for (let i = 0, at = start; i < count; i++, at += step) parts[i] = barJson(data, at);
  const nextOffset = offset + count < total ? offset + count : null;
  return `{"symbol":${JSON.stringify(symbol)},"results_count":${count},"total_count":${total},"results":[${parts.join(',')}],"next_offset":${nextOffset}}`;
}
