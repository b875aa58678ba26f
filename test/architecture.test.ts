// Dependencies point inward (design.md): cli, api, stream, ingest → store, market → domain; mcp → api's route table;
// metrics reads the counts of api, stream and store, and only cli wires it; cluster (NATS) sits beside
// the ingest path and stands on auth and store, and only cli starts it, so a single process has no
// NATS code on its path.
// Only src/store imports lmdb; domain imports nothing with I/O. src/console/web is browser code: it
// imports only itself, packages and the typed client, and the server's rules (logger, clock) are not its.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(import.meta.dir, '..', 'src');
/** Top-level names under src/: an import starting with one is a layer import, anything else a package. */
const SRC_ENTRIES = new Set(readdirSync(SRC));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Imports of a file: module specifiers, resolved to `src/<layer>/...` for relative ones. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  // Static imports, and dynamic ones with a literal specifier (modules loaded on first use obey the same layers).
  const specs = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm), ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm), ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
  return specs.map((spec) => (spec.startsWith('.') ? relative(SRC, join(file, '..', spec)) : spec));
}

const LAYER_MAY_IMPORT: Record<string, string[]> = {
  domain: ['domain'],
  store: ['domain', 'store'],
  market: ['domain', 'market'],
  ingest: ['domain', 'store', 'market', 'ingest', 'clock.ts', 'log.ts'],
  auth: ['domain', 'store', 'auth', 'clock.ts', 'log.ts'],
  // The console's page serves the files src/console builds, at the paths it names.
  api: ['domain', 'store', 'market', 'auth', 'api', 'clock.ts', 'log.ts', 'version.ts', 'console/bundle.ts', 'console/paths.ts'],
  stream: ['domain', 'store', 'market', 'auth', 'stream', 'clock.ts', 'log.ts', 'version.ts'],
  // The MCP server answers through REST (a caller it is given) and reads the route table.
  mcp: ['domain', 'api/route-table', 'mcp', 'version.ts'],
  // /metrics reads the counts the other layers keep; only cli wires it (nothing imports metrics).
  metrics: ['domain', 'store', 'api', 'stream', 'metrics', 'clock.ts'],
  // A cluster node's NATS side: replication feeds the ingest path (edge) or reads it (ingest); keys go
  // into the store, quota leases sit behind auth's QuotaBackend; it reads the role flags.
  cluster: ['domain', 'store', 'ingest', 'auth', 'cluster', 'clock.ts', 'log.ts', 'config.ts'],
  // The console's build and its browser code: nothing of the server (the client is outside src).
  console: ['console'],
  'console/web': ['console/web'],
};
/** Browser code, bundled for the console: the server's rules on logging and time are not for it. */
const isBrowserCode = (file: string) => relative(SRC, file).startsWith('console/web/');

describe('architecture', () => {
  const files = filesUnder(SRC);

  test.each(Object.keys(LAYER_MAY_IMPORT))('%s imports only from the layers it stands on', (layer) => {
    const offending = files
      .filter((f) => relative(SRC, f).startsWith(`${layer}/`))
      .flatMap((f) => importsOf(f).filter((i) => !i.includes('/') || !SRC_ENTRIES.has(i.split('/')[0]!) ? false : !LAYER_MAY_IMPORT[layer]!.some((ok) => i === ok || i.startsWith(`${ok}/`))).map((i) => `${relative(SRC, f)} → ${i}`));
    expect(offending).toEqual([]);
  });

  test('only src/cli imports src/metrics: the layers count, metrics reads them', () => {
    const users = files.filter((f) => !relative(SRC, f).startsWith('metrics/') && importsOf(f).some((i) => i.startsWith('metrics/'))).map((f) => relative(SRC, f));
    expect(users.filter((f) => !f.startsWith('cli/'))).toEqual([]);
  });

  test('only src/cli starts src/cluster: REST, stream and ingest know nothing of NATS', () => {
    const users = files.filter((f) => !relative(SRC, f).startsWith('cluster/') && importsOf(f).some((i) => i.startsWith('cluster/'))).map((f) => relative(SRC, f));
    expect(users.filter((f) => !f.startsWith('cli/'))).toEqual([]);
  });

  test('only src/cluster imports the NATS client', () => {
    const users = files.filter((f) => importsOf(f).some((i) => i.startsWith('@nats-io/'))).map((f) => relative(SRC, f));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((f) => !f.startsWith('cluster/'))).toEqual([]);
  });

  test('only src/store imports lmdb', () => {
    const users = files.filter((f) => importsOf(f).some((i) => i === 'lmdb')).map((f) => relative(SRC, f));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((f) => !f.startsWith('store/'))).toEqual([]);
  });

  test('nothing in src writes to the console but main.ts (its fatal error): everything else logs through the logger', () => {
    const writers = files.filter((f) => !isBrowserCode(f)).filter((f) => /\bconsole\.\w+\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(writers).toEqual([]);
  });

  test('domain imports nothing with I/O', () => {
    const io = files
      .filter((f) => relative(SRC, f).startsWith('domain/'))
      .flatMap((f) => importsOf(f).filter((i) => i.startsWith('node:') || ['lmdb', 'elysia', 'bun', 'msgpackr'].includes(i)).map((i) => `${relative(SRC, f)} → ${i}`));
    expect(io).toEqual([]);
  });

  test('only clock.ts reads the system time', () => {
    const readers = files.filter((f) => !isBrowserCode(f) && /Date\.now\(\)|new Date\(\)/.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(readers).toEqual(['clock.ts']);
  });

  // A cycle makes a module's top level run before what it imports is initialized, in an order that
  // depends on which file a process imported first: a test file entering the cycle elsewhere failed
  // with "Cannot access 'DOCS_PATH' before initialization". Type-only imports run nothing and are left out.
  test('no module imports itself through others (no import cycles at run time)', () => {
    const transpiler = new Bun.Transpiler({ loader: 'ts' });
    const runtimeImports = new Map(
      files.map((f) => {
        const text = readFileSync(f, 'utf8').replace(/^#!.*\n/, '');
        const specs = transpiler.scanImports(text).filter((i) => i.path.startsWith('.'));
        return [f, specs.map((i) => join(f, '..', i.path))];
      }),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const walk = (f: string, path: string[]) => {
      state.set(f, 'open');
      for (const next of runtimeImports.get(f) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].map((p) => relative(SRC, p)).join(' → '));
        else if (!state.has(next) && runtimeImports.has(next)) walk(next, [...path, next]);
      }
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) walk(f, [f]);
    expect(cycles).toEqual([]);
  });
});
