// The origin a client reached this server at, for URLs the answers carry (Massive's `next_url`).
// Served directly, that is the request's own (https with --tls-cert). Behind a reverse proxy that
// ends TLS, the request arrives as http from the proxy: the proxy's X-Forwarded-Proto and
// X-Forwarded-Host say what the client used. A client that sends them itself only changes the
// links in its own answers, so they are taken from anyone, but only in their plain forms.
const PROTOS = new Set(['http', 'https']);
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The first value of a comma-separated forwarding header (the client's end of a proxy chain). */
function firstOf(request: Request, name: string): string | undefined {
  return request.headers.get(name)?.split(',')[0]?.trim();
}

export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const proto = firstOf(request, 'x-forwarded-proto')?.toLowerCase();
  const host = firstOf(request, 'x-forwarded-host');
  const scheme = proto !== undefined && PROTOS.has(proto) ? proto : url.protocol.slice(0, -1);
  return `${scheme}://${host !== undefined && HOST.test(host) ? host : url.host}`;
}
