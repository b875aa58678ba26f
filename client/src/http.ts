// HTTP for both halves of the client: URLs from path templates, the fetch shape the client
// needs, and an error answer read into an MdsError.
import { MdsError } from './errors.ts';

/** The part of a fetch Response the client reads (so any fetch implementation fits). */
export interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** A fetch function: the global one in Bun, Node 18+ and browsers, or any with this shape. */
export type FetchLike = (url: string, init: { method: 'GET'; headers: Record<string, string>; signal?: AbortSignal }) => Promise<ResponseLike>;

type Scalar = string | number | boolean;

/** Fills the `:name` segments of a path and appends the other arguments as the query. */
export function buildUrl(baseUrl: string, path: string, pathParams: readonly string[], args: Readonly<Record<string, unknown>> | undefined): string {
  const values = args ?? {};
  const filled = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`missing path parameter "${name}" for ${path}`);
    // A colon is legal in a path segment and keeps `US:AAPL` readable in logs.
    return encodeURIComponent(String(value as Scalar)).replace(/%3A/gi, ':');
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (pathParams.includes(name) || value === undefined || value === null) continue;
    query.append(name, Array.isArray(value) ? value.map(String).join(',') : String(value as Scalar));
  }
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}${filled}${search ? `?${search}` : ''}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The MdsError for a refused answer: the body's `error` and `request_id`, and `Retry-After`. */
export async function errorOf(res: ResponseLike, url: string): Promise<MdsError> {
  const body = parseJson(await res.text());
  const fields = typeof body === 'object' && body !== null ? (body as { error?: unknown; request_id?: unknown }) : {};
  const retryAfter = res.headers.get('retry-after');
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  return new MdsError({
    status: res.status,
    message: typeof fields.error === 'string' ? fields.error : `HTTP ${res.status}`,
    requestId: typeof fields.request_id === 'string' ? fields.request_id : res.headers.get('x-request-id'),
    retryAfterSec: Number.isFinite(seconds) ? seconds : null,
    url,
    body,
  });
}

export function defaultFetch(): FetchLike {
  const f = (globalThis as { fetch?: FetchLike }).fetch;
  if (f === undefined) throw new TypeError('no global fetch (Node 18+, Bun and browsers have one): pass the fetch option');
  return f.bind(globalThis);
}
