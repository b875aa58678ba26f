// The hot routes must compile to synchronous handlers: Elysia reads handler and hook source, and a
// handler it takes for async makes every request await a promise (measurably slower quote path).
// This reads Elysia's compiled output, so an Elysia upgrade that changes it fails here, loudly.
import { describe, expect, test } from 'bun:test';
import { createBunRouteHandler } from 'elysia/adapter/bun/compose';
import { createApp } from '../../src/api/app.ts';
import type { ApiDeps } from '../../src/api/deps.ts';
import { ASSET_CLASSES } from '../../src/domain/asset-classes.ts';

interface CompiledRoute {
  path: string;
  method: string;
  composed: unknown;
}

const HOT = ['/quote/:symbol', '/trade/last/:symbol', '/snapshot/:symbol', '/agg/:symbol/:multiplier/:timespan/:from/:to', '/symbols'];

describe('hot routes compile to synchronous handlers', () => {
  // Compiling reads no dependency: a stand-in with the fields createApp touches is enough.
  const deps = { clock: { nowMs: () => 0 }, store: {}, auth: {} } as unknown as ApiDeps;
  const app = createApp(deps);
  app.compile();
  const routes = (app as unknown as { router: { history: CompiledRoute[] } }).router.history;

  test.each(ASSET_CLASSES.flatMap((cls) => HOT.map((path) => `/${cls}${path}`)))('%s', (path) => {
    const route = routes.find((r) => r.path === path && r.method === 'GET');
    expect(route).toBeDefined();
    expect(String(route!.composed).startsWith('async')).toBe(false);
    expect(String(createBunRouteHandler(app, route as never)).startsWith('async')).toBe(false);
  });
});
