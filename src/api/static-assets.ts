// Pages the process serves itself (/docs, /console): one HTML page, never cached, and its scripts,
// styles and images under `<page>/assets/` with a hash of their content in the name, so a browser
// keeps them for good and a new build is fetched under new names. Text assets are gzipped once.
import { Elysia } from 'elysia';
import { errorResponse } from './http.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
export const JS_TYPE = 'text/javascript; charset=utf-8';
export const CSS_TYPE = 'text/css; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

export interface Asset {
  type: string;
  body: Uint8Array;
  /** The body gzipped, for clients that accept it (Swagger UI's bundle shrinks from 1.7 MB to 0.5 MB); null for images that are compressed already. */
  gzipped: Uint8Array | null;
}

export interface AssetSource {
  name: string;
  type: string;
  body: Uint8Array<ArrayBuffer>;
  /** Served under `name` as it is: its name carries a content hash already (a file the browser bundle refers to by that name). */
  keepName?: boolean;
}

/** A page's assets by the name they are served under, and the URL of each by its source name. */
export interface AssetSet {
  byName: Map<string, Asset>;
  /** The URL of the asset made from source `name`; throws for a name not among the sources. */
  url(name: string): string;
}

export interface StaticPage {
  html: string;
  assets: AssetSet;
}

/** The file name an asset is served under: `swagger-ui-bundle.js` → `swagger-ui-bundle.<hash>.js`. */
function hashedName(name: string, body: Uint8Array): string {
  const dot = name.lastIndexOf('.');
  const hash = Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12);
  return `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}

/** Worth gzipping: text, scripts, JSON, SVG; not images and fonts, which come compressed. */
const isCompressible = (type: string) => /^text\/|javascript|json|\+xml/.test(type);

export function assetSet(prefix: string, sources: readonly AssetSource[]): AssetSet {
  const byName = new Map<string, Asset>();
  const urlOf = new Map<string, string>();
  for (const { name, type, body, keepName } of sources) {
    const served = keepName ? name : hashedName(name, body);
    byName.set(served, { type, body, gzipped: isCompressible(type) ? Bun.gzipSync(body, { level: 9 }) : null });
    urlOf.set(name, prefix + served);
  }
  const url = (name: string) => {
    const found = urlOf.get(name);
    if (found === undefined) throw new Error(`no asset ${name} under ${prefix}`);
    return found;
  };
  return { byName, url };
}

/** `load` run on the first call only, its promise (resolved or rejected) kept for every later one. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

export interface StaticPageRoutes {
  /** The page's path; the router answers it with a trailing slash too. */
  path: string;
  /** Where its assets are: `${path}/assets/`. */
  assetsPrefix: string;
  contentSecurityPolicy: string;
  /** The page and its assets; called on each request, so it should be `once(...)`. */
  load: () => Promise<StaticPage>;
  /** The 404's message for an asset name this build does not have. */
  missingAsset: string;
  /** The answer when `load` fails; by default the error goes to the app's handler (logged, a 500). */
  loadFailed?: (error: unknown, requestId: string) => Response;
}

const acceptsGzip = (request: Request) => /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');

/** GET of the page and of its assets, open or keyed as the gate says. */
export function staticPageRoutes(opts: StaticPageRoutes) {
  const { path, assetsPrefix, contentSecurityPolicy, load, missingAsset, loadFailed } = opts;
  const pageOf = async (requestId: string): Promise<StaticPage | Response> => {
    if (loadFailed === undefined) return load();
    try {
      return await load();
    } catch (error) {
      return loadFailed(error, requestId);
    }
  };
  const requestIdOf = (set: { headers: Record<string, unknown> }) => String(set.headers['x-request-id'] ?? '');
  return new Elysia()
    .get(path, async ({ set }) => {
      const page = await pageOf(requestIdOf(set));
      if (page instanceof Response) return page;
      return new Response(page.html, {
        headers: { 'content-type': HTML_TYPE, 'cache-control': 'no-cache', 'content-security-policy': contentSecurityPolicy, 'x-content-type-options': 'nosniff' },
      });
    })
    .get(`${assetsPrefix}:file`, async ({ params, request, set }) => {
      const page = await pageOf(requestIdOf(set));
      if (page instanceof Response) return page;
      // The prefix is a plain string here, so Elysia cannot type the parameter from the path.
      const asset = page.assets.byName.get((params as { file: string }).file);
      if (asset === undefined) return errorResponse('NOT_FOUND', requestIdOf(set), missingAsset);
      const headers: Record<string, string> = { 'content-type': asset.type, 'cache-control': IMMUTABLE, vary: 'accept-encoding', 'x-content-type-options': 'nosniff' };
      if (asset.gzipped === null || !acceptsGzip(request)) return new Response(asset.body, { headers });
      headers['content-encoding'] = 'gzip';
      return new Response(asset.gzipped, { headers });
    });
}
