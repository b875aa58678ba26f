// Where /metrics is answered: on the main port behind a bearer token (--metrics-token), and open
// on a port of its own (--metrics-port). Without either, the main port's /metrics says how to
// turn metrics on. Never through the REST gate: a scrape spends no API key and no quota.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Server } from 'bun';
import { errorBody, JSON_TYPE } from '../api/http.ts';
import type { Metrics } from './registry.ts';

/** Answers a scrape; an exception while reading the metrics is a 500 with a JSON body. */
async function scrape(metrics: Metrics): Promise<Response> {
  try {
    return new Response(await metrics.text(), { headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' } });
  } catch (err) {
    return new Response(errorBody(500, `metrics could not be read: ${err instanceof Error ? err.message : String(err)}`, ''), { status: 500, headers: { 'content-type': JSON_TYPE } });
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares in constant time (digests of equal length), so the token cannot be guessed byte by byte. */
function isToken(header: string | null, tokenDigest: Buffer): boolean {
  if (header === null || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length).trim()), tokenDigest);
}

const refused = (status: number, message: string, headers: Record<string, string> = {}) => new Response(errorBody(status, message, ''), { status, headers: { 'content-type': JSON_TYPE, ...headers } });

/**
 * The main port's `/metrics`: with a token, the metrics for `Authorization: Bearer <token>` and
 * 401 otherwise; without one, 404 saying where metrics are (or how to turn them on).
 */
export function mainPortMetrics(metrics: Metrics | null, token: string | null, hasMetricsPort: boolean): (request: Request) => Promise<Response> | Response {
  if (metrics === null || token === null) {
    const message = hasMetricsPort ? 'not found: /metrics is served on the metrics port (--metrics-port); on this port it needs --metrics-token' : 'not found: metrics are off; start mds with --metrics-port PORT or --metrics-token TOKEN (see docs/operations.md, Monitoring)';
    return () => refused(404, message);
  }
  const tokenDigest = digest(token);
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refused(405, 'method not allowed: use GET', { allow: 'GET, HEAD' });
    if (!isToken(request.headers.get('authorization'), tokenDigest)) return refused(401, 'metrics need the metrics token: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer realm="mds metrics"' });
    return scrape(metrics);
  };
}

/** The metrics port: `/metrics` open to anyone who can reach the port, nothing else. */
export function serveMetricsPort(metrics: Metrics, host: string, port: number): Server<undefined> {
  return Bun.serve({
    hostname: host,
    port,
    reusePort: false,
    development: false,
    routes: { '/metrics': { GET: () => scrape(metrics) } },
    fetch: () => refused(404, 'not found: this port serves /metrics only'),
  });
}
