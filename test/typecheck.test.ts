// The strict typecheck as part of `npm test`: the three TypeScript projects (the server with its
// tests, benches and scripts; the typed client; the console's browser code), each as `npm run
// typecheck` checks them. As a test file it runs in a worker beside the other files instead of
// before them all, and the suite fails on a type error as it did when npm ran tsc first.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

describe('npm run typecheck', () => {
  for (const project of ['.', 'client', 'src/console/web']) {
    test(`tsc --noEmit -p ${project} reports no error`, async () => {
      const proc = Bun.spawn([process.execPath, TSC, '--noEmit', '-p', project], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect({ project, code, output: `${out}${err}`.trim() }).toEqual({ project, code: 0, output: '' });
    }, 600_000);
  }
});
