// The Alpaca-compatible routes' parameters: `timeframe` (1Min ... 1Day), RFC 3339 or date `start`
// and `end`, `limit`, `page_token`, `sort` and the `symbols` list, with the vendor's 400 and 422.
import { ApiError, badRequest } from '../../../domain/errors.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import { DAY_MS, TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../../../domain/timeframes.ts';
import { INVALID_SYMBOL_PREFIX } from './dialect.ts';

/** The vendor's unit spellings, and the mds timeframe each served `<n><unit>` is. */
const UNITS: Readonly<Record<string, 'minute' | 'hour' | 'day' | 'week' | 'month'>> = { min: 'minute', t: 'minute', hour: 'hour', h: 'hour', day: 'day', d: 'day', week: 'week', w: 'week', month: 'month', m: 'month' };
const UNIT_NAMES = { minute: 'Min', hour: 'Hour', day: 'Day' } as const;
/** The timeframes this server has, as the vendor spells them. */
export const SERVED_TIMEFRAMES = TIMEFRAMES.map((tf) => `${TIMEFRAME_INFO[tf].multiplier}${UNIT_NAMES[TIMEFRAME_INFO[tf].timespan]}`);

export function parseTimeframe(raw: string | undefined): Timeframe {
  const m = /^(\d{1,3})([A-Za-z]+)$/.exec(raw ?? '');
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || !unit) throw new ApiError('UNPROCESSABLE', 'invalid timeframe');
  const tf = TIMEFRAMES.find((id) => TIMEFRAME_INFO[id].multiplier === Number(m[1]) && TIMEFRAME_INFO[id].timespan === unit);
  if (!tf) throw new ApiError('UNPROCESSABLE', `unsupported timeframe ${quoteInput(raw ?? '')}: this server has bars of ${SERVED_TIMEFRAMES.join(', ')}`);
  return tf;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** RFC 3339 or a date (its start; as `end`, its end); absent, the fallback. */
export function parseTime(name: 'start' | 'end', raw: string | undefined, fallbackMs: number): number {
  if (raw === undefined || raw === '') return fallbackMs;
  const ms = RFC3339.test(raw) ? Date.parse(raw) : DATE.test(raw) ? Date.parse(`${raw}T00:00:00Z`) + (name === 'end' ? DAY_MS - 1 : 0) : NaN;
  if (Number.isNaN(ms)) throw badRequest(`invalid ${name}: ${quoteInput(raw)} is neither RFC 3339 nor YYYY-MM-DD`);
  return ms;
}

export function parseLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max)) throw badRequest(`invalid limit: ${quoteInput(raw)}, expected 1 to ${max}`);
  return n;
}

export function parseSort(raw: string | undefined): 'asc' | 'desc' {
  const sort = (raw ?? 'asc').toLowerCase();
  if (sort !== 'asc' && sort !== 'desc') throw badRequest(`invalid sort: ${quoteInput(raw ?? '')}, expected asc or desc`);
  return sort;
}

/** A page position: which symbol of the sorted list, and the native offset within its bars. */
export interface PagePosition {
  symbolIndex: number;
  offset: number;
}

export function encodePageToken(p: PagePosition): string {
  return Buffer.from(`${p.symbolIndex}:${p.offset}`).toString('base64url');
}

export function decodePageToken(raw: string | undefined): PagePosition {
  if (raw === undefined || raw === '') return { symbolIndex: 0, offset: 0 };
  const m = /^(\d{1,6}):(\d{1,10})$/.exec(Buffer.from(raw, 'base64url').toString());
  if (!m) throw badRequest(`invalid page_token: ${quoteInput(raw)}`);
  return { symbolIndex: Number(m[1]), offset: Number(m[2]) };
}

/** The comma-separated `symbols`, trimmed, without repeats, sorted as the vendor answers them. */
export function parseSymbols(raw: string | undefined): string[] {
  const symbols = [...new Set((raw ?? '').split(',').map((s) => s.trim().toUpperCase()).filter((s) => s.length > 0))].sort();
  if (symbols.length === 0) throw badRequest(`${INVALID_SYMBOL_PREFIX}: symbols is required`);
  return symbols;
}
