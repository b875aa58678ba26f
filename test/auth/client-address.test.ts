// Which address the per-address limits count: the socket's peer, or behind a trusted proxy the
// address it forwarded (the rightmost one no trusted proxy added), never a header from anyone else.
import { describe, expect, test } from 'bun:test';
import { clientAddress, trustedProxies } from '../../src/auth/client-address.ts';

describe('client address', () => {
  test('without trusted proxies the socket peer is the client, whatever X-Forwarded-For says', () => {
    expect(trustedProxies([])).toBeNull();
    expect(clientAddress('203.0.113.9', '198.51.100.7', null)).toBe('203.0.113.9');
    expect(clientAddress(undefined, '198.51.100.7', null)).toBeUndefined();
  });

  test('from a trusted proxy, the address it forwarded; through a chain, the rightmost untrusted one', () => {
    const trust = trustedProxies(['loopback', '10.0.0.0/8']);
    expect(clientAddress('127.0.0.1', '198.51.100.7', trust)).toBe('198.51.100.7');
    // The client wrote the first entry itself; the trusted proxy at 10.1.2.3 saw 198.51.100.7.
    expect(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.7, 10.1.2.3', trust)).toBe('198.51.100.7');
    expect(clientAddress('::1', '2001:db8::5', trust)).toBe('2001:db8::5');
    // No header, or an empty one: the proxy itself.
    expect(clientAddress('127.0.0.1', null, trust)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '', trust)).toBe('127.0.0.1');
  });

  test('from a peer that is not trusted, its own address: a client cannot pick the address it is counted under', () => {
    const trust = trustedProxies(['10.0.0.0/8']);
    expect(clientAddress('203.0.113.9', '198.51.100.7', trust)).toBe('203.0.113.9');
  });

  test('an entry that is not an address, a range or a name is refused, naming it', () => {
    expect(() => trustedProxies(['10.0.0.0/33'])).toThrow('10.0.0.0/33');
    expect(() => trustedProxies(['proxy.example.com'])).toThrow('proxy.example.com');
  });
});
