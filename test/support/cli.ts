// Runs the real `mds` command in a child process (as an operator would) and waits for a server
// to show a change (no sleeps in tests: poll the condition with a deadline).
import { resolve } from 'node:path';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function runMds(...args: string[]): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

export async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}
