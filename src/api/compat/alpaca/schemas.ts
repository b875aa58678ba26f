// The Alpaca-compatible bodies as TypeBox schemas, for /openapi.json and the route contract test.
// Field names are the vendor's; they appear only here and in the compat serializers.
import { Type as T, type TSchema } from '@sinclair/typebox';

const Num = T.Number();
const Str = T.String();
const open = <P extends Record<string, TSchema>>(props: P, $id: string) => T.Object(props, { $id });
const bySymbol = <S extends TSchema>(value: S) => T.Record(Str, value);
const Token = T.Union([Str, T.Null()]);

export const AlpacaErrorSchema = open({ code: T.Integer(), message: Str }, 'AlpacaError');

export const AlpacaBarSchema = open({ t: Str, o: Num, h: Num, l: Num, c: Num, v: T.Optional(Num) }, 'AlpacaBar');
export const AlpacaStockQuoteSchema = open({ t: Str, ap: Num, as: Num, bp: Num, bs: Num, ax: Str, bx: Str, c: T.Array(Str), z: Str }, 'AlpacaStockQuote');
export const AlpacaStockTradeSchema = open({ t: Str, p: Num, s: Num, x: Str, c: T.Array(Str), i: T.Integer(), z: Str }, 'AlpacaStockTrade');
export const AlpacaCryptoQuoteSchema = open({ t: Str, ap: Num, as: Num, bp: Num, bs: Num }, 'AlpacaCryptoQuote');
export const AlpacaCryptoTradeSchema = open({ t: Str, p: Num, s: Num, i: T.Integer(), tks: Str }, 'AlpacaCryptoTrade');

const snapshot = (quote: TSchema, trade: TSchema, $id: string) =>
  open({ latestTrade: T.Optional(trade), latestQuote: T.Optional(quote), minuteBar: T.Optional(AlpacaBarSchema), dailyBar: T.Optional(AlpacaBarSchema), prevDailyBar: T.Optional(AlpacaBarSchema) }, $id);
export const AlpacaStockSnapshotSchema = snapshot(AlpacaStockQuoteSchema, AlpacaStockTradeSchema, 'AlpacaStockSnapshot');
export const AlpacaCryptoSnapshotSchema = snapshot(AlpacaCryptoQuoteSchema, AlpacaCryptoTradeSchema, 'AlpacaCryptoSnapshot');

export const AlpacaBarsSchema = open({ bars: bySymbol(T.Array(AlpacaBarSchema)), next_page_token: Token }, 'AlpacaBars');
export const AlpacaBarsSingleSchema = open({ bars: T.Array(AlpacaBarSchema), symbol: Str, next_page_token: Token }, 'AlpacaBarsSingle');
export const AlpacaStockQuotesSchema = open({ quotes: bySymbol(AlpacaStockQuoteSchema) }, 'AlpacaStockQuotes');
export const AlpacaStockQuoteSingleSchema = open({ symbol: Str, quote: AlpacaStockQuoteSchema }, 'AlpacaStockQuoteSingle');
export const AlpacaStockTradesSchema = open({ trades: bySymbol(AlpacaStockTradeSchema) }, 'AlpacaStockTrades');
export const AlpacaStockTradeSingleSchema = open({ symbol: Str, trade: AlpacaStockTradeSchema }, 'AlpacaStockTradeSingle');
export const AlpacaLatestBarsSchema = open({ bars: bySymbol(AlpacaBarSchema) }, 'AlpacaLatestBars');
export const AlpacaLatestBarSingleSchema = open({ symbol: Str, bar: AlpacaBarSchema }, 'AlpacaLatestBarSingle');
export const AlpacaStockSnapshotsSchema = T.Record(Str, AlpacaStockSnapshotSchema, { $id: 'AlpacaStockSnapshots' });
export const AlpacaStockSnapshotSingleSchema = T.Composite([T.Object({ symbol: Str }), AlpacaStockSnapshotSchema], { $id: 'AlpacaStockSnapshotSingle' });
export const AlpacaCryptoQuotesSchema = open({ quotes: bySymbol(AlpacaCryptoQuoteSchema) }, 'AlpacaCryptoQuotes');
export const AlpacaCryptoTradesSchema = open({ trades: bySymbol(AlpacaCryptoTradeSchema) }, 'AlpacaCryptoTrades');
export const AlpacaCryptoSnapshotsSchema = open({ snapshots: bySymbol(AlpacaCryptoSnapshotSchema) }, 'AlpacaCryptoSnapshots');

export const AlpacaClockSchema = open({ timestamp: Str, is_open: T.Boolean(), next_open: T.Union([Str, T.Null()]), next_close: T.Union([Str, T.Null()]) }, 'AlpacaClock');
export const AlpacaCalendarSchema = T.Array(T.Object({ date: Str, open: Str, close: Str, session_open: Str, session_close: Str, settlement_date: Str }), { $id: 'AlpacaCalendar' });
