// A temporary directory that removes itself when disposed (`using dir = tempDir()`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir extends Disposable {
  path: string;
}

export function tempDir(prefix = 'mds-test-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, [Symbol.dispose]: () => rmSync(path, { recursive: true, force: true }) };
}
