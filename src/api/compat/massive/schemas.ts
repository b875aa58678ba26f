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
