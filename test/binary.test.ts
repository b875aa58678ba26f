// The standalone executable: builds one into a temp dir (leaving dist/ alone) and runs
// scripts/smoke-binary.sh on it, which serves, answers, stops and reopens from outside the repo, and
// runs it with --workers 2 (its own nats-server, an ingest process and an edge, all the binary).
import { describe, expect, test } from 'bun:test';
import { join, resolve } from 'node:path';
import { ensureNatsServer } from './support/nats.ts';
import { tempDir } from './support/temp-dir.ts';

const ROOT = resolve(import.meta.dir, '..');

async function run(argv: string[]): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn(argv, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: out + err };
}

describe('standalone binary', () => {
  test('builds, serves from an empty dir with an empty environment, stops on SIGTERM, reopens its data, runs --workers 2', async () => {
    ensureNatsServer();
    using dir = tempDir('mds-binary-test-');
    const binary = join(dir.path, 'mds');
    const build = await run([process.execPath, 'scripts/build.ts', '--outfile', binary]);
    expect({ code: build.code, output: build.code === 0 ? '' : build.output }).toEqual({ code: 0, output: '' });

    const smoke = await run(['bash', 'scripts/smoke-binary.sh', '--binary', binary]);
    expect({ code: smoke.code, output: smoke.code === 0 ? '' : smoke.output }).toEqual({ code: 0, output: '' });
    expect(smoke.output).toContain('smoke-binary: PASS');
  });
});
