// The presets: which columns of a source's files feed which targets, whether a header is needed,
// and what the file name or path says (symbol, interval). A header row, NDJSON keys and Parquet
// column names all go through the same matching, so every preset reads every format.
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { isTimeframe, TIMEFRAMES, type Timeframe } from '../../../domain/timeframes.ts';
import { InputFileError } from '../fundamentals-file.ts';
import { BAR_SLOTS, CODE_KIND, CODE_NUM, CODE_SKIP, CODE_SYMBOL, CODE_TIME, TICK_SLOTS } from './row-builder.ts';
import type { MappedSymbol, SymbolMapper } from './row-values.ts';
import { BAR_FIELDS, BAR_PRESETS, TICK_FIELDS, TICK_PRESETS, type BarField, type TickField } from './types.ts';

export type RowKind = 'bars' | 'ticks';

export interface PresetDef {
  id: string;
  /** CSV: the header row is required, or optional (told by a first cell that is not a number). */
  header: 'required' | 'optional';
  /** Column names by position, for a CSV without a header. */
  positional?: readonly string[];
  /** Column counts a header-less row may have (a source that added a column over the years). */
  counts?: readonly number[];
  /** Per target, the names a column may have (lowercase), best first. */
  names: Readonly<Record<string, readonly string[]>>;
  /** The symbol (and interval) come from the file name, not a column. */
  symbolFromFileName: boolean;
  /** Maps a symbol cell (ticker prefixes and the like). */
  mapSymbol: SymbolMapper;
  /** Timeframe of a bar file from its path, or null when the path does not say. */
  timeframeOfPath?: (path: string) => Timeframe | null;
}

const plain =
  (classHint: AssetClass | null): SymbolMapper =>
  (raw) => ({ symbol: raw, classHint });

/** Flat-file tickers: `X:BTCUSD` crypto, `C:EUR-USD` forex, `I:SPX` index, no prefix a stock (or an ETF: the importer decides). */
export function mapPolygonTicker(raw: string): MappedSymbol {
  const colon = raw.indexOf(':');
  if (colon < 0) return { symbol: raw, classHint: 'stocks' };
  const prefix = raw.slice(0, colon).toUpperCase();
  const rest = raw.slice(colon + 1);
  if (prefix === 'X') return { symbol: rest.replace(/[-/]/g, ''), classHint: 'crypto' };
  if (prefix === 'C') return { symbol: rest.replace(/[-/]/g, ''), classHint: 'forex' };
  if (prefix === 'I') return { symbol: rest, classHint: 'indices' };
  return { symbol: raw, classHint: null };
}

const BINANCE_KLINE_COLUMNS = ['open_time', 'open', 'high', 'low', 'close', 'volume', 'close_time', 'quote_volume', 'count', 'taker_buy_volume', 'taker_buy_quote_volume', 'ignore'];
/** Spot trade files carry is_best_match; futures files stop at is_buyer_maker. */
const BINANCE_TRADE_COLUMNS = ['id', 'price', 'qty', 'quote_qty', 'time', 'is_buyer_maker', 'is_best_match'];
const BINANCE_AGG_TRADE_COLUMNS = ['agg_trade_id', 'price', 'quantity', 'first_trade_id', 'last_trade_id', 'transact_time', 'is_buyer_maker', 'is_best_match'];

const GENERIC_TIME = ['t', 'time', 'timestamp', 'ts', 'date', 'datetime'];
const GENERIC_SYMBOL = ['symbol', 'ticker', 'sym'];

function polygonTimeframe(path: string): Timeframe | null {
  const p = path.replace(/\\/g, '/').toLowerCase();
  if (p.includes('minute_aggs')) return '1m';
  if (p.includes('day_aggs')) return '1d';
  return null;
}

const BAR_PRESET_DEFS: Record<string, PresetDef> = {
  'binance-klines': {
    id: 'binance-klines',
    header: 'optional',
    positional: BINANCE_KLINE_COLUMNS,
    counts: [12],
    names: { t: ['open_time'], o: ['open'], h: ['high'], l: ['low'], c: ['close'], v: ['volume'] },
    symbolFromFileName: true,
    mapSymbol: plain('crypto'),
  },
  polygon: {
    id: 'polygon',
    header: 'required',
    names: { t: ['window_start'], o: ['open'], h: ['high'], l: ['low'], c: ['close'], v: ['volume'], symbol: ['ticker'] },
    symbolFromFileName: false,
    mapSymbol: mapPolygonTicker,
    timeframeOfPath: polygonTimeframe,
  },
  generic: {
    id: 'generic',
    header: 'required',
    names: { t: GENERIC_TIME, o: ['o', 'open'], h: ['h', 'high'], l: ['l', 'low'], c: ['c', 'close'], v: ['v', 'volume', 'vol'], symbol: GENERIC_SYMBOL },
    symbolFromFileName: false,
    mapSymbol: plain(null),
  },
};

const TICK_PRESET_DEFS: Record<string, PresetDef> = {
  'binance-trades': {
    id: 'binance-trades',
    header: 'optional',
    positional: BINANCE_TRADE_COLUMNS,
    counts: [6, 7],
    names: { t: ['time'], price: ['price'], size: ['qty'] },
    symbolFromFileName: true,
    mapSymbol: plain('crypto'),
  },
  'binance-aggtrades': {
    id: 'binance-aggtrades',
    header: 'optional',
    positional: BINANCE_AGG_TRADE_COLUMNS,
    counts: [7, 8],
    names: { t: ['transact_time'], price: ['price'], size: ['quantity'] },
    symbolFromFileName: true,
    mapSymbol: plain('crypto'),
  },
  polygon: {
    id: 'polygon',
    header: 'required',
    // Quotes carry bid_price/ask_price, trades price: the header says which file this is.
    names: {
      t: ['sip_timestamp', 'participant_timestamp'],
      symbol: ['ticker'],
      bid: ['bid_price'],
      ask: ['ask_price'],
      bid_size: ['bid_size'],
      ask_size: ['ask_size'],
      price: ['price'],
      size: ['size'],
    },
    symbolFromFileName: false,
    mapSymbol: mapPolygonTicker,
  },
  generic: {
    id: 'generic',
    header: 'required',
    names: {
      t: GENERIC_TIME,
      symbol: GENERIC_SYMBOL,
      bid: ['bid', 'bid_price'],
      ask: ['ask', 'ask_price'],
      bid_size: ['bid_size', 'bidsize', 'bid_qty'],
      ask_size: ['ask_size', 'asksize', 'ask_qty'],
      price: ['price', 'last'],
      size: ['size', 'qty', 'quantity'],
      kind: ['kind', 'type'],
    },
    symbolFromFileName: false,
    mapSymbol: plain(null),
  },
};
BAR_PRESET_DEFS.massive = { ...BAR_PRESET_DEFS.polygon!, id: 'massive' };
TICK_PRESET_DEFS.massive = { ...TICK_PRESET_DEFS.polygon!, id: 'massive' };

function baseName(path: string): string {
  const name = path.replace(/\\/g, '/').split('/').pop() ?? path;
  return name.replace(/\.(gz|gzip|zst|zstd)$/i, '').replace(/\.(csv|ndjson|jsonl|parquet)$/i, '');
}

const BINANCE_KLINE_NAME = /^([A-Za-z0-9]+)-(\d+(?:s|m|h|d|w|mo))-\d{4}-\d{2}(?:-\d{2})?$/;
const BINANCE_TRADES_NAME = /^([A-Za-z0-9]+)-trades-\d{4}-\d{2}(?:-\d{2})?$/;
const BINANCE_AGG_TRADES_NAME = /^([A-Za-z0-9]+)-aggTrades-\d{4}-\d{2}(?:-\d{2})?$/;

/** The preset a file's name suggests, or generic. */
export function guessPreset(kind: RowKind, path: string): string {
  const name = baseName(path);
  const p = path.replace(/\\/g, '/').toLowerCase();
  if (kind === 'bars') {
    if (BINANCE_KLINE_NAME.test(name)) return 'binance-klines';
    if (polygonTimeframe(p) !== null) return 'polygon';
    return 'generic';
  }
  if (BINANCE_TRADES_NAME.test(name)) return 'binance-trades';
  if (BINANCE_AGG_TRADES_NAME.test(name)) return 'binance-aggtrades';
  if (p.includes('trades_v1') || p.includes('quotes_v1')) return 'polygon';
  return 'generic';
}

export function presetDef(kind: RowKind, id: string): PresetDef {
  const defs = kind === 'bars' ? BAR_PRESET_DEFS : TICK_PRESET_DEFS;
  const def = defs[id];
  if (def === undefined) {
    const names = (kind === 'bars' ? BAR_PRESETS : TICK_PRESETS).join(', ');
    throw new InputFileError(`unknown ${kind === 'bars' ? 'bar' : 'tick'} preset ${JSON.stringify(id)}; the presets are ${names}`);
  }
  return def;
}

/** Symbol (and, for klines, timeframe) a Binance public-data file name carries, e.g. `BTCUSDT-1m-2024-01.csv.gz`. */
export function binanceFileName(preset: string, path: string): { symbol: string; interval: string | null } | null {
  const name = baseName(path);
  const re = preset === 'binance-klines' ? BINANCE_KLINE_NAME : preset === 'binance-trades' ? BINANCE_TRADES_NAME : BINANCE_AGG_TRADES_NAME;
  const m = re.exec(name);
  if (m === null) return null;
  return { symbol: m[1]!.toUpperCase(), interval: preset === 'binance-klines' ? m[2]! : null };
}

/** A Binance interval as a timeframe mds stores; an interval it does not store is an error naming the ones it does. */
export function timeframeOfInterval(path: string, interval: string): Timeframe {
  if (isTimeframe(interval)) return interval;
  throw new InputFileError(`${path}: interval ${interval} in the file name is not a timeframe mds stores; the timeframes are ${TIMEFRAMES.join(', ')}`);
}

export interface ResolvedColumns {
  /** Per column: what it feeds. */
  codes: Uint8Array;
  /** Per column: its name, for messages. */
  names: string[];
}

const BAR_CODE: Record<BarField, number> = { t: CODE_TIME, o: CODE_NUM + BAR_SLOTS.o, h: CODE_NUM + BAR_SLOTS.h, l: CODE_NUM + BAR_SLOTS.l, c: CODE_NUM + BAR_SLOTS.c, v: CODE_NUM + BAR_SLOTS.v, symbol: CODE_SYMBOL };
const TICK_CODE: Record<TickField, number> = {
  t: CODE_TIME,
  symbol: CODE_SYMBOL,
  bid: CODE_NUM + TICK_SLOTS.bid,
  ask: CODE_NUM + TICK_SLOTS.ask,
  bid_size: CODE_NUM + TICK_SLOTS.bid_size,
  ask_size: CODE_NUM + TICK_SLOTS.ask_size,
  price: CODE_NUM + TICK_SLOTS.price,
  size: CODE_NUM + TICK_SLOTS.size,
  kind: CODE_KIND,
};

/** Column names as a message shows them: at most 12, each at most 40 characters, control characters as '?'. */
function listColumns(names: readonly string[]): string {
  const shown = names.slice(0, 12).map((n) => (n.length > 40 ? `${n.slice(0, 40)}…` : n).replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?'));
  return names.length > 12 ? `${shown.join(', ')}, …` : shown.join(', ');
}

/**
 * Matches column names (a header, NDJSON keys, Parquet columns) to targets: a `columns` mapping
 * first, then the preset's names. A required target with no column is an InputFileError.
 */
export function resolveColumns(kind: RowKind, def: PresetDef, columnNames: readonly string[], mapping: Readonly<Record<string, string | undefined>>, symbolIsFixed: boolean): ResolvedColumns {
  const lower = columnNames.map((n) => n.trim().toLowerCase());
  const codes = new Uint8Array(columnNames.length).fill(CODE_SKIP);
  const fedBy: (string | undefined)[] = [];
  const targets = kind === 'bars' ? BAR_FIELDS : TICK_FIELDS;
  const codeOf = (kind === 'bars' ? BAR_CODE : TICK_CODE) as Record<string, number>;
  const found = new Set<string>();
  const listed = listColumns(columnNames);
  for (const target of targets) {
    if (target === 'symbol' && symbolIsFixed) continue;
    const wanted = mapping[target];
    let index: number;
    if (wanted !== undefined) {
      index = lower.indexOf(wanted.trim().toLowerCase());
      if (index < 0) throw new InputFileError(`columns ${target}=${wanted}: there is no column ${JSON.stringify(wanted)} (the columns are ${listed})`);
    } else {
      index = -1;
      for (const name of def.names[target] ?? []) {
        index = lower.indexOf(name);
        if (index >= 0 && fedBy[index] === undefined) break;
        index = -1;
      }
    }
    if (index < 0) continue;
    if (fedBy[index] !== undefined) throw new InputFileError(`column ${columnNames[index]} is mapped to both ${fedBy[index]} and ${target}`);
    fedBy[index] = target;
    codes[index] = codeOf[target]!;
    found.add(target);
  }
  const missing = (target: string) => {
    const names = def.names[target] ?? [];
    return new InputFileError(`no column for ${target} (looked for ${names.length > 0 ? names.join(', ') : 'a mapping'}; the columns are ${listed}); map one with columns ${target}=NAME`);
  };
  const required = kind === 'bars' ? ['t', 'o', 'h', 'l', 'c'] : ['t'];
  for (const target of required) if (!found.has(target)) throw missing(target);
  if (!symbolIsFixed && !found.has('symbol')) throw new InputFileError(`no symbol column (looked for ${(def.names.symbol ?? []).join(', ')}; the columns are ${listed}); map one with columns symbol=NAME or give one symbol for the file`);
  if (kind === 'ticks' && !found.has('bid') && !found.has('ask') && !found.has('price')) throw new InputFileError(`no bid, ask or price column (the columns are ${listed}): a tick file needs bid/ask for quotes or price for trades`);
  return { codes, names: columnNames.map((n) => n.trim()) };
}

/** Whether a first CSV record is data rather than a header: its first cell is a number. */
export function isDataRecord(cells: readonly string[]): boolean {
  return /^\s*[+-]?(\d|\.\d)/.test(cells[0] ?? '');
}

export type ColumnMapping = Partial<Record<string, string>>;

/**
 * Parses `t=timestamp,o=open,...` into a mapping; targets are those of bars or ticks.
 * Returns an error message for an unknown target, a repeated one, or an entry without `=`.
 */
export function parseColumnMapping(kind: RowKind, text: string): { ok: true; columns: ColumnMapping } | { ok: false; error: string } {
  const targets: readonly string[] = kind === 'bars' ? BAR_FIELDS : TICK_FIELDS;
  const columns: ColumnMapping = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return { ok: false, error: `${JSON.stringify(part.trim())} is not TARGET=COLUMN` };
    const target = part.slice(0, eq).trim().toLowerCase();
    const column = part.slice(eq + 1).trim();
    if (!targets.includes(target)) return { ok: false, error: `unknown target ${JSON.stringify(target)}; the targets are ${targets.join(', ')}` };
    if (column === '') return { ok: false, error: `no column named for ${target}` };
    if (columns[target] !== undefined) return { ok: false, error: `${target} is mapped twice` };
    columns[target] = column;
  }
  return { ok: true, columns };
}
