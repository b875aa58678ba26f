// The console's browser files, built from web/ the first time they are asked for (under
// `bun src/main.ts`). In the binary this module is replaced by one holding the files built with it
// (scripts/build.ts, prebuiltBundleModule), so the binary needs no sources and no build at run time.
import { buildConsoleFiles, type BuiltFile } from './build.ts';

export type { BuiltFile };

let built: Promise<readonly BuiltFile[]> | undefined;

/** Built once per process: a failed build stays failed until a restart, as a fixed source needs one anyway. */
export function consoleBundle(): Promise<readonly BuiltFile[]> {
  return (built ??= buildConsoleFiles());
}
