// One raw issuer record as the importer and the simulator hand it over (the input columns of
// `mds import fundamentals`), and the parser that turns a row of loose values into one or says
// exactly what is wrong with it. A row either parses whole or is refused whole.
import { FUNDAMENTALS_MARKETS, isFundamentalsMarket } from './fundamentals.ts';

export interface RawFundamentals {
  symbol: string;
  market: string;
  baseSymbol: string;
  /** Vintage of the figures, YYYY-MM-DD. */
  asOf: string;
  isDepositaryReceipt: boolean;
  company?: string;
  exchange?: string;
  mic?: string;
  country?: string;
  sector?: string;
  industry?: string;
  securityType?: string;
  employees?: number;
  marketCap?: number;
  sharesTotal?: number;
  freeFloat?: number;
  shortInterest?: number;
  daysToCover?: number;
  insiderOwnership?: number;
  institutionalOwnership?: number;
  adv10d?: number;
  adv90d?: number;
  beta?: number;
  /** Listing price at the vintage, used for the cross-check only when no live price is known. */
  price?: number;
}

type Kind = 'text' | 'count' | 'positive' | 'nonNegative' | 'fraction' | 'real';

/** Every input column: its name (the item's field name where there is one), kind and key. */
export const INPUT_COLUMNS = {
  symbol: { kind: 'text', key: 'symbol' },
  as_of: { kind: 'text', key: 'asOf' },
  depositary_receipt: { kind: 'text', key: 'isDepositaryReceipt' },
  company: { kind: 'text', key: 'company' },
  exchange: { kind: 'text', key: 'exchange' },
  mic: { kind: 'text', key: 'mic' },
  country: { kind: 'text', key: 'country' },
  sector: { kind: 'text', key: 'sector' },
  industry: { kind: 'text', key: 'industry' },
  security_type: { kind: 'text', key: 'securityType' },
  employees: { kind: 'count', key: 'employees' },
  market_cap: { kind: 'positive', key: 'marketCap' },
  shares_total: { kind: 'count', key: 'sharesTotal' },
  free_float: { kind: 'count', key: 'freeFloat' },
  short_interest: { kind: 'count', key: 'shortInterest' },
  days_to_cover: { kind: 'nonNegative', key: 'daysToCover' },
  insider_ownership: { kind: 'fraction', key: 'insiderOwnership' },
  institutional_ownership: { kind: 'fraction', key: 'institutionalOwnership' },
  adv_10d: { kind: 'count', key: 'adv10d' },
  adv_90d: { kind: 'count', key: 'adv90d' },
  beta: { kind: 'real', key: 'beta' },
  price: { kind: 'positive', key: 'price' },
} as const satisfies Record<string, { kind: Kind; key: keyof RawFundamentals }>;

export type InputColumn = keyof typeof INPUT_COLUMNS;
export const INPUT_COLUMN_NAMES = Object.keys(INPUT_COLUMNS) as InputColumn[];

export function isInputColumn(name: string): name is InputColumn {
  return Object.hasOwn(INPUT_COLUMNS, name);
}

const MAX_TEXT = 200;
const SYMBOL = /^([A-Z]{2}):([A-Z0-9][A-Z0-9.\-]{0,19})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n']);

export type ParsedInput = { ok: true; record: RawFundamentals } | { ok: false; error: string };

/** A YYYY-MM-DD string naming a real calendar date. */
export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return NUMBER.test(text) ? Number(text) : null;
}

function parseValue(column: string, kind: Kind, value: unknown): { value: string | number } | { error: string } {
  if (kind === 'text') {
    if (typeof value !== 'string') return { error: `${column} must be text` };
    const text = value.trim();
    if (text.length > MAX_TEXT) return { error: `${column} is longer than ${MAX_TEXT} characters` };
    return { value: text };
  }
  const n = toNumber(value);
  const shown = typeof value === 'string' ? JSON.stringify(value.trim().slice(0, 40)) : String(value);
  if (n === null) return { error: `${column} must be a number, got ${shown}` };
  switch (kind) {
    case 'count':
      return Number.isSafeInteger(n) && n >= 0 ? { value: n } : { error: `${column} must be a whole number of 0 or more, got ${shown}` };
    case 'positive':
      return n > 0 ? { value: n } : { error: `${column} must be greater than 0, got ${shown}` };
    case 'nonNegative':
      return n >= 0 ? { value: n } : { error: `${column} must be 0 or more, got ${shown}` };
    case 'fraction':
      return n >= 0 && n <= 1 ? { value: n } : { error: `${column} must be a fraction from 0 to 1, got ${shown}` };
    case 'real':
      return { value: n };
  }
}

/**
 * Parses one input row (CSV cells as text, NDJSON values as JSON); empty and null mean unknown.
 * `latestAsOf` (YYYY-MM-DD) is the latest vintage accepted: a set dated in the future would look
 * newer than every real refresh to come and so freeze the share structure until that date.
 */
export function parseFundamentalsInput(fields: Readonly<Record<string, unknown>>, latestAsOf: string): ParsedInput {
  const unknownColumn = Object.keys(fields).find((name) => !isInputColumn(name));
  if (unknownColumn !== undefined) return { ok: false, error: `unknown field ${JSON.stringify(unknownColumn.slice(0, 40))}` };
  const rawSymbol = fields.symbol;
  if (!present(rawSymbol)) return { ok: false, error: 'symbol is missing' };
  if (typeof rawSymbol !== 'string') return { ok: false, error: 'symbol must be text such as US:AAPL' };
  const symbol = rawSymbol.trim().toUpperCase();
  const m = SYMBOL.exec(symbol);
  if (!m) return { ok: false, error: `symbol ${JSON.stringify(symbol.slice(0, 40))} is not MARKET:BASE (e.g. US:AAPL)` };
  const market = m[1]!;
  if (!isFundamentalsMarket(market)) return { ok: false, error: `symbol ${symbol}: fundamentals cover the markets ${FUNDAMENTALS_MARKETS.join(', ')} only` };
  const asOf = fields.as_of;
  if (!present(asOf) || typeof asOf !== 'string' || !isIsoDate(asOf.trim())) return { ok: false, error: `as_of must be a date YYYY-MM-DD, got ${present(asOf) ? JSON.stringify(String(asOf).slice(0, 40)) : 'nothing'}` };
  if (asOf.trim() > latestAsOf) return { ok: false, error: `as_of ${asOf.trim()} is in the future (the latest accepted is ${latestAsOf})` };
  let isDepositaryReceipt = false;
  const dr = fields.depositary_receipt;
  if (typeof dr === 'boolean') isDepositaryReceipt = dr;
  else if (present(dr)) {
    const text = String(dr).trim().toLowerCase();
    if (TRUE.has(text)) isDepositaryReceipt = true;
    else if (!FALSE.has(text)) return { ok: false, error: `depositary_receipt must be true or false, got ${JSON.stringify(String(dr).slice(0, 40))}` };
  }
  const record: RawFundamentals = { symbol, market, baseSymbol: m[2]!, asOf: asOf.trim(), isDepositaryReceipt };
  const target = record as unknown as Record<string, unknown>;
  for (const name of INPUT_COLUMN_NAMES) {
    if (name === 'symbol' || name === 'as_of' || name === 'depositary_receipt') continue;
    const value = fields[name];
    if (!present(value)) continue;
    const { kind, key } = INPUT_COLUMNS[name];
    const parsed = parseValue(name, kind, value);
    if ('error' in parsed) return { ok: false, error: parsed.error };
    if (parsed.value !== '') target[key] = parsed.value;
  }
  return { ok: true, record };
}
