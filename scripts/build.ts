// Builds dist/mds: one executable (Bun runtime + bundled code + lmdb's and msgpackr's native
// addons + the console's browser files, built first) for the platform that runs the build, with the
// git commit stamped in for `mds --version`.
// Usage: bun scripts/build.ts [--outfile PATH]   (env MDS_BUILD_COMMIT overrides the commit)
import { rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { BunPlugin } from 'bun';
import { buildConsoleFiles, prebuiltBundleModule, type BuiltFile } from '../src/console/build.ts';

const ROOT = resolve(import.meta.dir, '..');
const ENTRY = join(ROOT, 'src/main.ts');
/** Worker entry points: a compiled executable holds only what the build lists (see Bun's executables docs). */
const WORKERS = [join(ROOT, 'src/ingest/adapters/venue-worker.ts')];

interface NativeAddon {
  /** The package whose addon is loaded through node-gyp-build-optional-packages. */
  pkg: string;
  /** The file (inside that package) that calls the loader. */
  loaderFile: RegExp;
  /** Rewrites the loader file's source to require `addonPath` statically; undefined if it no longer fits. */
  rewrite(source: string, addonPath: string): string | undefined;
}

// The loaders pick a .node file at run time by scanning node_modules, which does not exist inside the
// executable. Bun embeds a .node file that is `require`d by a literal path, so each loader call is
// replaced by such a require of the file the same loader picks here, at build time, under Bun.
const ADDONS: NativeAddon[] = [
  {
    pkg: 'lmdb',
    loaderFile: /[\\/]node_modules[\\/]lmdb[\\/]native\.js$/,
    rewrite: (source, addonPath) => {
      const call = 'loadNAPI(dirName)';
      if (source.split(call).length !== 2) return undefined;
      return source.replace(call, `require(${JSON.stringify(addonPath)})`);
    },
  },
  {
    // Optional in msgpackr (faster string decoding); embedded so the binary decodes like `bun src/main.ts`.
    pkg: 'msgpackr-extract',
    loaderFile: /[\\/]node_modules[\\/]msgpackr-extract[\\/]index\.js$/,
    rewrite: (source, addonPath) => {
      if (!source.includes("require('node-gyp-build-optional-packages')(__dirname)")) return undefined;
      return `module.exports = require(${JSON.stringify(addonPath)});\n`;
    },
  },
];

/** The .node file the package's own loader would load in this process (Bun: the N-API build for this libc). */
function resolveAddon(pkgDir: string): string {
  const loader = createRequire(join(pkgDir, 'package.json'))('node-gyp-build-optional-packages') as { resolve(dir: string): string };
  return loader.resolve(pkgDir);
}

function nativeAddonsPlugin(embedded: Map<string, string>): BunPlugin {
  return {
    name: 'mds-embed-native-addons',
    setup(build) {
      for (const addon of ADDONS) {
        build.onLoad({ filter: addon.loaderFile }, async ({ path }) => {
          // Both loader files sit at their package's root, as the loader's `dirName`/`__dirname` argument says.
          const addonPath = resolveAddon(dirname(path));
          const source = await Bun.file(path).text();
          const contents = addon.rewrite(source, addonPath);
          if (contents === undefined) throw new Error(`${relative(ROOT, path)} no longer has the loader call this build rewrites; update scripts/build.ts`);
          embedded.set(addon.pkg, addonPath);
          return { contents, loader: 'js' };
        });
      }
    },
  };
}

/** The module that builds the console's browser files at run time (under `bun src/main.ts`). */
const CONSOLE_BUNDLE_MODULE = join(ROOT, 'src/console/bundle.ts');

/**
 * Puts in its place a module holding the files built here, with the same options: the binary serves
 * /console without the sources and without building. `embedded` records that the module was met.
 */
function consoleBundlePlugin(files: readonly BuiltFile[], embedded: Map<string, string>): BunPlugin {
  return {
    name: 'mds-embed-console-bundle',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]console[\\/]bundle\.ts$/ }, ({ path }) => {
        if (resolve(path) !== CONSOLE_BUNDLE_MODULE) return undefined;
        embedded.set('console', path);
        return { contents: prebuiltBundleModule(files), loader: 'js' };
      });
    },
  };
}

async function buildCommit(): Promise<string> {
  const fromEnv = process.env.MDS_BUILD_COMMIT?.trim();
  if (fromEnv) return fromEnv;
  try {
    const proc = Bun.spawn(['git', 'rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return code === 0 && out.trim() !== '' ? out.trim() : 'unknown';
  } catch {
    return 'unknown'; // no git on this machine
  }
}

function parseOutfile(argv: string[]): string {
  const i = argv.indexOf('--outfile');
  if (i === -1) return join(ROOT, 'dist/mds');
  const value = argv[i + 1];
  if (value === undefined) throw new Error('--outfile needs a path');
  return resolve(value);
}

/** The path relative to the working directory when it lies inside it, else absolute. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
}

async function main(): Promise<number> {
  const outfile = parseOutfile(process.argv.slice(2));
  const commit = await buildCommit();
  const target = `${process.platform}-${process.arch}`;
  console.log(`building ${shown(outfile)} for ${target} (commit ${commit}) with Bun ${Bun.version}`);

  const started = performance.now();
  const consoleFiles = await buildConsoleFiles().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    return null;
  });
  if (consoleFiles === null) {
    console.error('build failed');
    return 1;
  }
  const embedded = new Map<string, string>();
  const result = await Bun.build({
    entrypoints: [ENTRY, ...WORKERS],
    target: 'bun',
    // Elysia reads handler source to see which request parts a handler uses and whether it may be
    // async: keep identifiers, and keep syntax as written (see the handlers in api/routes).
    minify: { whitespace: true, syntax: false, identifiers: false },
    sourcemap: 'linked',
    define: { 'process.env.MDS_BUILD_COMMIT': JSON.stringify(commit) },
    plugins: [nativeAddonsPlugin(embedded), consoleBundlePlugin(consoleFiles, embedded)],
    // The binary reads its settings from flags and MDS_* env, never from a bunfig.toml where it is started.
    compile: { outfile, autoloadBunfig: false, autoloadTsconfig: false, autoloadPackageJson: false },
  }).catch((err: unknown) => {
    // Bun.build throws an AggregateError whose entries are the build messages.
    const errors = err instanceof AggregateError ? err.errors : [err];
    for (const e of errors) console.error(e);
    return null;
  });
  if (result === null || !result.success) {
    for (const log of result?.logs ?? []) console.error(log);
    console.error('build failed');
    return 1;
  }
  for (const log of result.logs) console.warn(log);
  // The executable embeds the sourcemap (stack traces name src/ files); the copy written beside it is not needed.
  rmSync(`${outfile}.map`, { force: true });
  for (const worker of WORKERS) rmSync(join(dirname(outfile), `${basename(worker, '.ts')}.js.map`), { force: true });

  for (const addon of ADDONS) {
    const path = embedded.get(addon.pkg);
    if (path === undefined) {
      console.error(`build failed: ${addon.pkg}'s native addon loader was not in the bundle, so its addon is not embedded`);
      return 1;
    }
    console.log(`  embedded ${addon.pkg} addon ${shown(path)} (${formatSize(statSync(path).size)})`);
  }
  if (!embedded.has('console')) {
    console.error(`build failed: ${relative(ROOT, CONSOLE_BUNDLE_MODULE)} was not in the bundle, so the console's files are not embedded`);
    return 1;
  }
  console.log(`  embedded console ${consoleFiles.map((f) => `${f.name} (${formatSize(f.bytes.length)})`).join(', ')}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`built ${shown(outfile)}: ${formatSize(statSync(outfile).size)} in ${seconds}s`);
  return 0;
}

process.exit(await main());
