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
