// The client address the per-address limits count (keyless and wrong-key REST calls, stream
// connection attempts): the socket's peer, unless that peer is a proxy the operator trusts
// (`--trust-proxy`), in which case the address that proxy saw, from `X-Forwarded-For`. Any client
// can send that header itself, so it is read only from trusted peers, and only up to the first
// address no trusted proxy added (the rightmost untrusted one: proxy-addr, as Express resolves it).
import proxyAddr from 'proxy-addr';
import type { IncomingMessage } from 'node:http';

/** What `--trust-proxy` accepts: addresses, CIDR ranges and the names of proxy-addr's ranges. */
export const TRUST_PROXY_ALLOWED = 'addresses or CIDR ranges (10.0.0.1, 10.0.0.0/8, ::1, fd00::/8) and the names loopback, linklocal, uniquelocal, comma-separated';

/** Which peers are trusted proxies; null: none (X-Forwarded-For is never read). */
export type TrustedProxies = ((address: string, hop: number) => boolean) | null;

/** The trust of a `--trust-proxy` list; throws, naming the bad entry, for one that is not an address, a range or a name. */
export function trustedProxies(list: readonly string[]): TrustedProxies {
  return list.length === 0 ? null : proxyAddr.compile([...list]);
}

/** The client's address: the socket's peer, or, behind trusted proxies, the address they forwarded. */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | null, trust: TrustedProxies): string | undefined {
  if (trust === null || socketAddress === undefined || forwardedFor === null || forwardedFor === '') return socketAddress;
  // proxy-addr reads a Node request; these two fields are all it reads.
  const request = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: socketAddress } } as unknown as IncomingMessage;
  return proxyAddr(request, trust);
}
