// GET /docs over real HTTP: the page and every asset it names answer 200 without a key, with their
// content types and cache headers, gzipped when asked; and nothing served makes the browser load
// from another host (the browser test, docs-browser.test.ts, watches the requests themselves).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DOCS_ASSETS_PREFIX } from '../../src/api/routes/docs.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let html = '';
/** Every URL the page names (src=, href=). */
let pageUrls: string[] = [];
/** The text of each asset the page names, by URL. */
const texts = new Map<string, string>();

beforeAll(async () => {
  server = await startServer({ args: ['--feed', 'none'] });
  const res = await server.get('/docs', { key: null });
  html = await res.text();
  pageUrls = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]!);
});
afterAll(() => server[Symbol.asyncDispose]());

describe('/docs', () => {
  test('the page answers 200 as HTML without a key, not cached, with a policy that allows only this server', async () => {
    const res = await server.get('/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(html).toContain('<div id="swagger-ui">');
    // `/docs/` is the same page, also keyless.
    const slash = await server.get('/docs/', { key: null });
    expect(slash.status).toBe(200);
    expect(await slash.text()).toBe(html);
  });

  test('names its scripts, styles and icon under /docs/assets/, each with a content hash', () => {
    expect(pageUrls.length).toBe(5);
    for (const url of pageUrls) expect(url).toMatch(/^\/docs\/assets\/[a-z0-9-]+\.[0-9a-f]{12}\.(js|css|png)$/);
    expect(pageUrls.filter((u) => u.endsWith('.js'))).toHaveLength(2);
    expect(pageUrls.filter((u) => u.endsWith('.css'))).toHaveLength(2);
  });

  test('every asset answers 200 without a key, with its content type and an immutable cache', async () => {
    const types = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' } as const;
    for (const url of pageUrls) {
      const res = await server.get(url, { key: null, headers: { 'accept-encoding': 'identity' } });
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      const ext = url.slice(url.lastIndexOf('.') + 1) as keyof typeof types;
      expect(res.headers.get('content-type')).toBe(types[ext]);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-encoding')).toBeNull();
      const body = new Uint8Array(await res.arrayBuffer());
      expect(body.length).toBeGreaterThan(0);
      if (ext === 'png') expect([...body.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // "PNG"
      else texts.set(url, new TextDecoder().decode(body));
    }
    const bundle = [...texts].find(([url]) => url.includes('swagger-ui-bundle'));
    expect(bundle?.[1].length).toBeGreaterThan(1_000_000);
  });

  test('text assets come gzipped to a client that accepts it, and unzip to the same bytes', async () => {
    const url = pageUrls.find((u) => u.includes('swagger-ui-bundle'))!;
    // Bun's fetch unzips by itself unless told not to.
    const res = await fetch(server.base + url, { headers: { 'accept-encoding': 'gzip' }, decompress: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('accept-encoding');
    const zipped = new Uint8Array(await res.arrayBuffer());
    expect(zipped.length).toBeLessThan(texts.get(url)!.length / 2);
    expect(new TextDecoder().decode(Bun.gunzipSync(zipped))).toBe(texts.get(url)!);
  });

  test('an unknown asset is a JSON 404, still without a key', async () => {
    const res = await server.get(`${DOCS_ASSETS_PREFIX}swagger-ui-bundle.000000000000.js`, { key: null });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain('no such docs asset');
  });

  test('other paths under /docs are not opened by it: a keyed route still needs the key', async () => {
    expect((await server.get('/docsx', { key: null })).status).toBe(401);
    expect((await server.get('/crypto/quote/BTCUSD', { key: null })).status).toBe(401);
  });

  test('nothing served loads from an absolute URL: no src/href/url()/@import/fetch/import of http(s) or ws(s)', () => {
    expect(texts.size).toBe(4);
    // Shapes in which HTML, CSS or JS makes the browser load a URL, each with an absolute URL.
    const abs = String.raw`(?:https?:|wss?:)?\/\/`;
    const loads = [
      new RegExp(String.raw`\b(?:src|href|action|srcset|poster|data)\s*[=:]\s*["'\x60]?\s*${abs}`, 'gi'),
      new RegExp(String.raw`url\(\s*["']?\s*${abs}`, 'gi'),
      new RegExp(String.raw`@import\s+(?:url\()?\s*["']?\s*${abs}`, 'gi'),
      new RegExp(String.raw`\b(?:fetch|import|importScripts|sendBeacon|WebSocket|EventSource|Worker|open)\s*\(\s*["'\x60]\s*${abs}`, 'gi'),
    ];
    // The patterns catch each way of loading (checked on samples, so an empty result means something).
    const samples = ['<script src="https://cdn.example/x.js">', "<link href='//fonts.example/css'>", 'e.src="https://x.example/i.png"', 'background:url(https://x.example/a.woff2)', '@import url("https://x.example/a.css")', 'fetch("https://x.example/v")', 'import(`https://x.example/m.js`)', 'new WebSocket("wss://x.example/")', 'navigator.sendBeacon("https://x.example/t")'];
    expect(samples.filter((s) => !loads.some((re) => new RegExp(re.source, 'i').test(s)))).toEqual([]);
    const found: string[] = [];
    for (const [url, text] of [['/docs', html] as const, ...texts]) {
      for (const re of loads) for (const m of text.matchAll(re)) found.push(`${url}: ${text.slice(m.index, m.index + 80)}`);
    }
    expect(found).toEqual([]);
    // The scan sees what it scans for: the stylesheet's icons are data: URLs in url(...).
    const css = [...texts].find(([url]) => url.includes('swagger-ui.'))![1];
    expect(css.match(/url\(\s*["']?data:/g)?.length).toBeGreaterThan(10);
    // The page, its CSS and our own starter script name no absolute URL at all.
    for (const [url, text] of [['/docs', html] as const, ...[...texts].filter(([u]) => !u.includes('swagger-ui-bundle') && !u.includes('swagger-ui.'))]) {
      expect({ url, absolute: text.match(/(?:https?|wss?):\/\//g) ?? [] }).toEqual({ url, absolute: [] });
    }
  });
});
