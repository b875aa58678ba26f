// How the Massive-compatible routes take their key and word their errors: the key as the vendor's
// SDK sends it (`?apiKey=`, or `Authorization: Bearer`), errors in the vendor's body
// (`{"status":"ERROR","request_id","error"}`; `NOT_FOUND` and `NOT_AUTHORIZED` with `message`).
import { ERRORS, type ErrorCode } from '../../../domain/errors.ts';
import { jsonResponse } from '../../http.ts';
import type { GateDialect } from '../../plugins/gate.ts';

export const MASSIVE_PREFIX = '/compat/massive';

/** `?apiKey=` (what the SDK sends), else `Authorization: Bearer`, else the native header. */
function massiveKeyOf(request: Request, url: string, queryAt: number): string | null {
  if (queryAt >= 0) {
    const key = new URLSearchParams(url.slice(queryAt + 1)).get('apiKey');
    if (key !== null) return key;
  }
  const auth = request.headers.get('authorization');
  if (auth !== null && auth.slice(0, 7).toLowerCase() === 'bearer ') return auth.slice(7).trim();
  return request.headers.get('x-api-key');
}

/** The vendor's wording where it has one; the mds message otherwise (it says what was wrong). */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  MISSING_KEY: 'API Key was not provided',
  INVALID_KEY: 'Unknown API Key',
  REVOKED_KEY: 'Unknown API Key',
  RATE_LIMITED: "You've exceeded the maximum requests per minute, please wait or ask the operator of this server for a larger plan.",
};

export function massiveErrorBody(status: number, requestId: string, message: string): string {
  if (status === 404) return JSON.stringify({ status: 'NOT_FOUND', request_id: requestId, message });
  if (status === 403) return JSON.stringify({ status: 'NOT_AUTHORIZED', request_id: requestId, message: `You are not entitled to this data: ${message}` });
  return JSON.stringify({ status: 'ERROR', request_id: requestId, error: message });
}

function massiveRefuse(code: ErrorCode, requestId: string, message?: string, headers?: Record<string, string>): Response {
  const { status } = ERRORS[code];
  return jsonResponse(massiveErrorBody(status, requestId, MESSAGES[code] ?? message ?? ERRORS[code].message), status, headers);
}

export const MASSIVE_DIALECT: GateDialect = { keyOf: massiveKeyOf, refuse: massiveRefuse };
