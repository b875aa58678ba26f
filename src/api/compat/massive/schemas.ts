// The Massive-compatible bodies as TypeBox schemas, for /openapi.json and the route contract test.
// Field names are the vendor's; they appear only here and in the compat serializers.
import { Type as T, type TSchema } from '@sinclair/typebox';

const Num = T.Number();
const Str = T.String();
const open = <P extends Record<string, TSchema>>(props: P, $id: string) => T.Object(props, { $id });

export const MassiveErrorSchema = open({ status: T.Union([T.Literal('ERROR'), T.Literal('NOT_FOUND'), T.Literal('NOT_AUTHORIZED')]), request_id: Str, error: T.Optional(Str), message: T.Optional(Str) }, 'MassiveError');

export const MassiveBarSchema = open({ o: Num, h: Num, l: Num, c: Num, v: T.Optional(Num), t: T.Integer(), T: T.Optional(Str) }, 'MassiveBar');

const aggsHead = { queryCount: T.Integer(), resultsCount: T.Integer(), adjusted: T.Boolean(), status: T.Literal('OK'), request_id: Str, results: T.Optional(T.Array(MassiveBarSchema)) };
export const MassiveAggsSchema = open({ ticker: Str, ...aggsHead, next_url: T.Optional(Str) }, 'MassiveAggs');
export const MassiveGroupedSchema = open(aggsHead, 'MassiveGrouped');

export const MassiveLastTradeSchema = open({ request_id: Str, status: T.Literal('OK'), results: T.Object({ T: Str, p: Num, s: Num, t: T.Integer(), y: T.Integer(), x: T.Integer(), q: T.Integer(), i: Str }) }, 'MassiveLastTrade');
export const MassiveLastQuoteSchema = open({ request_id: Str, status: T.Literal('OK'), results: T.Object({ T: Str, P: Num, S: Num, p: Num, s: Num, t: T.Integer(), y: T.Integer(), q: T.Integer() }) }, 'MassiveLastQuote');
export const MassiveLastCryptoSchema = open({ status: T.Literal('success'), symbol: Str, request_id: Str, last: T.Object({ price: Num, size: Num, exchange: T.Integer(), timestamp: T.Integer(), conditions: T.Array(T.Integer()) }) }, 'MassiveLastCrypto');
export const MassiveLastCurrencySchema = open({ status: T.Literal('success'), symbol: Str, request_id: Str, last: T.Object({ ask: Num, bid: Num, exchange: T.Integer(), timestamp: T.Integer() }) }, 'MassiveLastCurrency');

const DayBar = T.Object({ o: Num, h: Num, l: Num, c: Num, v: T.Optional(Num) });
export const MassiveSnapshotTickerSchema = open(
  {
    ticker: Str,
    todaysChange: Num,
    todaysChangePerc: Num,
    updated: T.Integer(),
    day: DayBar,
    prevDay: T.Optional(DayBar),
    min: T.Optional(MassiveBarSchema),
    lastTrade: T.Optional(T.Object({ p: Num, s: Num, t: T.Integer(), x: T.Integer() })),
    lastQuote: T.Optional(T.Union([T.Object({ P: Num, S: Num, p: Num, s: Num, t: T.Integer() }), T.Object({ a: Num, b: Num, t: T.Integer(), x: T.Integer() })])),
  },
  'MassiveSnapshotTicker',
);
export const MassiveSnapshotSchema = open({ request_id: Str, status: T.Literal('OK'), ticker: MassiveSnapshotTickerSchema }, 'MassiveSnapshot');
export const MassiveSnapshotsSchema = open({ count: T.Integer(), request_id: Str, status: T.Literal('OK'), tickers: T.Array(MassiveSnapshotTickerSchema) }, 'MassiveSnapshots');

const Status = T.Union([T.Literal('open'), T.Literal('closed'), T.Literal('extended-hours')]);
export const MassiveMarketStatusSchema = open(
  {
    market: Status,
    serverTime: Str,
    earlyHours: T.Boolean(),
    afterHours: T.Boolean(),
    exchanges: T.Object({ nasdaq: Status, nyse: Status, otc: Status }),
    currencies: T.Object({ crypto: Status, fx: Status }),
    indicesGroups: T.Record(Str, Status),
  },
  'MassiveMarketStatus',
);
export const MassiveUpcomingSchema = T.Array(
  T.Object({ exchange: Str, name: Str, date: Str, status: T.Union([T.Literal('closed'), T.Literal('early-close')]), open: T.Optional(Str), close: T.Optional(Str) }),
  { $id: 'MassiveUpcoming' },
);
export const MassiveTickersSchema = open(
  {
    count: T.Integer(),
    request_id: Str,
    status: T.Literal('OK'),
    results: T.Array(T.Object({ ticker: Str, name: Str, market: Str, locale: Str, active: T.Boolean(), currency_name: Str })),
    next_url: T.Optional(Str),
  },
  'MassiveTickers',
);

export const MassiveTickerDetailsSchema = open(
  {
    request_id: Str,
    status: T.Literal('OK'),
    results: T.Object({
      ticker: Str, name: Str, market: Str, locale: Str, active: T.Boolean(), currency_name: Str, type: T.Optional(Str), ticker_root: T.Optional(Str), primary_exchange: T.Optional(Str),
      total_employees: T.Optional(Num), sic_description: T.Optional(Str), market_cap: T.Optional(Num), share_class_shares_outstanding: T.Optional(Num), weighted_shares_outstanding: T.Optional(Num),
    }),
  },
  'MassiveTickerDetails',
);
export const MassiveOpenCloseSchema = open({ status: T.Literal('OK'), from: Str, symbol: Str, open: Num, high: Num, low: Num, close: Num, volume: T.Optional(Num) }, 'MassiveOpenClose');
export const MassiveCryptoOpenCloseSchema = open({ symbol: Str, isUTC: T.Boolean(), day: Str, open: Num, close: Num, openTrades: T.Array(T.Unknown()), closingTrades: T.Array(T.Unknown()) }, 'MassiveCryptoOpenClose');

const SnapshotSession = T.Object({ open: Num, high: Num, low: Num, close: Num, change: Num, change_percent: Num, previous_close: Num, volume: T.Optional(Num), price: T.Optional(Num) });
export const MassiveSnapshotItemSchema = open(
  {
    ticker: Str,
    name: T.Optional(Str),
    type: T.Optional(Str),
    market_status: T.Optional(Str),
    timeframe: T.Optional(Str),
    last_updated: T.Optional(T.Integer()),
    value: T.Optional(Num),
    session: T.Optional(SnapshotSession),
    last_quote: T.Optional(T.Object({ ask: Num, bid: Num, ask_size: Num, bid_size: Num, midpoint: T.Optional(Num), last_updated: T.Integer(), timeframe: Str })),
    last_trade: T.Optional(T.Object({ price: Num, size: Num, sip_timestamp: T.Integer(), last_updated: T.Integer(), timeframe: Str })),
    last_minute: T.Optional(T.Object({ open: Num, high: Num, low: Num, close: Num, volume: Num })),
    error: T.Optional(Str),
    message: T.Optional(Str),
  },
  'MassiveSnapshotItem',
);
export const MassiveSnapshotV3Schema = open({ request_id: Str, status: T.Literal('OK'), results: T.Array(MassiveSnapshotItemSchema), next_url: T.Optional(Str) }, 'MassiveSnapshotV3');
