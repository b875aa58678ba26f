// How the Alpaca-compatible routes take their key and word their errors: the key id header the
// vendor's SDK sends (`APCA-API-KEY-ID`, the mds key; the secret header is not checked), errors as
// `{"code":<status><5 digits>,"message"}` (40110000, 40010001 for an invalid symbol, 42210000, ...).
import { ERRORS, type ErrorCode } from '../../../domain/errors.ts';
import { jsonResponse } from '../../http.ts';
import type { GateDialect } from '../../plugins/gate.ts';

export const ALPACA_PREFIX = '/compat/alpaca';

/** `APCA-API-KEY-ID`, else an OAuth-style `Authorization: Bearer`, else the native header. */
function alpacaKeyOf(request: Request): string | null {
  const id = request.headers.get('apca-api-key-id');
  if (id !== null) return id;
  const auth = request.headers.get('authorization');
  if (auth !== null && auth.slice(0, 7).toLowerCase() === 'bearer ') return auth.slice(7).trim();
  return request.headers.get('x-api-key');
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  MISSING_KEY: 'request is not authorized',
  INVALID_KEY: 'request is not authorized',
  REVOKED_KEY: 'request is not authorized',
  RATE_LIMITED: 'too many requests',
};

/** A 400 about the symbol carries the vendor's own sub-code. */
export const INVALID_SYMBOL_PREFIX = 'invalid symbol';

export function alpacaErrorBody(status: number, message: string): string {
  const sub = status === 400 && message.startsWith(INVALID_SYMBOL_PREFIX) ? 1 : 0;
  return JSON.stringify({ code: status * 100_000 + 10_000 + sub, message });
}

function alpacaRefuse(code: ErrorCode, _requestId: string, message?: string, headers?: Record<string, string>): Response {
  const { status } = ERRORS[code];
  return jsonResponse(alpacaErrorBody(status, MESSAGES[code] ?? message ?? ERRORS[code].message), status, headers);
}

export const ALPACA_DIALECT: GateDialect = { keyOf: alpacaKeyOf, refuse: alpacaRefuse };
