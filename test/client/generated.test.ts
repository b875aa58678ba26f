// The client package stands alone: its route types are generated from the route table and kept up
// to date (regenerate with `npm run gen:client`), and its sources import nothing outside client/src.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_PATH, renderClientRoutes } from '../../scripts/gen-client.ts';
import { ROUTE_TABLE } from '../../src/api/route-table/index.ts';
import { CHANNELS as SERVER_CHANNELS } from '../../src/stream/protocol.ts';
import { CHANNELS, MdsClient, OPERATIONS } from '../../client/src/index.ts';

const CLIENT_SRC = join(import.meta.dir, '..', '..', 'client', 'src');

describe('client/src/generated.ts', () => {
  test('is what scripts/gen-client.ts writes from the route table today (run `npm run gen:client` after changing the table)', () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(renderClientRoutes());
  });

  test('has every route of the table under its operationId and path, and a method for each', () => {
    expect(Object.entries(OPERATIONS).map(([id, op]) => [id, op.path])).toEqual(ROUTE_TABLE.map((r) => [r.operationId, r.path]));
    const client = new MdsClient({ baseUrl: 'http://127.0.0.1:1' });
    const missing = ROUTE_TABLE.filter((r) => typeof (client as unknown as Record<string, unknown>)[r.operationId] !== 'function').map((r) => r.operationId);
    expect(missing).toEqual([]);
  });

  test('has the stream channels the server knows', () => {
    expect<readonly string[]>(CHANNELS).toEqual(SERVER_CHANNELS);
  });
});

describe('client/src', () => {
  test('imports only its own files: no package, nothing of the server', () => {
    const outside = readdirSync(CLIENT_SRC).flatMap((name) => {
      const text = readFileSync(join(CLIENT_SRC, name), 'utf8');
      const specs = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
      return specs.filter((s) => !/^\.\/[a-z-]+\.ts$/.test(s)).map((s) => `${name} → ${s}`);
    });
    expect(outside).toEqual([]);
  });
});
