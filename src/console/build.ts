// The one home of the console's build options: its browser code (web/main.ts) bundled into the files
// a browser loads. Run in-process under `bun src/main.ts` (bundle.ts), and by scripts/build.ts, which
// embeds the same files in the binary as a module written by prebuiltBundleModule.
import { basename, join, relative } from 'node:path';
import { CONSOLE_ASSETS_PREFIX } from './paths.ts';

export const CONSOLE_ENTRY = join(import.meta.dir, 'web', 'main.ts');

/** What a built file is to the page: its one script, its stylesheet, or a file the script names by URL (an image). */
export type BuiltFileRole = 'script' | 'styles' | 'file';

export interface BuiltFile {
  /** Bun's name for it: `main.js` and `main.css` for the entry; an imported file carries Bun's content hash (`logo-1a2b3c4d.png`). */
  name: string;
  role: BuiltFileRole;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** `src/console/web/main.ts:3:11: Unexpected ;`: where, then what. */
function describeLog(log: BuildMessage | ResolveMessage): string {
  const at = log.position;
  if (at === null) return log.message;
  const rel = relative(process.cwd(), at.file);
  return `${rel === '' || rel.startsWith('..') ? at.file : rel}:${at.line}:${at.column}: ${log.message}`;
}

/** Bundles `entry` for browsers: one ES module with every import (lightweight-charts, the typed client) inside. */
export async function buildConsoleFiles(entry = CONSOLE_ENTRY): Promise<BuiltFile[]> {
  const result = await Bun.build({
    entrypoints: [entry],
    target: 'browser',
    format: 'esm',
    minify: true,
    sourcemap: 'none',
    splitting: false,
    // A file the code imports (`import logo from './logo.png'`) becomes its URL under the asset route.
    publicPath: CONSOLE_ASSETS_PREFIX,
    // Packages pick their production build: Bun resolves the `development` export condition otherwise.
    define: { 'process.env.NODE_ENV': '"production"' },
    throw: false,
  });
  if (!result.success) throw new Error(`the console's browser code did not build: ${result.logs.filter((log) => log.level === 'error').map(describeLog).join('; ')}`);
  const stem = basename(entry).replace(/\.[^.]+$/, '');
  const files = await Promise.all(
    result.outputs.map(async (out): Promise<BuiltFile> => {
      const name = basename(out.path);
      const role = out.kind === 'entry-point' ? 'script' : name === `${stem}.css` ? 'styles' : 'file';
      return { name, role, type: out.type, bytes: new Uint8Array(await out.arrayBuffer()) };
    }),
  );
  if (files.filter((f) => f.role === 'script').length !== 1) throw new Error(`the console's build gave ${files.map((f) => f.name).join(', ')}: expected one script`);
  return files;
}

/** The source of a module that stands in for bundle.ts in the binary: `consoleBundle()` answers `files`, built beforehand. */
export function prebuiltBundleModule(files: readonly BuiltFile[]): string {
  const entries = files.map((f) => `  { name: ${JSON.stringify(f.name)}, role: ${JSON.stringify(f.role)}, type: ${JSON.stringify(f.type)}, bytes: Uint8Array.fromBase64(${JSON.stringify(Buffer.from(f.bytes).toString('base64'))}) },`);
  return `// The console's browser files, built by scripts/build.ts (src/console/build.ts) when this binary was.
const files = Object.freeze([
${entries.join('\n')}
]);
export function consoleBundle() {
  return Promise.resolve(files);
}
`;
}
