// If-None-Match by RFC 9110's weak comparison: the unit, then over HTTP on the prev route.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { isNotModified } from '../../src/api/conditional.ts';
import { startServer, type TestServer } from '../support/server.ts';

describe('isNotModified', () => {
  test.each([
    ['"abc"', true],
    ['W/"abc"', true],
    [' "abc" ', true],
    ['"x", "abc"', true],
    ['"x",W/"abc","y"', true],
    ['*', true],
    [' * ', true],
    ['"abd"', false],
    ['abc', false],
    ['"ab', false],
    ['"x", abc', false],
    ['', false],
    ['w/"abc"', false],
  ])('%p against "abc" → %p', (header, expected) => {
    expect(isNotModified(header, '"abc"')).toBe(expected);
  });

  test('no header is never a match', () => {
    expect(isNotModified(null, '"abc"')).toBe(false);
  });

  test('a tag with a comma inside is matched whole, not split', () => {
    expect(isNotModified('"a,b"', '"a,b"')).toBe(true);
    expect(isNotModified('"a", "b"', '"a,b"')).toBe(false);
  });

  test('never throws, and a list holding the tag matches wherever it stands', () => {
    const tagText = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    fc.assert(
      fc.property(fc.string(), (header) => {
        isNotModified(header, '"abc"');
      }),
    );
    fc.assert(
      fc.property(fc.array(tagText, { maxLength: 4 }), fc.array(tagText, { maxLength: 4 }), tagText, fc.boolean(), (before, after, tag, weak) => {
        const header = [...before, `${weak ? 'W/' : ''}${tag}`, ...after].map((t) => (t.startsWith('W/') ? `W/"${t.slice(2)}"` : `"${t}"`)).join(', ');
        expect(isNotModified(header, `"${tag}"`)).toBe(true);
      }),
    );
  });
});

describe('prev route: If-None-Match', () => {
  let server: TestServer;
  const path = '/crypto/agg/BTCUSD/prev?interval=1h';
  let etag: string;
  beforeAll(async () => {
    server = await startServer();
    const first = await server.get(path);
    expect(first.status).toBe(200);
    etag = first.headers.get('etag')!;
  });
  afterAll(() => server.stop());

  test.each([
    ['the weak form of the tag', (tag: string) => `W/${tag}`],
    ['a list holding the tag', (tag: string) => `"stale-1", ${tag}, "stale-2"`],
    ['*', () => '*'],
  ])('%s gets 304 with the ETag and Cache-Control', async (_what, header) => {
    const res = await server.get(path, { headers: { 'if-none-match': header(etag) } });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('cache-control')).toStartWith('public, max-age=');
    expect(await res.text()).toBe('');
  });

  test('a list without the tag gets the 200 body', async () => {
    const res = await server.get(path, { headers: { 'if-none-match': '"stale-1", W/"stale-2"' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { symbol: string }).symbol).toBe('BTCUSD');
  });
});
