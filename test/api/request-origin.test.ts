// The origin Massive's next_url is built on: the request's own, or what a TLS-ending proxy forwards.
import { expect, test } from 'bun:test';
import { requestOrigin } from '../../src/api/request-origin.ts';

const at = (url: string, headers: Record<string, string> = {}) => requestOrigin(new Request(url, { headers }));

test("served directly: the request's scheme, host and port", () => {
  expect(at('https://127.0.0.1:8443/compat/massive/v3/reference/tickers')).toBe('https://127.0.0.1:8443');
  expect(at('http://md.example.com/x')).toBe('http://md.example.com');
});

test('behind a proxy: X-Forwarded-Proto and X-Forwarded-Host, the first of a chain', () => {
  expect(at('http://md.example.com/x', { 'x-forwarded-proto': 'https' })).toBe('https://md.example.com');
  expect(at('http://10.0.0.5:8080/x', { 'x-forwarded-proto': 'HTTPS, http', 'x-forwarded-host': 'md.example.com:8443, 10.0.0.5' })).toBe('https://md.example.com:8443');
  expect(at('http://10.0.0.5:8080/x', { 'x-forwarded-host': '[::1]:9000' })).toBe('http://[::1]:9000');
});

test('forwarded values that are not a plain scheme or host are ignored', () => {
  expect(at('http://10.0.0.5:8080/x', { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/path' })).toBe('http://10.0.0.5:8080');
  expect(at('https://10.0.0.5:8080/x', { 'x-forwarded-proto': '', 'x-forwarded-host': 'a b' })).toBe('https://10.0.0.5:8080');
});
