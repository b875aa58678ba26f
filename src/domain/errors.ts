// The one error table: every error the API can answer with, its HTTP status and its message.
// The spec's message strings (Errors section) appear nowhere else in the code.

export const ERRORS = {
  // 404 and 503 texts of the spec's table, word for word.
  UNKNOWN_SYMBOL: { status: 404, message: 'unknown symbol' },
  NO_QUOTE: { status: 404, message: 'no quote available' },
  NO_TRADE: { status: 404, message: 'no trade available' },
  SYMBOL_NOT_AVAILABLE: { status: 404, message: 'symbol not available' },
  COMMODITY_NOT_SUPPORTED: { status: 404, message: 'commodity symbol not supported' },
  NO_FRESH_TRADE: { status: 404, message: 'no fresh trade available' },
  NO_SNAPSHOT: { status: 404, message: 'no snapshot available' },
  NO_BAR: { status: 404, message: 'no bar available' },
  MARKET_DATA_UNAVAILABLE: { status: 503, message: 'market data temporarily unavailable' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'service temporarily unavailable' },
  // Ours: the spec leaves these texts open.
  NOT_FOUND: { status: 404, message: 'not found' },
  UNKNOWN_MARKET: { status: 404, message: 'unknown market' },
  // Fundamentals single route: 404 when unknown or not covered yet (spec error table; text ours).
  NO_FUNDAMENTALS: { status: 404, message: 'no fundamentals for this symbol yet (new listings can lag a day)' },
  FUNDAMENTALS_MARKET_NOT_COVERED: { status: 404, message: 'no fundamentals for this market: fundamentals cover the stock markets US, DE, ES and FR' },
  // Bond yields (add-on; texts ours, in the style of the quote routes').
  BONDS_COUNTRY_NOT_COVERED: { status: 404, message: 'no bond yields for this country: bond yields cover US, DE, FR, IT, ES and GB' },
  NO_YIELD: { status: 404, message: 'no yield available' },
  NO_CURVE: { status: 404, message: 'no curve available' },
  // Perpetual composites: no source is live (all stale, crossed or far off the others), so there
  // is no value to serve rather than a stale one (text ours, in the spec's 503 wording).
  NO_LIVE_SOURCE: { status: 503, message: 'market data temporarily unavailable: no live source for this composite' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed: the API is read-only and answers GET only' },
  MISSING_KEY: { status: 401, message: 'missing API key: send it in the x-api-key header or the apiKey query parameter' },
  INVALID_KEY: { status: 401, message: 'invalid API key' },
  REVOKED_KEY: { status: 401, message: 'API key revoked' },
  // A valid key whose plan the server's plans table lacks: the key is right, the server cannot serve it.
  PLAN_MISSING: { status: 403, message: "this API key's plan is not offered by this server: ask the operator" },
  FORBIDDEN: { status: 403, message: 'not enabled for this account' },
  RATE_LIMITED: { status: 429, message: 'rate limit exceeded' },
  // A cluster node that can count a key's call neither from its lease nor by leasing more (NATS
  // out of reach): it refuses rather than serve a call no node has counted (text ours).
  QUOTA_UNAVAILABLE: { status: 503, message: 'quota service unavailable' },
  BAD_REQUEST: { status: 400, message: 'bad request' },
  // A well-formed parameter whose value cannot be served (the Alpaca-compatible routes' 422, e.g. a timeframe).
  UNPROCESSABLE: { status: 422, message: 'unprocessable parameter' },
  // Tick history: a window that reaches before the oldest tick the ring still holds (text ours; the detail names it).
  OUTSIDE_RETENTION: { status: 422, message: 'outside the retained ticks' },
  INTERNAL: { status: 500, message: 'internal error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Thrown anywhere below the API; rendered by one handler. `detail` replaces the message for 400s. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Known symbols a near-miss symbol was probably meant to be (the body's `did_you_mean`). */
  didYouMean?: readonly string[];
  constructor(code: ErrorCode, detail?: string) {
    super(detail ?? ERRORS[code].message);
    this.code = code;
    this.status = ERRORS[code].status;
  }
}

/** A 400 whose message says what was wrong and what is allowed. */
export function badRequest(message: string): ApiError {
  return new ApiError('BAD_REQUEST', message);
}
