// Headless Chromium for tests, from Debian's `chromium` package, driven by puppeteer-core: nothing
// downloads a browser. A missing package is installed with apt-get when the tests run as root (as
// here and in CI); otherwise the test fails saying how to install it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** MDS_CHROMIUM names another binary (a Chromium or Chrome build); Debian's package by default. */
export const CHROMIUM = process.env.MDS_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser extends AsyncDisposable {
  browser: Browser;
}

/** Installs Debian's `chromium` when it is missing and this is root with apt-get; call before the test's clock starts. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM) || process.env.MDS_CHROMIUM !== undefined) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !Bun.which('apt-get')) return;
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'chromium']]) {
    const res = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (res.status !== 0) return;
  }
}

export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium, as .ci/run does) or set MDS_CHROMIUM to a Chromium binary`);
  }
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      // Tests run as root here (CI included), where Chromium's sandbox cannot start.
      '--no-sandbox',
      '--disable-dev-shm-usage',
      // `mds.test` is this machine; every other name fails to resolve, so a stray load reaches no
      // network (the test still sees it as a request).
      '--host-resolver-rules=MAP mds.test 127.0.0.1, MAP * ~NOTFOUND',
    ],
  });
  return { browser, [Symbol.asyncDispose]: () => browser.close() };
}

/** The page's globals the violation listener uses (the project's TypeScript has no DOM library). */
interface ViolationGlobals {
  document: { addEventListener(type: 'securitypolicyviolation', listener: (e: { violatedDirective: string; blockedURI: string }) => void): void };
  cspViolations: string[];
}

export interface PageWatch {
  /** Every request the page made, in order. */
  requests: { url: string; headers: Record<string, string> }[];
  /** Uncaught errors of the page's scripts. */
  errors: string[];
  /** Loads the page's policy refused (they never show as requests): `directive blocked-uri`. */
  cspViolations(): Promise<string[]>;
}

/** Watches a page from its next navigation on: its requests, script errors and policy refusals. */
export async function watchPage(page: Page): Promise<PageWatch> {
  const requests: PageWatch['requests'] = [];
  page.on('request', (r) => void requests.push({ url: r.url(), headers: r.headers() }));
  const errors: string[] = [];
  page.on('pageerror', (e) => void errors.push(String(e)));
  await page.evaluateOnNewDocument(() => {
    const page = globalThis as unknown as ViolationGlobals;
    const seen: string[] = (page.cspViolations = []);
    page.document.addEventListener('securitypolicyviolation', (e) => void seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { requests, errors, cspViolations: () => page.evaluate(() => (globalThis as unknown as ViolationGlobals).cspViolations) };
}

/** What pictureStats runs in the page uses of its globals (the project's TypeScript has no DOM library). */
interface CanvasGlobals {
  document: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d'): { drawImage(image: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
    };
  };
  Image: new () => { src: string; naturalWidth: number; naturalHeight: number; decode(): Promise<void> };
}

/** Decodes a PNG in a blank page's canvas: its size, how many colours, and the share of pixels unlike the corner. */
export async function pictureStats(browser: Browser, png: Uint8Array): Promise<{ width: number; height: number; colours: number; inked: number }> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (b64: string) => {
      const { document, Image } = globalThis as unknown as CanvasGlobals;
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      if (ctx === null) throw new Error('no 2d canvas');
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const colours = new Set<number>();
      let inked = 0;
      for (let i = 0; i < data.length; i += 4) {
        const rgb = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
        colours.add(rgb);
        if (rgb !== ((data[0]! << 16) | (data[1]! << 8) | data[2]!)) inked++;
      }
      return { width: canvas.width, height: canvas.height, colours: colours.size, inked: inked / (data.length / 4) };
    }, Buffer.from(png).toString('base64'));
  } finally {
    await page.close();
  }
}
