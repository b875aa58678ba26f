// The client package as Node sees it: built with tsc into client/dist (what `npm pack` ships) and
// run by `node` against a real server, REST and stream. The build, the server's first start and
// the run take minutes on a busy machine: the limit is above their sum.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { startServer } from '../support/server.ts';

const ROOT = join(import.meta.dir, '..', '..');

async function run(cmd: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

describe('the built client under Node', () => {
  test('builds to client/dist, and node runs REST calls and a stream with it', async () => {
    const build = await run(['node', join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'client', 'tsconfig.json')]);
    expect(build).toEqual({ code: 0, out: '', err: '' });
    await using server = await startServer({ args: ['--sim-rate', '20'] });
    const smoke = await run(['node', join(import.meta.dir, 'node-smoke.mjs'), server.base, server.key]);
    expect(smoke.err).toBe('');
    const result = JSON.parse(smoke.out);
    const node = Number(/^v(\d+)/.exec(result.node)![1]);
    expect(node).toBeGreaterThanOrEqual(18);
    expect(result).toMatchObject({
      webSocket: node >= 22 ? 'global' : 'ws',
      quoteSymbol: 'BTCUSD',
      error: { isMdsError: true, status: 404, message: 'unknown symbol', hasRequestId: true },
      snapshot: true,
    });
    const first = result.seqs[0];
    expect(result.seqs).toEqual([first, first + 1, first + 2]);
  }, 240_000);
});
