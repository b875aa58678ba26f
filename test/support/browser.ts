// Headless Chromium for tests, from Debian's `chromium` package (.ci/run installs it), driven by
// puppeteer-core: nothing downloads a browser. A missing browser fails the test with how to install it.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

/** MDS_CHROMIUM names another binary (a Chromium or Chrome build); Debian's package by default. */
export const CHROMIUM = process.env.MDS_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser extends AsyncDisposable {
  browser: Browser;
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
