// /console in headless Chromium: the page runs its bundled script under its policy with nothing
// refused and no script error, asks nothing of any other host, and the policy's `connect-src 'self'`
// lets the page open the stream at ws://same-host/ (a WebSocket is no fetch: CSP 3 matches it to 'self').
import { beforeAll, describe, expect, test } from 'bun:test';
import { ensureChromium, launchChromium, watchPage } from '../support/browser.ts';
import { startServer } from '../support/server.ts';

/** What the functions run in the page use of its globals (the project's TypeScript has no DOM library). */
interface PageGlobals {
  location: { host: string };
  WebSocket: new (url: string) => { onmessage: ((e: { data: string }) => void) | null; onerror: (() => void) | null; close(): void };
}

describe('/console in Chromium', () => {
  // Installing the package (first run on a fresh machine) takes minutes: outside the test's time bound.
  beforeAll(() => ensureChromium(), 600_000);

  test('runs its script with nothing refused, loads only from this server, and may open the stream', async () => {
    await using server = await startServer();
    await using chromium = await launchChromium();
    const page = await chromium.browser.newPage();
    const watch = await watchPage(page);
    const urls = () => watch.requests.map((r) => r.url);

    // A name that is not localhost (support/browser.ts maps it to 127.0.0.1), as a deployed server has.
    const base = `http://mds.test:${server.port}`;
    const res = await page.goto(`${base}/console`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(urls().filter((u) => u.startsWith(`${base}/console/assets/main.`) && u.endsWith('.js'))).toHaveLength(1);

    // The stream, as the console opens it: same host, the key in the query; its first frame is `ready`.
    const first = await page.evaluate(
      (key: string) =>
        new Promise<string>((done) => {
          const { WebSocket, location } = globalThis as unknown as PageGlobals;
          const ws = new WebSocket(`ws://${location.host}/?apiKey=${key}`);
          ws.onmessage = (e) => {
            ws.close();
            done((JSON.parse(e.data) as { type: string }).type);
          };
          ws.onerror = () => done('error');
        }),
      server.key,
    );
    expect(first).toBe('ready');

    expect(urls().filter((u) => !u.startsWith('data:') && new URL(u).origin !== base)).toEqual([]);
    expect(await watch.cspViolations()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);
});
