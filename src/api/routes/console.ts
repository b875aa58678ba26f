// `GET /console`: the web console, a page whose one script (src/console/web, bundled by
// src/console/build.ts) talks to this server's REST routes and stream. Served with its assets from
// inside the process, open without a key like /docs; the console asks for a key itself.
import { consoleBundle, type BuiltFile } from '../../console/bundle.ts';
import { CONSOLE_ASSETS_PREFIX, CONSOLE_PATH } from '../../console/paths.ts';
import type { Logger } from '../../log.ts';
import { errorResponse } from '../http.ts';
import { assetSet, once, staticPageRoutes, type StaticPage } from '../static-assets.ts';

/**
 * The page loads and calls only this server. `connect-src 'self'` takes in the stream at
 * ws(s)://same-host/ (CSP 3; checked in Chromium by test/api/console-browser.test.ts).
 * Styles inline: chart libraries set style attributes. Images as data: and blob: URLs: the bundle
 * inlines small images, and a chart's snapshot is a canvas blob.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page that loads `files` (the bundle's), and the files as its assets. */
export function consolePageOf(files: readonly BuiltFile[]): StaticPage {
  // The script and its stylesheet get hashed names here; a file the script imports is named by URL
  // inside the script, under the name Bun gave it, which carries its hash already.
  const assets = assetSet(
    CONSOLE_ASSETS_PREFIX,
    files.map((f) => ({ name: f.name, type: f.type, body: f.bytes, keepName: f.role === 'file' })),
  );
  const tags = (role: BuiltFile['role'], tag: (url: string) => string) => files.filter((f) => f.role === role).map((f) => tag(assets.url(f.name)) + '\n').join('');
  // The empty data: icon spares the browser asking for /favicon.ico, which needs a key.
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>mds console</title>
<link rel="icon" href="data:,">
${tags('styles', (url) => `<link rel="stylesheet" href="${url}">`)}</head>
<body>
<noscript>The mds console needs JavaScript. The API reference is at /docs.</noscript>
<div id="app"></div>
${tags('script', (url) => `<script type="module" src="${url}"></script>`)}</body>
</html>
`;
  return { html, assets };
}

const loadPage = async () => consolePageOf(await consoleBundle());
// Built (or, in the binary, read) on the first request: a server whose console is never opened never builds it.
const consolePage = once(loadPage);

/** `load` is the built page; tests hand in one that fails. */
export function consoleRoutes(log: Logger, load: () => Promise<StaticPage> = consolePage) {
  return staticPageRoutes({
    path: CONSOLE_PATH,
    assetsPrefix: CONSOLE_ASSETS_PREFIX,
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    load,
    missingAsset: 'not found: no such console asset (its name changes with each build); reload /console',
    // Only under `bun src/main.ts`, where the page is built from the sources: say why, and keep serving the rest.
    loadFailed: (error, requestId) => {
      log.error(`console unavailable: ${error instanceof Error ? error.message : String(error)}`, { request_id: requestId });
      return errorResponse('INTERNAL', requestId, "internal error: the console's browser code did not build; the server log says why");
    },
  });
}
