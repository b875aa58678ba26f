// /docs as a new user meets it: a real mds, headless Chromium opens /docs, the reference renders
// every route (screenshot decoded and not blank), Authorize takes the test key, "Try it out" runs a
// crypto quote and its answer shows in the page. The browser asks nothing of any host but this server.
import { beforeAll, describe, expect, test } from 'bun:test';
import { NATIVE_ROUTES } from '../../src/api/route-table/index.ts';
import { ensureChromium, launchChromium, watchPage, pictureStats } from '../support/browser.ts';
import { startServer } from '../support/server.ts';

const VIEWPORT = { width: 1280, height: 900 };
const QUOTE_OP = '#operations-crypto-getCryptoQuote';

/** What the functions run in the page use of its globals (the project's TypeScript has no DOM library). */
interface PageGlobals {
  document: {
    querySelectorAll(selector: string): { length: number };
  };
}

describe('/docs in Chromium', () => {
  // Installing the package (first run on a fresh machine) takes minutes: outside the test's time bound.
  beforeAll(() => ensureChromium(), 600_000);

  test('renders every route, runs a keyed call from Try it out, and loads nothing from elsewhere', async () => {
    await using server = await startServer();
    await using chromium = await launchChromium();
    const page = await chromium.browser.newPage();
    // Rendering every route's block takes Swagger UI tens of seconds on a busy 2-core machine: each
    // wait ends as soon as its condition holds, so its deadline is generous.
    page.setDefaultTimeout(120_000);
    await page.setViewport(VIEWPORT);
    // Requests, script errors, and the loads the page's policy refused (those never show as requests).
    const watch = await watchPage(page);
    const requests = watch.requests;

    // Opened under a name that is not localhost (the browser maps it to 127.0.0.1 and resolves no
    // other name, see support/browser.ts): a renderer that skips remote extras for localhost pages
    // shows here what it does for a deployed server.
    const base = `http://mds.test:${server.port}`;
    const res = await page.goto(`${base}/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    // Rendered: one operation block per native route of the table.
    await page.waitForFunction((n: number) => (globalThis as unknown as PageGlobals).document.querySelectorAll('.opblock').length >= n, {}, NATIVE_ROUTES.length);
    expect(await page.$$eval('.opblock', (els) => els.length)).toBe(NATIVE_ROUTES.length);
    expect(await page.$eval('.info .title', (el) => el.textContent ?? '')).toContain('mds market data service');
    // The stream's place: the description links to the AsyncAPI document.
    expect(await page.$$eval('.info .description a', (as) => as.map((a) => a.getAttribute('href')))).toContain('/asyncapi.json');

    const stats = await pictureStats(chromium.browser, await page.screenshot({ type: 'png' }));
    expect({ width: stats.width, height: stats.height }).toEqual(VIEWPORT);
    // A blank or single-colour page has 1 colour and nothing inked; the reference has text, badges and method colours.
    expect(stats.colours).toBeGreaterThan(50);
    expect(stats.inked).toBeGreaterThan(0.05);

    // Authorize with the key (header scheme), as the dialog asks.
    await page.click('.auth-wrapper .authorize');
    await page.waitForSelector('.modal-ux .auth-container input');
    const [headerScheme] = await page.$$('.modal-ux .auth-container');
    expect(await headerScheme!.$eval('h4', (el) => el.textContent)).toContain('ApiKeyHeader');
    await (await headerScheme!.$('input'))!.type(server.key);
    await (await headerScheme!.$('button.authorize'))!.click();
    await page.waitForSelector('.modal-ux .auth-container button[aria-label="Remove authorization"]');
    await page.click('.modal-ux .close-modal');

    // Try it out: the crypto quote of BTCUSD.
    await page.click(`${QUOTE_OP} .opblock-summary-control`);
    await page.waitForSelector(`${QUOTE_OP} .try-out__btn`);
    await page.click(`${QUOTE_OP} .try-out__btn`);
    await page.waitForSelector(`${QUOTE_OP} .parameters input`);
    await page.type(`${QUOTE_OP} .parameters input`, 'BTCUSD');
    await page.click(`${QUOTE_OP} .execute`);
    await page.waitForSelector(`${QUOTE_OP} .live-responses-table .response-col_status`);
    const shown = await page.$eval(`${QUOTE_OP} .live-responses-table`, (el) => el.textContent ?? '');
    expect(shown).toContain('200');
    expect(shown).toContain('"symbol": "BTCUSD"');
    expect(shown).toMatch(/"bid": \d/);

    // The call went to this server with the key in its header.
    const call = requests.find((r) => r.url === `${base}/crypto/quote/BTCUSD`);
    expect(call?.headers['x-api-key']).toBe(server.key);

    // The page loaded what it should from here, and nothing from any other host.
    const urls = requests.map((r) => r.url);
    for (const path of ['/docs', '/crypto/quote/BTCUSD']) expect(urls).toContain(base + path);
    expect(urls.filter((u) => u.includes('/docs/assets/swagger-ui-bundle.')).length).toBe(1);
    // The native routes' document, served with the page's assets (the dialects are in /openapi.json).
    expect(urls.filter((u) => u.includes('/docs/assets/openapi-native.')).length).toBe(1);
    const elsewhere = urls.filter((u) => !u.startsWith('data:') && new URL(u).origin !== base);
    expect(elsewhere).toEqual([]);
    expect(await watch.cspViolations()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 300_000);
});
