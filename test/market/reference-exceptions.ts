// Dates where the calendar deliberately differs from the reference session files, each with the
// primary source (exchange notice, official gazette) that shows the reference wrong there. An
// entry covers the dates from..to (both included) on which the reference or the calendar trades;
// `ours` is the calendar's answer there in the reference test's notation: `closed`, or the
// session's UTC `HH:MM-HH:MMZ` (with ` break HH:MM-HH:MM`).

export interface ReferenceException {
  market: string;
  from: string;
  to: string;
  ours: string;
  source: string;
}

export const REFERENCE_EXCEPTIONS: readonly ReferenceException[] = [];

export function exceptionOn(market: string, date: string): ReferenceException | undefined {
  return REFERENCE_EXCEPTIONS.find((e) => e.market === market && e.from <= date && date <= e.to);
}
