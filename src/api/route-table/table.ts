// Every REST route the app serves, as data: path, parameters, the 200 body's schema, the error
// statuses, and examples. The OpenAPI document is generated from it and the contract test checks
// real answers against it; a test keeps it equal to the routes the app registers.
import { AccountSchema } from '../../domain/account-schema.ts';
import { ASSET_CLASSES } from '../../domain/asset-classes.ts';
import { BondCurveSchema, BondHistorySchema, BondYieldSchema } from '../../domain/bonds-schemas.ts';
import { EconomicCalendarPageSchema } from '../../domain/economic-calendar.ts';
import { FundamentalsBatchSchema, FundamentalsItemSchema, FundamentalsPageSchema } from '../../domain/fundamentals.ts';
import { AsyncApiDocumentSchema } from '../../domain/asyncapi-schema.ts';
import { HealthSchema } from '../../domain/health-schema.ts';
import { OpenApiDocumentSchema } from '../../domain/openapi-schema.ts';
import { HolidayListSchema, LegacySymbolsSchema, MarketListSchema, MarketStatusListSchema, MarketStatusSchema, SessionListSchema } from '../../domain/schemas.ts';
import { Type as T } from '@sinclair/typebox';
import { DividendListSchema, SplitListSchema } from '../../domain/corporate-action-schemas.ts';
import { classRows } from './class-rows.ts';
import { compatRows } from './compat-rows.ts';
import { coverageRows } from './coverage-rows.ts';
import { indicatorRows } from './indicator-rows.ts';
import { tickCompatRows } from './tick-compat-rows.ts';
import { tickRows } from './tick-rows.ts';
import {
  AtQuery, BondCountryParams, BondCurveQuery, BondHistoryQuery, BondSymbolParams, CalendarQuery, FundamentalsListQuery, FundamentalsSymbolParams,
  HolidaysQuery, MarketParams, SessionsQuery, symbolParams,
} from './params.ts';
import { KEYED, statuses, type RouteRow } from './row.ts';

const serviceRows: RouteRow[] = [
  {
    method: 'GET',
    path: '/health',
    operationId: 'getHealth',
    summary: 'liveness and readiness; not ready is a 503 with the same fields and the reason',
    tag: 'service',
    response: HealthSchema,
    errors: [],
    isOpen: true,
    unavailable: HealthSchema,
    examples: ['/health'],
  },
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'this OpenAPI 3.1 document',
    tag: 'service',
    response: OpenApiDocumentSchema,
    errors: [],
    isOpen: true,
    examples: ['/openapi.json'],
  },
  {
    method: 'GET',
    path: '/asyncapi.json',
    operationId: 'getAsyncApi',
    summary: 'the AsyncAPI 3.0 document of the WebSocket stream: its frames, operations and close codes',
    tag: 'service',
    response: AsyncApiDocumentSchema,
    errors: [],
    isOpen: true,
    examples: ['/asyncapi.json'],
  },
  {
    method: 'GET',
    path: '/symbols',
    operationId: 'listAllSymbols',
    summary: "legacy merged symbol list: crypto, forex, commodities, ETFs and indices the key's plan includes (never stocks)",
    tag: 'symbols',
    response: LegacySymbolsSchema,
    errors: KEYED,
    examples: ['/symbols'],
    errorExample: { path: '/symbols', status: 401, withoutKey: true },
  },
];

const accountRows: RouteRow[] = [
  {
    method: 'GET',
    path: '/account',
    operationId: 'getAccount',
    summary: "the key's own plan and usage: classes, markets, add-ons, the quota window and the per-minute window (this call included), stream limits",
    tag: 'account',
    response: AccountSchema,
    errors: KEYED,
    examples: ['/account'],
    errorExample: { path: '/account', status: 401, withoutKey: true },
  },
];

const marketRows: RouteRow[] = [
  {
    method: 'GET',
    path: '/markets',
    operationId: 'listMarkets',
    summary: 'the markets whose hours and holidays are known',
    tag: 'markets',
    response: MarketListSchema,
    errors: KEYED,
    examples: ['/markets'],
    errorExample: { path: '/markets', status: 401, withoutKey: true },
  },
  {
    method: 'GET',
    path: '/markets/status',
    operationId: 'listMarketStatus',
    summary: 'whether each market is open now (or at `at`), with its session and next open and close',
    tag: 'markets',
    query: AtQuery,
    response: MarketStatusListSchema,
    errors: KEYED,
    examples: ['/markets/status', '/markets/status?at=2026-03-04T15:30:00Z'],
    errorExample: { path: '/markets/status?at=yesterday', status: 400 },
  },
  {
    method: 'GET',
    path: '/markets/:market/status',
    operationId: 'getMarketStatus',
    summary: "one market's status now (or at `at`)",
    tag: 'markets',
    params: MarketParams,
    query: AtQuery,
    response: MarketStatusSchema,
    errors: statuses(KEYED, [404]),
    examples: ['/markets/US/status', '/markets/de/status?at=1772638200000'],
    errorExample: { path: '/markets/ZZ/status', status: 404 },
  },
  {
    method: 'GET',
    path: '/markets/:market/sessions',
    operationId: 'listMarketSessions',
    summary: "a market's trading sessions over a window of local dates",
    tag: 'markets',
    params: MarketParams,
    query: SessionsQuery,
    response: SessionListSchema,
    errors: statuses(KEYED, [404]),
    examples: ['/markets/US/sessions?from=2026-03-02&to=2026-03-06', '/markets/US/sessions'],
    errorExample: { path: '/markets/US/sessions?from=2026-03-06&to=2026-03-02', status: 400 },
  },
  {
    method: 'GET',
    path: '/markets/:market/holidays',
    operationId: 'listMarketHolidays',
    summary: "a market's holidays and early closes over a window of local dates",
    tag: 'markets',
    params: MarketParams,
    query: HolidaysQuery,
    response: HolidayListSchema,
    errors: statuses(KEYED, [404]),
    examples: ['/markets/US/holidays?from=2026-01-01&to=2026-12-31', '/markets/US/holidays'],
    errorExample: { path: '/markets/ZZ/holidays', status: 404 },
  },
];

// Add-ons answer 403 without the add-on or the market, and 503 when the store cannot be read.
const ADDON_ERRORS = statuses(KEYED, [403, 503]);

const fundamentalsRows: RouteRow[] = [
  {
    method: 'GET',
    path: '/fundamentals/stocks/:symbol',
    operationId: 'getFundamentals',
    summary: 'share structure and profile of one stock (fundamentals add-on)',
    tag: 'fundamentals',
    params: FundamentalsSymbolParams,
    response: FundamentalsItemSchema,
    errors: statuses(ADDON_ERRORS, [404]),
    examples: ['/fundamentals/stocks/US:AAPL'],
    errorExample: { path: '/fundamentals/stocks/US:ZZZZZ', status: 404 },
  },
  {
    method: 'GET',
    path: '/fundamentals/stocks',
    operationId: 'listFundamentals',
    summary: 'with symbols: a batch with the symbols not covered in missing; without: one market paged by cursor (fundamentals add-on)',
    tag: 'fundamentals',
    query: FundamentalsListQuery,
    // One path, two answers told apart by the query: the batch carries `missing`, the page `market`.
    response: T.Union([FundamentalsBatchSchema, FundamentalsPageSchema]),
    errors: ADDON_ERRORS,
    examples: ['/fundamentals/stocks?symbols=US:AAPL,DE:SAP,US:ZZZZZ', '/fundamentals/stocks?market=DE&limit=5'],
    errorExample: { path: '/fundamentals/stocks?market=JP', status: 400 },
  },
];

const bondRows: RouteRow[] = [
  {
    method: 'GET',
    path: '/bonds/yield/:symbol',
    operationId: 'getBondYield',
    summary: "a tenor's latest dated official yield (bonds add-on)",
    tag: 'bonds',
    params: BondSymbolParams,
    response: BondYieldSchema,
    errors: statuses(ADDON_ERRORS, [404]),
    examples: ['/bonds/yield/US:10Y'],
    errorExample: { path: '/bonds/yield/US:11Y', status: 404 },
  },
  {
    method: 'GET',
    path: '/bonds/curve/:country',
    operationId: 'getBondCurve',
    summary: "a country's yield curve on its latest date or a given one (bonds add-on)",
    tag: 'bonds',
    params: BondCountryParams,
    query: BondCurveQuery,
    response: BondCurveSchema,
    errors: statuses(ADDON_ERRORS, [404]),
    examples: ['/bonds/curve/US', '/bonds/curve/DE?date=2026-03-02'],
    errorExample: { path: '/bonds/curve/JP', status: 404 },
  },
  {
    method: 'GET',
    path: '/bonds/history/:symbol',
    operationId: 'getBondHistory',
    summary: "a tenor's daily yields between two dates, paged like the range route (bonds add-on)",
    tag: 'bonds',
    params: BondSymbolParams,
    query: BondHistoryQuery,
    response: BondHistorySchema,
    errors: statuses(ADDON_ERRORS, [404]),
    examples: ['/bonds/history/US:10Y?from=2026-02-02&to=2026-03-04&limit=5'],
    errorExample: { path: '/bonds/history/US:10Y?from=2026-03-04', status: 400 },
  },
];

const calendarRows: RouteRow[] = [
  {
    method: 'GET',
    path: '/calendar/economic',
    operationId: 'listEconomicEvents',
    summary: 'scheduled economic releases over a window of UTC dates, ordered by time, paged by cursor (fundamentals add-on)',
    tag: 'calendar',
    query: CalendarQuery,
    response: EconomicCalendarPageSchema,
    errors: ADDON_ERRORS,
    examples: ['/calendar/economic?from=2026-03-02&to=2026-03-06&country=US,EU&importance=high', '/calendar/economic?limit=3'],
    errorExample: { path: '/calendar/economic?importance=urgent', status: 400 },
  },
];

/** A stock's corporate actions (issue 32), beside the class routes of stocks. */
const corporateActionRows: RouteRow[] = [
  {
    method: 'GET',
    path: '/stocks/splits/:symbol',
    operationId: 'getStockSplits',
    summary: "a stock's splits, oldest first, with the adjustment_version of its split-adjusted bars",
    tag: 'stocks',
    params: symbolParams('stocks'),
    response: SplitListSchema,
    errors: statuses(KEYED, [403, 404]),
    examples: ['/stocks/splits/US:AAPL'],
    errorExample: { path: '/stocks/splits/US:ZZZZZ', status: 404 },
  },
  {
    method: 'GET',
    path: '/stocks/dividends/:symbol',
    operationId: 'getStockDividends',
    summary: "a stock's cash dividends, oldest first, with the adjustment_version of its dividend-adjusted bars",
    tag: 'stocks',
    params: symbolParams('stocks'),
    response: DividendListSchema,
    errors: statuses(KEYED, [403, 404]),
    examples: ['/stocks/dividends/US:AAPL'],
    errorExample: { path: '/stocks/dividends/US:ZZZZZ', status: 404 },
  },
];

export const ROUTE_TABLE: readonly RouteRow[] = [
  ...serviceRows,
  ...accountRows,
  ...ASSET_CLASSES.flatMap((cls) => classRows(cls)),
  ...classRows('etfs', '/v1/etfs'),
  ...corporateActionRows,
  ...marketRows,
  ...fundamentalsRows,
  ...bondRows,
  ...calendarRows,
  ...coverageRows,
  ...indicatorRows,
  ...tickRows,
  ...compatRows,
  ...tickCompatRows,
];
