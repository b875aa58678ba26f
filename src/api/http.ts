// Response helpers shared by every route: JSON bodies, the error body (ours: {status, error,
// request_id}), and request ids.
import { ApiError, ERRORS, type ErrorCode } from '../domain/errors.ts';

export const JSON_TYPE = 'application/json';

const bootId = Math.random().toString(36).slice(2, 10);
let requestCounter = 0;

export function nextRequestId(): string {
  return `${bootId}-${(++requestCounter).toString(36)}`;
}

export function jsonResponse(body: string, status = 200, headers?: Record<string, string>): Response {
  return new Response(body, { status, headers: headers ? { 'content-type': JSON_TYPE, ...headers } : { 'content-type': JSON_TYPE } });
}

export function errorBody(status: number, message: string, requestId: string, didYouMean?: readonly string[]): string {
  return JSON.stringify(didYouMean && didYouMean.length > 0 ? { status, error: message, request_id: requestId, did_you_mean: didYouMean } : { status, error: message, request_id: requestId });
}

export function errorResponse(code: ErrorCode, requestId: string, message?: string, headers?: Record<string, string>): Response {
  const { status } = ERRORS[code];
  return jsonResponse(errorBody(status, message ?? ERRORS[code].message, requestId), status, headers);
}

/** Renders any thrown value: ApiErrors as themselves, anything else as a 500 (logged by the caller). */
export function renderError(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) return jsonResponse(errorBody(error.status, error.message, requestId, error.didYouMean), error.status);
  return errorResponse('INTERNAL', requestId);
}
