// GET /console in process (app.handle): the page and every asset it names answer without a key,
// the page never cached and under its policy, the assets immutable and gzipped when asked; the
// script is the real bundle (lightweight-charts inside, no bare import left); a failed build is a 500 that says so.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { createApp } from '../../src/api/app.ts';
import { consoleRoutes } from '../../src/api/routes/console.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { CONSOLE_ASSETS_PREFIX } from '../../src/console/paths.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { createLogger } from '../../src/log.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const IMMUTABLE = 'public, max-age=31536000, immutable';

let dir: TempDir;
let store: Store;
let app: ReturnType<typeof createApp>;
const get = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, init));

let html = '';
/** The URLs the page names in src= and href=, but for its data: icon. */
let named: string[] = [];

beforeAll(async () => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  const clock = new ManualClock(Date.UTC(2026, 2, 4, 15, 30));
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'k'.repeat(10), devPerMinute: 100 });
  app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
  html = await (await get('/console')).text();
  named = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith('data:'));
});
afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

/** An asset's bytes as sent, and its headers. */
async function fetchAsset(url: string, encoding: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array<ArrayBuffer> }> {
  const res = await get(url, { headers: { 'accept-encoding': encoding } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('/console', () => {
  test('the page is HTML without a key, never cached, under a policy that allows only this server', async () => {
    const res = await get('/console');
    expect(res.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'cache-control', 'x-content-type-options', 'content-security-policy'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': POLICY,
    });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    // `/console/` is the same page.
    const slash = await get('/console/');
    expect(slash.status).toBe(200);
    expect(await slash.text()).toBe(html);
  });

  test('the page has the document shell the console script mounts into', () => {
    expect(html).toStartWith('<!DOCTYPE html>\n<html lang="en">');
    for (const part of ['<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">', '<meta name="color-scheme" content="light dark">', '<title>mds console</title>', '<div id="app"></div>', '<noscript>']) {
      expect(html).toContain(part);
    }
    expect(html).toMatch(/<link rel="stylesheet" href="\/console\/assets\/main\.[0-9a-f]{12}\.css">/);
    expect(html).toMatch(/<script type="module" src="\/console\/assets\/main\.[0-9a-f]{12}\.js"><\/script>/);
    expect(named).toHaveLength(2);
  });

  test('every asset it names answers without a key, immutable, gzipped when accepted, the same bytes unzipped', async () => {
    for (const url of named) {
      const plain = await fetchAsset(url, 'identity');
      const zipped = await fetchAsset(url, 'gzip, deflate');
      const type = url.endsWith('.js') ? 'text/javascript' : 'text/css';
      expect({ url, status: plain.status, type: plain.headers.get('content-type')?.split(';')[0], cache: plain.headers.get('cache-control'), encoding: plain.headers.get('content-encoding') }).toEqual({ url, status: 200, type, cache: IMMUTABLE, encoding: null });
      expect({ url, status: zipped.status, encoding: zipped.headers.get('content-encoding'), vary: zipped.headers.get('vary'), nosniff: zipped.headers.get('x-content-type-options') }).toEqual({ url, status: 200, encoding: 'gzip', vary: 'accept-encoding', nosniff: 'nosniff' });
      expect(plain.bytes.length).toBeGreaterThan(0);
      expect(Bun.gunzipSync(zipped.bytes)).toEqual(plain.bytes);
    }
  });

  test('the script is the bundle: lightweight-charts is inside, no import is left for the browser to resolve', async () => {
    const url = named.find((u) => u.endsWith('.js'))!;
    const js = new TextDecoder().decode((await fetchAsset(url, 'identity')).bytes);
    // Minified production code: large, and carrying the library's own class name and messages.
    expect(js.length).toBeGreaterThan(100_000);
    expect(js).toContain('tv-lightweight-charts');
    expect(js).toContain('Cannot find element in DOM with id=');
    expect(js.match(/\bimport\s*(?:[\w$*{][^;]*?\bfrom\s*)?["'][^"']+["']/g) ?? []).toEqual([]);
    expect(js.match(/\bimport\s*\(/g) ?? []).toEqual([]);
  });

  test('an unknown asset is a JSON 404 that says how to recover, without a key', async () => {
    const res = await get(`${CONSOLE_ASSETS_PREFIX}main.000000000000.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toStartWith('application/json');
    expect(((await res.json()) as { error: string }).error).toBe('not found: no such console asset (its name changes with each build); reload /console');
  });

  test('POST is a 405 on the page and its assets, as on every path', async () => {
    for (const path of ['/console', named[0]!]) {
      const res = await get(path, { method: 'POST' });
      expect({ path, status: res.status, allow: res.headers.get('allow') }).toEqual({ path, status: 405, allow: 'GET, HEAD' });
    }
  });

  test('paths beside it are not opened by it: they still need a key', async () => {
    expect((await get('/consolex')).status).toBe(401);
    expect((await get('/console-assets/main.js')).status).toBe(401);
  });
});

describe('/console when its browser code did not build', () => {
  test('the page and its assets are a 500 that says so, and the reason is logged with the request id', async () => {
    const lines: string[] = [];
    const logger = createLogger({ clock: new ManualClock(0), format: 'text', level: 'info', write: (line) => lines.push(line) });
    const failing = () => Promise.reject(new Error("the console's browser code did not build: main.ts:3:1 error: Unexpected }"));
    // The gate's part: each request's id in the response headers.
    const broken = new Elysia()
      .onRequest(({ set }) => {
        set.headers['x-request-id'] = 'req-1';
      })
      .use(consoleRoutes(logger, failing));
    for (const path of ['/console', `${CONSOLE_ASSETS_PREFIX}main.000000000000.js`]) {
      const res = await broken.handle(new Request(`http://localhost${path}`));
      expect(res.status).toBe(500);
      expect(((await res.json()) as { error: string }).error).toBe("internal error: the console's browser code did not build; the server log says why");
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEndWith(`error console unavailable: the console's browser code did not build: main.ts:3:1 error: Unexpected } request_id=req-1`);
  });
});
