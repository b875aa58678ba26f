// The console's build: an entry with a stylesheet and an imported image becomes one script, one
// stylesheet and the image, served at the URL the script names; a broken entry fails saying where;
// the module the binary holds instead of bundle.ts answers the same files through the same exports.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { consolePageOf } from '../../src/api/routes/console.ts';
import { buildConsoleFiles, prebuiltBundleModule, type BuiltFile } from '../../src/console/build.ts';
import * as bundleModule from '../../src/console/bundle.ts';
import { CONSOLE_ASSETS_PREFIX } from '../../src/console/paths.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A PNG's signature and some bytes: enough for the bundler, which only copies it. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 64 }, (_, i) => i)]);

function writeEntry(dir: string, main: string): string {
  writeFileSync(join(dir, 'console.css'), 'body { color: rebeccapurple; }\n');
  writeFileSync(join(dir, 'logo.png'), PNG);
  writeFileSync(join(dir, 'main.ts'), main);
  return join(dir, 'main.ts');
}

const text = (f: BuiltFile | undefined) => new TextDecoder().decode(f?.bytes);

describe('buildConsoleFiles', () => {
  test('one script, its stylesheet, and an imported file under its hashed name at the URL the script names', async () => {
    using dir = tempDir();
    const entry = writeEntry(dir.path, "import './console.css';\nimport logo from './logo.png';\ndocument.title = logo;\n");
    const files = await buildConsoleFiles(entry);
    expect(files.map((f) => [f.role, f.name.replace(/-[a-z0-9]{8}\./, '-HASH.')]).sort()).toEqual([
      ['file', 'logo-HASH.png'],
      ['script', 'main.js'],
      ['styles', 'main.css'],
    ]);
    const [script, styles, logo] = (['script', 'styles', 'file'] as const).map((role) => files.find((f) => f.role === role));
    expect(text(styles)).toContain('color:');
    expect(logo?.bytes).toEqual(PNG);
    expect(text(script)).toContain(JSON.stringify(CONSOLE_ASSETS_PREFIX + logo!.name));

    // The page: the script and stylesheet under names hashed here, the image under the name the script asks for.
    const page = consolePageOf(files);
    expect([...page.assets.byName.keys()].filter((name) => name === logo!.name)).toEqual([logo!.name]);
    expect(page.assets.byName.get(logo!.name)).toEqual({ type: 'image/png', body: logo!.bytes, gzipped: null });
    expect(page.html).toContain(`<script type="module" src="${page.assets.url('main.js')}"></script>`);
    expect(page.html).toContain(`<link rel="stylesheet" href="${page.assets.url('main.css')}">`);
    expect(page.assets.url('main.js')).toMatch(/^\/console\/assets\/main\.[0-9a-f]{12}\.js$/);
  });

  test('a broken entry fails with what the bundler said and where', async () => {
    using dir = tempDir();
    const entry = writeEntry(dir.path, "import './missing.ts';\n");
    const error = await buildConsoleFiles(entry).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toStartWith("the console's browser code did not build: ");
    expect((error as Error).message).toContain('main.ts:1:8: Could not resolve: "./missing.ts"');
  });
});

describe('prebuiltBundleModule', () => {
  test('exports what bundle.ts does, and answers the same files byte for byte', async () => {
    using dir = tempDir();
    const files = await buildConsoleFiles(writeEntry(dir.path, "import './console.css';\nimport logo from './logo.png';\ndocument.title = logo;\n"));
    const path = join(dir.path, 'prebuilt.js');
    writeFileSync(path, prebuiltBundleModule(files));
    const prebuilt = (await import(path)) as typeof bundleModule;
    expect(Object.keys(prebuilt).sort()).toEqual(Object.keys(bundleModule).sort());
    expect(await prebuilt.consoleBundle()).toEqual(files);
  });
});
