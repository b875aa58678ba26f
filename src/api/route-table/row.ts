// What the route table says about one REST route: enough to document it (OpenAPI), to check a
// real answer against it (the contract test) and to show it (README examples share `examples`).
import type { TObject, TSchema } from '@sinclair/typebox';

/** Statuses a route may answer with the error body (ErrorSchema), besides its 200. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 422 | 429 | 503;

/** A concrete request that answers one of the row's error statuses. */
export interface ErrorExample {
  path: string;
  status: ErrorStatus;
  /** Sent without an API key (how a 401 is shown). */
  withoutKey?: true;
}

export interface RouteRow {
  method: 'GET';
  /** The path as the app registers it (`:name` segments). */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  params?: TObject;
  query?: TObject;
  /** The 200 body. */
  response: TSchema;
  errors: readonly ErrorStatus[];
  /** The body of those errors when it is not the native one (the compatibility routes' vendor bodies). */
  errorSchema?: TSchema;
  /** Served without an API key (the gate's open paths). */
  isOpen?: true;
  /** A 503 that answers the response's own shape instead of the error body (health: not ready). */
  unavailable?: TSchema;
  /** Concrete requests that answer 200 on a fresh server at the test clock; the first is the README's. */
  examples: readonly [string, ...string[]];
  errorExample?: ErrorExample;
}

/** Every keyed route can refuse the key (401), the rate (429) and an over-long URL (400). */
export const KEYED: readonly ErrorStatus[] = [400, 401, 429];

/** The statuses in ascending order, without repeats. */
export function statuses(...lists: (readonly ErrorStatus[])[]): ErrorStatus[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

/** `/crypto/quote/:symbol` → `/crypto/quote/{symbol}` (OpenAPI's path template). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}
