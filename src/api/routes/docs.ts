// `GET /docs`: the interactive reference of /openapi.json (Swagger UI from npm's swagger-ui-dist),
// served with its assets from inside the process — embedded in the compiled binary — so the page
// needs no internet. Open without a key (the gate's open paths); "Try it out" sends the key given in Authorize.
import { Elysia } from 'elysia';
import { errorResponse } from '../http.ts';
// `type: 'file'` embeds each file in the executable as it is (`bun build --compile`), and gives its
// path: under `bun src/main.ts` the file in node_modules, in the binary a path inside the binary.
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import cssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };
import faviconPath from 'swagger-ui-dist/favicon-32x32.png' with { type: 'file' };

export const DOCS_PATH = '/docs';
/** Asset URLs carry a hash of their content, so they can be cached for good. */
export const DOCS_ASSETS_PREFIX = '/docs/assets/';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const JS_TYPE = 'text/javascript; charset=utf-8';
const CSS_TYPE = 'text/css; charset=utf-8';

/**
 * The page may load and call only this server: Swagger UI itself makes no other request with the
 * settings below, and the policy makes a browser refuse one should a later version try.
 * Styles inline: Swagger UI sets style attributes. Images as data: URLs: its CSS draws icons so.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// Our starter, served as a file (not inline) so the policy can forbid inline scripts.
// validatorUrl null: a layout showing the validator badge would load it from an online validator
// (BaseLayout shows none; off all the same).
// The spec's URL is fixed here: Swagger UI's own `?url=` reading (queryConfigEnabled) stays off.
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE_CSS = 'html { box-sizing: border-box; overflow-y: scroll; } *, *:before, *:after { box-sizing: inherit; } body { margin: 0; background: #fafafa; }\n';

interface Asset {
  type: string;
  body: Uint8Array;
  /** The body gzipped, for clients that accept it (the bundle shrinks from 1.7 MB to 0.5 MB); null for the PNG. */
  gzipped: Uint8Array | null;
}

interface DocsAssets {
  page: string;
  byName: Map<string, Asset>;
}

/** The file name an asset is served under: `swagger-ui-bundle.js` → `swagger-ui-bundle.<hash>.js`. */
function hashedName(name: string, body: Uint8Array): string {
  const dot = name.lastIndexOf('.');
  const hash = Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12);
  return `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}

async function loadAssets(): Promise<DocsAssets> {
  const text = (s: string) => new TextEncoder().encode(s);
  const sources: [key: string, name: string, type: string, body: Uint8Array<ArrayBuffer>][] = [
    ['bundle', 'swagger-ui-bundle.js', JS_TYPE, await Bun.file(bundlePath).bytes()],
    ['css', 'swagger-ui.css', CSS_TYPE, await Bun.file(cssPath).bytes()],
    ['favicon', 'favicon-32x32.png', 'image/png', await Bun.file(faviconPath).bytes()],
    ['init', 'docs-init.js', JS_TYPE, text(INIT_JS)],
    ['pageCss', 'docs.css', CSS_TYPE, text(PAGE_CSS)],
  ];
  const byName = new Map<string, Asset>();
  const url: Record<string, string> = {};
  for (const [key, name, type, body] of sources) {
    const served = hashedName(name, body);
    byName.set(served, { type, body, gzipped: type.startsWith('text/') ? Bun.gzipSync(body, { level: 9 }) : null });
    url[key] = DOCS_ASSETS_PREFIX + served;
  }
  const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mds API reference</title>
<link rel="stylesheet" href="${url.css}">
<link rel="stylesheet" href="${url.pageCss}">
<link rel="icon" type="image/png" href="${url.favicon}" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${url.bundle}"></script>
<script src="${url.init}"></script>
</body>
</html>
`;
  return { page, byName };
}

// Read on the first request, not at start: a server whose /docs is never opened never reads them.
let assets: Promise<DocsAssets> | undefined;
const docsAssets = () => (assets ??= loadAssets());

const acceptsGzip = (request: Request) => /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');

export function docsRoutes() {
  return new Elysia()
    .get(DOCS_PATH, async () => {
      const { page } = await docsAssets();
      return new Response(page, {
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' },
      });
    })
    .get(`${DOCS_ASSETS_PREFIX}:file`, async ({ params, request, set }) => {
      const asset = (await docsAssets()).byName.get(params.file);
      if (asset === undefined) return errorResponse('NOT_FOUND', String(set.headers['x-request-id'] ?? ''), 'not found: no such docs asset (its name changes with each build); reload /docs');
      const headers: Record<string, string> = { 'content-type': asset.type, 'cache-control': IMMUTABLE, vary: 'accept-encoding', 'x-content-type-options': 'nosniff' };
      if (asset.gzipped === null || !acceptsGzip(request)) return new Response(asset.body, { headers });
      headers['content-encoding'] = 'gzip';
      return new Response(asset.gzipped, { headers });
    });
}
