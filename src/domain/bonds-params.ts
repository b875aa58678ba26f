// Query parameters of the bond routes: the curve's `date` and the history window with the range
// route's paging rules (spec: "Range route parameters": limit, offset, sort), so a long history
// pages the same way bars do. 400 messages say what was wrong and what is allowed.
import { badRequest } from './errors.ts';
import { RANGE_LIMIT_DEFAULT, RANGE_LIMIT_MAX, RANGE_OFFSET_MAX } from './range-params.ts';
import { quoteInput } from './symbols.ts';

export interface BondHistoryParams {
  from: string;
  /** Inclusive. */
  to: string;
  limit: number;
  offset: number;
  sort: 'asc' | 'desc';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date `YYYY-MM-DD` from 1970 on; a 400 naming the parameter otherwise. */
export function parseBondDate(name: string, raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') throw badRequest(`missing ${name}: expected a calendar date YYYY-MM-DD`);
  const text = raw.trim();
  const m = DATE.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text || Number(m[1]) < 1970) {
    throw badRequest(`invalid ${name === 'date' ? 'date' : `${name} date`} ${quoteInput(raw)}: expected a calendar date YYYY-MM-DD from 1970 on`);
  }
  return text;
}

function parseInteger(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw badRequest(`invalid ${name} ${quoteInput(raw)}: expected an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

export function parseBondHistoryParams(query: { from?: string; to?: string; limit?: string; offset?: string; sort?: string }): BondHistoryParams {
  const from = parseBondDate('from', query.from);
  const to = parseBondDate('to', query.to);
  if (to < from) throw badRequest(`invalid window: to (${to}) must be on or after from (${from})`);
  const limit = parseInteger('limit', query.limit, RANGE_LIMIT_DEFAULT, 1, RANGE_LIMIT_MAX);
  const offset = parseInteger('offset', query.offset, 0, 0, RANGE_OFFSET_MAX);
  const sortRaw = query.sort ?? 'desc';
  const sort = sortRaw.toLowerCase();
  if (sort !== 'asc' && sort !== 'desc') throw badRequest(`invalid sort ${quoteInput(sortRaw)}: allowed values are asc, desc`);
  return { from, to, limit, offset, sort };
}
