// The console as a user meets it: a real mds (the simulator plus two more feeds, one of them
// failing), headless Chromium opens /console, enters the key, and sees every feed, all 38 stock
// markets and the class markets with the status REST gives, a watchlist price move, candles for
// BTCUSD and US:AAPL (the second added from the keyboard), a free key's plan and quota, and a bad
// key's refusal. Nothing is loaded from any host but mds, and the page logs no error.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { ensureChromium, launchChromium, pictureStats, watchPage, type PageWatch, type TestBrowser } from '../support/browser.ts';
import { createKeyOn, until } from '../support/cli.ts';
import { FakeFeed } from '../support/fake-feed.ts';
import { startServer, type TestServer } from '../support/server.ts';

/** A laptop screen. */
const VIEWPORT = { width: 1366, height: 768 };

/** What the functions run in the page use of its globals (the project's TypeScript has no DOM library). */
interface El {
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  querySelectorAll(selector: string): ArrayLike<El>;
  getContext?(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
  width?: number;
  height?: number;
}
interface PageGlobals {
  document: { querySelector(selector: string): El | null; querySelectorAll(selector: string): ArrayLike<El>; documentElement: { scrollWidth: number }; body: El };
  innerWidth: number;
  getComputedStyle(el: El): { backgroundColor: string };
}

interface Watch {
  page: Page;
  watch: PageWatch;
  /** Script errors and what the page logged as an error (the browser logs failed loads so). */
  errors: string[];
}

/** A laptop-sized page that records its requests, errors, console errors and refused loads. */
async function openPage(browser: Browser, context?: Awaited<ReturnType<Browser['createBrowserContext']>>): Promise<Watch> {
  const page = await (context ?? browser).newPage();
  await page.setViewport(VIEWPORT);
  const watch = await watchPage(page);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { page, watch, errors };
}

async function enterKey(page: Page, key: string): Promise<void> {
  await page.waitForSelector('#key-input');
  await page.type('#key-input', key);
  await page.keyboard.press('Enter');
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

/** Pixels of the chart's canvases in the candle colours (up or down): proof that candles were drawn. */
async function candlePixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = (globalThis as unknown as PageGlobals);
    let count = 0;
    const canvases = w.document.querySelectorAll('#chart canvas');
    for (let i = 0; i < canvases.length; i++) {
      const c = canvases[i]!;
      const ctx = c.getContext?.('2d');
      if (!ctx || !c.width || !c.height) continue;
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      for (let p = 0; p < data.length; p += 4) {
        const [r, gg, b] = [data[p]!, data[p + 1]!, data[p + 2]!];
        // The light theme's up (#12805c) and down (#c8322f), within anti-aliasing.
        const near = (R: number, G: number, B: number) => Math.abs(r - R) + Math.abs(gg - G) + Math.abs(b - B) < 30;
        if (near(0x12, 0x80, 0x5c) || near(0xc8, 0x32, 0x2f)) count++;
      }
    }
    return count;
  });
}

async function chartReady(page: Page, symbol: string, timeframe: string): Promise<number> {
  await page.waitForSelector(`#chart[data-state="ready"][data-symbol="${symbol}"][data-timeframe="${timeframe}"]`, { timeout: 60_000 });
  return Number(await page.$eval('#chart', (el) => (el as unknown as El).dataset.bars));
}

describe('/console in Chromium', () => {
  let server: TestServer;
  let chromium: TestBrowser;
  let base: string;
  // ZZZUSD is this venue's alone (the simulator does not quote it): the stale-row test kills it.
  const venue = new FakeFeed('venue-a', [
    { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' },
    { assetClass: 'crypto', symbol: 'ZZZUSD', venueSymbol: 'ZZZ-USD', name: 'Zed test coin', decimals: 2 },
  ]);
  const broken = new FakeFeed('venue-b', [{ assetClass: 'crypto', symbol: 'ETHUSD', venueSymbol: 'ETH-USD' }], { failStart: 'throw' });

  beforeAll(async () => {
    ensureChromium();
    server = await startServer({ feeds: [venue, broken] });
    chromium = await launchChromium();
    // Not localhost: the page must work as it does for a deployed server (support/browser.ts maps
    // this name to 127.0.0.1 and resolves no other).
    base = `http://mds.test:${server.port}`;
  }, 600_000);

  afterAll(async () => {
    await chromium?.[Symbol.asyncDispose]();
    await server?.[Symbol.asyncDispose]();
  });

  test('shows feeds, markets, a live watchlist and charts, with nothing from elsewhere', async () => {
    const { page, watch, errors } = await openPage(chromium.browser);
    const res = await page.goto(`${base}/console`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await enterKey(page, server.key);

    // Key panel: the development key's plan, unmetered.
    await page.waitForFunction(() => ((globalThis as unknown as PageGlobals).document.querySelector('#key-plan')?.textContent ?? '').includes('development'));
    expect(await text(page, '#key-quota')).toContain('unmetered');

    // Feeds: every feed /health lists, each with its state.
    const health = (await server.json<{ feeds: { id: string; state: string }[] }>('/health')).body;
    expect(health.feeds.map((f) => f.id).sort()).toEqual(['sim', 'venue-a', 'venue-b']);
    for (const f of health.feeds) {
      await page.waitForSelector(`#feeds tr[data-feed="${f.id}"] .pill[data-state="${f.state}"]`);
      expect(await text(page, `#feeds tr[data-feed="${f.id}"] .pill`)).toBe(f.state);
    }

    // Market clock: every market of /markets, 38 of them stock markets, each with REST's status.
    const { body: list } = await server.json<{ markets: { market: string; type: string }[] }>('/markets');
    expect(list.markets.filter((m) => m.type === 'stocks').length).toBe(38);
    await page.waitForFunction((n: number) => (globalThis as unknown as PageGlobals).document.querySelectorAll('#markets tr[data-market] .pill[data-status]').length === n, {}, list.markets.length);
    const { body: status } = await server.json<{ markets: { market: string; status: string }[] }>('/markets/status');
    const shown = await page.$$eval('#markets tr[data-market]', (rows) => rows.map((r) => [(r as unknown as El).dataset.market!, (r as unknown as El).querySelectorAll('.pill')[0]!.dataset.status!] as const));
    expect(new Map(shown)).toEqual(new Map(status.markets.map((m) => [m.market, m.status] as const)));
    expect(shown.length).toBe(list.markets.length);
    expect(await text(page, '#markets tr[data-market="US"] .pill')).toBe('open'); // 10:30 in New York
    expect(await text(page, '#markets tr[data-market="US"] td.next')).toMatch(/^closes in \d+h \d\dm$/);

    // Watchlist: BTCUSD's bid moves within seconds, from the stream.
    const bidCell = '#watchlist tr[data-symbol="BTCUSD"] td:nth-of-type(1)';
    await page.waitForFunction((sel: string) => /\d/.test((globalThis as unknown as PageGlobals).document.querySelector(sel)?.textContent ?? ''), {}, bidCell);
    const firstBid = await text(page, bidCell);
    await page.waitForFunction((sel: string, before: string) => ((globalThis as unknown as PageGlobals).document.querySelector(sel)?.textContent ?? before) !== before, { timeout: 60_000 }, bidCell, firstBid);
    expect(await text(page, '#stream-state')).toContain('live');

    // Chart: the first watchlist row (BTCUSD), in 1-minute candles.
    expect(await chartReady(page, 'BTCUSD', '1m')).toBeGreaterThan(100);
    expect(await candlePixels(page)).toBeGreaterThan(500);
    // The raw/adjusted switch is for stocks only.
    expect(await page.$eval('#chart-adjustment', (el) => (el as unknown as { hidden: boolean }).hidden)).toBe(true);

    // The README's picture: the page as a user first sees it.
    const png = await page.screenshot({ type: 'png' });
    const out = process.env.MDS_CONSOLE_SCREENSHOT ?? join(mkdtempSync(join(tmpdir(), 'mds-console-')), 'console.png');
    writeFileSync(out, png);
    const stats = await pictureStats(chromium.browser, png);
    expect({ width: stats.width, height: stats.height }).toEqual(VIEWPORT);
    expect(stats.colours).toBeGreaterThan(100);
    if (process.env.MDS_CONSOLE_SCREENSHOT === undefined) rmSync(dirname(out), { recursive: true, force: true });

    // US:AAPL from the keyboard: '/' to search, type, Enter adds it and charts it.
    await page.keyboard.press('/');
    await page.keyboard.type('AAPL');
    await page.waitForSelector('#search-results li[data-symbol="US:AAPL"][aria-selected="true"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#watchlist tr[data-symbol="US:AAPL"]');
    expect(await chartReady(page, 'US:AAPL', '1m')).toBeGreaterThan(100);
    expect(await candlePixels(page)).toBeGreaterThan(500);
    // Another timeframe.
    await page.click('button[data-tf="1h"]');
    expect(await chartReady(page, 'US:AAPL', '1h')).toBeGreaterThan(5);
    // Adjusted: the bars are asked again with adjustment=all, and the chart says so.
    const hourAdjustments = () => watch.requests.filter((r) => r.url.includes('/stocks/agg/US:AAPL/1/hour/')).map((r) => new URL(r.url).searchParams.get('adjustment'));
    expect(hourAdjustments()).toEqual([null]);
    await page.click('#chart-adjustment button[data-adjustment="all"]');
    await page.waitForSelector('#chart[data-state="ready"][data-symbol="US:AAPL"][data-adjustment="all"]', { timeout: 60_000 });
    expect(hourAdjustments()).toEqual([null, 'all']);
    expect(await text(page, '#chart-status')).toContain('adjusted for splits and dividends (version ');
    // An alias resolves to its canonical symbol.
    await page.keyboard.press('/');
    await page.keyboard.type('CL1');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#watchlist tr[data-symbol="WTIUSD"]');

    // Fits a laptop screen: no sideways scrolling.
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth <= (globalThis as unknown as PageGlobals).innerWidth)).toBe(true);

    // Dark mode: the system's choice is followed.
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    const bg = await page.evaluate(() => (globalThis as unknown as PageGlobals).getComputedStyle((globalThis as unknown as PageGlobals).document.body).backgroundColor);
    const [r, gg, b] = (bg.match(/\d+/g) ?? []).map(Number);
    expect(r! + gg! + b!).toBeLessThan(120);

    const urls = watch.requests.map((r) => r.url);
    const elsewhere = urls.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== base);
    expect(elsewhere).toEqual([]);
    expect(urls.some((u) => u.startsWith(`${base}/console/assets/main.`))).toBe(true);
    // REST calls carry the key in the header, never in the URL (the stream URL is no fetch).
    expect(watch.requests.filter((r) => r.url.includes('/crypto/snapshot/')).every((r) => r.headers['x-api-key'] === server.key && !r.url.includes('apiKey'))).toBe(true);
    expect(await watch.cspViolations()).toEqual([]);
    expect([...watch.errors, ...errors]).toEqual([]);
    await page.close();
  }, 240_000);

  test('a free key sees its plan and quota, and only its classes', async () => {
    const free = await createKeyOn(server, '--plan', 'free');
    const context = await chromium.browser.createBrowserContext();
    const { page, watch, errors } = await openPage(chromium.browser, context);
    await page.goto(`${base}/console`, { waitUntil: 'load' });
    await enterKey(page, free.key);
    await page.waitForFunction(() => ((globalThis as unknown as PageGlobals).document.querySelector('#key-plan')?.textContent ?? '').includes('free'));
    await page.waitForFunction(() => / \/ 3,000 used, /.test((globalThis as unknown as PageGlobals).document.querySelector('#key-quota')?.textContent ?? ''));
    await page.waitForSelector('#watchlist tr[data-symbol="BTCUSD"]');
    await page.waitForSelector('#markets tr[data-market] .pill[data-status]');
    // The defaults the plan allows: no index, ETF or commodity row.
    const classes = await page.$$eval('#watchlist tr[data-class]', (rows) => [...new Set(rows.map((r) => (r as unknown as El).dataset.class!))].sort());
    expect(classes).toEqual(['crypto', 'forex', 'stocks']);
    // The calls it made were counted against the key, and the panel says so.
    const used = Number((await text(page, '#key-quota')).match(/quota ([\d,]+) \//)![1]!.replace(/,/g, ''));
    expect(used).toBeGreaterThan(0);
    expect([...watch.errors, ...errors]).toEqual([]);
    await context.close();
  }, 60_000);

  test('the stream reconnects by itself when the server comes back, and the board moves again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mds-console-restart-'));
    let own = await startServer({ dataDir });
    const port = own.port;
    try {
      const context = await chromium.browser.createBrowserContext();
      const { page, watch } = await openPage(chromium.browser, context);
      await page.goto(`http://mds.test:${port}/console`, { waitUntil: 'load' });
      await enterKey(page, own.key);
      await page.waitForSelector('#stream-state[data-state="live"]');
      await chartReady(page, 'BTCUSD', '1m');

      await own.stop();
      await page.waitForSelector('#stream-state[data-state="waiting"]', { timeout: 60_000 });
      own = await startServer({ dataDir, args: ['--port', String(port)] });
      await page.waitForFunction(() => /reconnected/.test((globalThis as unknown as PageGlobals).document.querySelector('#stream-state')?.textContent ?? ''), { timeout: 60_000 });
      // Prices move again, and the chart read its bars again.
      const bidCell = '#watchlist tr[data-symbol="BTCUSD"] td:nth-of-type(1)';
      const before = await text(page, bidCell);
      await page.waitForFunction((sel: string, b: string) => ((globalThis as unknown as PageGlobals).document.querySelector(sel)?.textContent ?? b) !== b, { timeout: 60_000 }, bidCell, before);
      const rangeCalls = () => watch.requests.filter((r) => r.url.includes('/crypto/agg/BTCUSD/1/minute/')).length;
      await until(async () => rangeCalls() >= 2, 'the chart to read its bars again');
      expect(rangeCalls()).toBe(2);
      await chartReady(page, 'BTCUSD', '1m');
      expect(watch.errors).toEqual([]);
      await context.close();
    } finally {
      await own[Symbol.asyncDispose]();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);

  test('a row whose line loses its last live source looks stale, live again when it quotes, and stale on a fresh page', async () => {
    // The server's clock (a shifted one): the newest simulated quote's time.
    const serverNow = async () => (await server.json<{ timestamp: number }>('/crypto/quote/BTCUSD')).body.timestamp;
    venue.quote('ZZZUSD', await serverNow(), 10, 10.02);
    const context = await chromium.browser.createBrowserContext();
    const { page, watch, errors } = await openPage(chromium.browser, context);
    await page.goto(`${base}/console`, { waitUntil: 'load' });
    await enterKey(page, server.key);
    await page.waitForSelector('#watchlist tr[data-symbol="BTCUSD"]');
    await page.keyboard.press('/');
    await page.keyboard.type('ZZZUSD');
    await page.waitForSelector('#search-results li[data-symbol="ZZZUSD"][aria-selected="true"]');
    await page.keyboard.press('Enter');
    const row = '#watchlist tr[data-symbol="ZZZUSD"]';
    await page.waitForSelector(`${row}[data-stale="false"]`);
    const liveBid = await text(page, `${row} td:nth-of-type(1)`);
    expect(liveBid).toMatch(/^10\.0+$/);
    const look = (sel: string) => page.$eval(sel, (el) => {
      const w = globalThis as unknown as { getComputedStyle(e: unknown): { color: string; textDecorationLine: string } };
      const style = w.getComputedStyle(el);
      return { color: style.color, line: style.textDecorationLine };
    });
    const liveLook = await look(`${row} td:nth-of-type(1)`);
    expect(liveLook.line).toBe('none');

    // The venue's line dies: the row turns stale from the stream's status frame, its last values kept.
    venue.stale('ZZZUSD');
    await page.waitForSelector(`${row}.stale[data-stale="true"]`);
    expect(await text(page, `${row} td:nth-of-type(5)`)).toBe('stale');
    expect(await text(page, `${row} td:nth-of-type(1)`)).toBe(liveBid);
    const staleLook = await look(`${row} td:nth-of-type(1)`);
    expect(staleLook.line).toBe('line-through');
    expect(staleLook.color).not.toBe(liveLook.color);
    expect(await page.$eval(row, (el) => (el as unknown as { getAttribute(n: string): string }).getAttribute('aria-label'))).toContain('stale: no live source');
    // Other rows stay live.
    expect(await page.$(`#watchlist tr[data-symbol="BTCUSD"].stale`)).toBeNull();

    // It quotes again: live again.
    venue.quote('ZZZUSD', await serverNow(), 10.01, 10.03);
    await page.waitForSelector(`${row}[data-stale="false"]:not(.stale)`);
    expect((await look(`${row} td:nth-of-type(1)`)).line).toBe('none');

    // Stale again, then a fresh page (the saved watchlist): the row starts stale from REST's snapshot.
    venue.stale('ZZZUSD');
    await page.waitForSelector(`${row}.stale`);
    const fresh = await openPage(chromium.browser, context);
    await fresh.page.goto(`${base}/console`, { waitUntil: 'load' });
    await enterKey(fresh.page, server.key);
    await fresh.page.waitForSelector(`${row}.stale[data-stale="true"]`);
    expect(await text(fresh.page, `${row} td:nth-of-type(5)`)).toBe('stale');
    expect([...watch.errors, ...errors, ...fresh.watch.errors, ...fresh.errors]).toEqual([]);
    await context.close();
  }, 90_000);

  test('a bad key gets a clear message and the form again', async () => {
    const context = await chromium.browser.createBrowserContext();
    const { page, watch, errors } = await openPage(chromium.browser, context);
    await page.goto(`${base}/console`, { waitUntil: 'load' });
    await enterKey(page, 'not-a-key-0000');
    await page.waitForSelector('#key-error');
    expect(await text(page, '#key-error')).toBe('The server refused this key: invalid API key');
    expect(await page.$('#key-input')).not.toBeNull();
    // The refused calls are the page's only failed loads (the browser logs a failed load as an error).
    expect([...watch.errors, ...errors.filter((e) => !/401 \(Unauthorized\)/.test(e))]).toEqual([]);
    await context.close();
  }, 60_000);
});
