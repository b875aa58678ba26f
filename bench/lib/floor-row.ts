// The quote route against its contract floor, as a row of its own (issue 33): the quote bench
// measures the floor (a bare Bun.serve that reads the key and writes the four required headers)
// and our route in the same run, and keeps "ours ÷ floor" in a note; this row prints it in the
// table's ceiling/ours/ratio columns like every other ceiling, and checks it.
import type { Row } from './report.ts';

/** Issue 33: the quote path at ≥ 0.9× its contract floor (the issue takes the median of 5 alternating runs). */
export const MIN_FLOOR_RATIO = 0.9;

/** The row, when `rows` has the floor and the quote measured with it; otherwise null. */
export function quoteVsFloorRow(rows: readonly Row[]): Row | null {
  const floor = rows.find((r) => r.id === 'quote.contract-floor');
  if (!floor) return null;
  const path = floor.details.path;
  const ours = rows.find((r) => r.bench === 'quote' && r.id !== floor.id && r.details.path === path);
  if (!ours) return null;
  const ratio = ours.value / floor.value;
  return {
    id: 'quote.vs-contract-floor',
    bench: 'quote',
    label: `quote ${String(path)} vs contract floor`,
    unit: ours.unit,
    ceiling: floor.value,
    ceilingP50Ms: floor.p50Ms,
    ceilingP99Ms: floor.p99Ms,
    value: ours.value,
    p50Ms: ours.p50Ms,
    p99Ms: ours.p99Ms,
    mbPerS: null,
    ratio,
    target: `≥${MIN_FLOOR_RATIO}× floor`,
    pass: ours.problems.length === 0 && ratio >= MIN_FLOOR_RATIO,
    checkOn: 'ratio',
    problems: ours.problems,
    notes: ['ceiling columns: the contract floor of the same run (one run; issue 33 takes the median of 5 alternating runs)'],
    details: { path, floor_id: floor.id, ours_id: ours.id },
  };
}
