// Corporate actions of stocks (splits and cash dividends) as mds keeps them, and the checks that
// turn one input row in the field names of Massive's reference API (splits: ticker,
// execution_date, split_from, split_to; dividends: ticker, ex_dividend_date, cash_amount and the
// optional dates, frequency and type) into one, or an error that says what is wrong.

/** A split: from `from` shares, `to` shares (a 4-for-1 split is from 1 to 4). */
export interface Split {
  symbol: string;
  /** YYYY-MM-DD: the first trading day at the new share count. */
  date: string;
  from: number;
  to: number;
}

/** A cash dividend per share, in the stock's trading currency. */
export interface Dividend {
  symbol: string;
  /** YYYY-MM-DD: the first trading day without the dividend. */
  exDate: string;
  cash: number;
  payDate: string | null;
  recordDate: string | null;
  declarationDate: string | null;
  /** Payments a year (0 one-off, 1, 2, 4, 12), as Massive counts them. */
  frequency: number | null;
  /** Massive's codes: CD regular, SC special, LT long-term and ST short-term capital gain. */
  dividendType: string | null;
}

export type CorporateActionKind = 'splits' | 'dividends';

export const SPLIT_FIELDS = ['ticker', 'execution_date', 'split_from', 'split_to'] as const;
export const DIVIDEND_FIELDS = ['ticker', 'ex_dividend_date', 'cash_amount', 'pay_date', 'record_date', 'declaration_date', 'frequency', 'dividend_type'] as const;
/** Fields a Massive reference answer carries that the import reads past (copying its results is a valid file). */
export const IGNORED_FIELDS = ['id', 'currency'] as const;
export const REQUIRED_FIELDS: Record<CorporateActionKind, readonly string[]> = {
  splits: SPLIT_FIELDS,
  dividends: ['ticker', 'ex_dividend_date', 'cash_amount'],
};
export const DIVIDEND_TYPES = ['CD', 'SC', 'LT', 'ST'] as const;
const FREQUENCIES = [0, 1, 2, 4, 12, 24, 52];

export function fieldsOf(kind: CorporateActionKind): readonly string[] {
  return kind === 'splits' ? SPLIT_FIELDS : DIVIDEND_FIELDS;
}

const TICKER = /^[A-Z0-9][A-Z0-9.\-]{0,19}$/;
const STOCK = /^[A-Z]{2}:[A-Z0-9][A-Z0-9.\-]{0,19}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A bare ticker is a US stock (`AAPL` → `US:AAPL`); `CC:TICKER` stays as it is; null when neither. */
export function stockSymbolOf(raw: string): string | null {
  const s = raw.trim().toUpperCase();
  if (STOCK.test(s)) return s;
  if (TICKER.test(s)) return `US:${s}`;
  return null;
}

/** True for a real calendar date YYYY-MM-DD from 1970 on. */
export function isCalendarDate(raw: string): boolean {
  const m = DATE.exec(raw);
  if (!m || Number(m[1]) < 1970) return false;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === raw;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function text(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

function positive(name: string, v: unknown): number | string {
  const t = text(v);
  if (t === null) return `${name} is missing: expected a positive number`;
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0 || !/^[0-9.eE+-]+$/.test(t)) return `${name} ${JSON.stringify(t.slice(0, 40))} is not a positive number`;
  return n;
}

function date(name: string, v: unknown, required: boolean): string | null | { error: string } {
  const t = text(v);
  if (t === null) return required ? { error: `${name} is missing: expected a date YYYY-MM-DD` } : null;
  if (!isCalendarDate(t)) return { error: `${name} ${JSON.stringify(t.slice(0, 40))} is not a calendar date YYYY-MM-DD` };
  return t;
}

function symbol(v: unknown): string | { error: string } {
  const t = text(v);
  if (t === null) return { error: 'ticker is missing: expected a ticker such as AAPL or US:AAPL' };
  return stockSymbolOf(t) ?? { error: `ticker ${JSON.stringify(t.slice(0, 40))} is not a stock ticker: expected a ticker such as AAPL or US:AAPL` };
}

export function parseSplitInput(fields: Record<string, unknown>): Parsed<Split> {
  const sym = symbol(fields.ticker);
  if (typeof sym !== 'string') return { ok: false, error: sym.error };
  const d = date('execution_date', fields.execution_date, true);
  if (d === null || typeof d !== 'string') return { ok: false, error: (d as { error: string }).error };
  const from = positive('split_from', fields.split_from);
  if (typeof from === 'string') return { ok: false, error: from };
  const to = positive('split_to', fields.split_to);
  if (typeof to === 'string') return { ok: false, error: to };
  if (from === to) return { ok: false, error: `split_from and split_to are both ${from}: a split changes the share count` };
  return { ok: true, value: { symbol: sym, date: d, from, to } };
}

export function parseDividendInput(fields: Record<string, unknown>): Parsed<Dividend> {
  const sym = symbol(fields.ticker);
  if (typeof sym !== 'string') return { ok: false, error: sym.error };
  const ex = date('ex_dividend_date', fields.ex_dividend_date, true);
  if (ex === null || typeof ex !== 'string') return { ok: false, error: (ex as { error: string }).error };
  const cash = positive('cash_amount', fields.cash_amount);
  if (typeof cash === 'string') return { ok: false, error: cash };
  const dates: (string | null)[] = [];
  for (const name of ['pay_date', 'record_date', 'declaration_date'] as const) {
    const d = date(name, fields[name], false);
    if (d !== null && typeof d !== 'string') return { ok: false, error: d.error };
    dates.push(d);
  }
  const freqText = text(fields.frequency);
  let frequency: number | null = null;
  if (freqText !== null) {
    frequency = Number(freqText);
    if (!FREQUENCIES.includes(frequency)) return { ok: false, error: `frequency ${JSON.stringify(freqText.slice(0, 40))} is not one of ${FREQUENCIES.join(', ')} (payments a year; 0 one-off)` };
  }
  const typeText = text(fields.dividend_type);
  const dividendType = typeText === null ? null : typeText.toUpperCase();
  if (dividendType !== null && !(DIVIDEND_TYPES as readonly string[]).includes(dividendType)) {
    return { ok: false, error: `dividend_type ${JSON.stringify(typeText!.slice(0, 40))} is not one of ${DIVIDEND_TYPES.join(', ')}` };
  }
  return { ok: true, value: { symbol: sym, exDate: ex, cash, payDate: dates[0]!, recordDate: dates[1]!, declarationDate: dates[2]!, frequency, dividendType } };
}

/** Splits of one symbol in date order, dividends in ex-date order: what the adjustment reads. */
export interface SymbolActions {
  splits: Split[];
  dividends: Dividend[];
}
