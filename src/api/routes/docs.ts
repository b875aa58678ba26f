// `GET /docs`: the interactive reference of the native routes of /openapi.json (Swagger UI from
// npm's swagger-ui-dist),
// served with its assets from inside the process — embedded in the compiled binary — so the page
// needs no internet. Open without a key (the gate's open paths); "Try it out" sends the key given in Authorize.
import { buildOpenApi } from '../openapi.ts';
import { NATIVE_ROUTES } from '../route-table/index.ts';
import { assetSet, CSS_TYPE, JS_TYPE, once, staticPageRoutes, type AssetSource, type StaticPage } from '../static-assets.ts';
// `type: 'file'` embeds each file in the executable as it is (`bun build --compile`), and gives its
// path: under `bun src/main.ts` the file in node_modules, in the binary a path inside the binary.
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import cssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };
import faviconPath from 'swagger-ui-dist/favicon-32x32.png' with { type: 'file' };

import { DOCS_ASSETS_PREFIX, DOCS_PATH } from './docs-paths.ts';

export { DOCS_ASSETS_PREFIX, DOCS_PATH };

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
// The page shows the native routes only: Swagger UI 5 stops rendering operations past about 130 of
// them (the vendor dialects would make 160), and the dialects are for the vendors' SDKs, documented
// in docs/compatibility.md; /openapi.json keeps every route.
const initJs = (specUrl: string) => `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${specUrl}',
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

async function loadPage(): Promise<StaticPage> {
  const text = (s: string) => new TextEncoder().encode(s);
  const spec: AssetSource = { name: 'openapi-native.json', type: 'application/json', body: text(JSON.stringify(buildOpenApi(NATIVE_ROUTES))) };
  const specUrl = assetSet(DOCS_ASSETS_PREFIX, [spec]).url(spec.name);
  const sources: AssetSource[] = [
    spec,
    { name: 'swagger-ui-bundle.js', type: JS_TYPE, body: await Bun.file(bundlePath).bytes() },
    { name: 'swagger-ui.css', type: CSS_TYPE, body: await Bun.file(cssPath).bytes() },
    { name: 'favicon-32x32.png', type: 'image/png', body: await Bun.file(faviconPath).bytes() },
    { name: 'docs-init.js', type: JS_TYPE, body: text(initJs(specUrl)) },
    { name: 'docs.css', type: CSS_TYPE, body: text(PAGE_CSS) },
  ];
  const assets = assetSet(DOCS_ASSETS_PREFIX, sources);
  const url = assets.url;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mds API reference</title>
<link rel="stylesheet" href="${url('swagger-ui.css')}">
<link rel="stylesheet" href="${url('docs.css')}">
<link rel="icon" type="image/png" href="${url('favicon-32x32.png')}" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${url('swagger-ui-bundle.js')}"></script>
<script src="${url('docs-init.js')}"></script>
</body>
</html>
`;
  return { html, assets };
}

// Read on the first request, not at start: a server whose /docs is never opened never reads them.
const docsPage = once(loadPage);

export function docsRoutes() {
  return staticPageRoutes({
    path: DOCS_PATH,
    assetsPrefix: DOCS_ASSETS_PREFIX,
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    load: docsPage,
    missingAsset: 'not found: no such docs asset (its name changes with each build); reload /docs',
  });
}
