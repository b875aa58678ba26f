// Runs the real `mds` command in a child process (as an operator would) and waits for a server
// to show a change (no sleeps in tests: poll the condition with a deadline).
import { expect } from 'bun:test';
import { resolve } from 'node:path';
import { cleanEnv } from './env.ts';
import type { TestServer } from './server.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function runMds(...args: string[]): Promise<CliResult> {
  return runMdsWith({}, ...args);
}

/** Runs `mds` with extra environment variables (MDS_* only from `env`: the test runner's are dropped). */
export async function runMdsWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...cleanEnv(), ...env } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

/** Keeps everything a child process writes (stdout and stderr, as it arrives); returns the text so far. */
export function collectOutput(proc: { stdout: unknown; stderr: unknown }): () => string {
  let out = '';
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) out += decoder.decode(chunk);
  };
  void drain(proc.stdout as ReadableStream<Uint8Array>);
  void drain(proc.stderr as ReadableStream<Uint8Array>);
  return () => out;
}

export interface ServingMds extends AsyncDisposable {
  /** The port the server printed in its REST URL. */
  port: number;
  /** What it printed up to and including its feed and key line. */
  out: string;
}

/** Starts `mds serve ...` and resolves once it prints its REST URL; disposal stops it by SIGTERM. */
export async function serveMds(env: Record<string, string>, ...args: string[]): Promise<ServingMds> {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...cleanEnv(), ...env } });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let out = '';
  let port = 0;
  // The feed line is the last of the start-up lines that name the port, data dir and key.
  while (port === 0 || !/ feed (sim|none);/.test(out)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`mds serve exited before listening:\n${out}\n${await new Response(proc.stderr as ReadableStream).text()}`);
    out += decoder.decode(value);
    const m = /serving REST on http:\/\/[^:]+:(\d+)/.exec(out);
    if (m) port = Number(m[1]);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    port,
    out,
    [Symbol.asyncDispose]: async () => {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

/**
 * Polls `probe` until it holds. The default deadline is generous for a loaded machine (a server
 * in the same process, busy with its feed, answers late); a probe that holds ends the wait at once.
 */
export async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`);
    await Bun.sleep(50);
  }
}

/** Makes a key with `mds keys create --json ARGS` in the server's data dir; resolves once the server accepts it. */
export async function createKeyOn(server: Pick<TestServer, 'dataDir' | 'get'>, ...args: string[]): Promise<{ id: string; key: string }> {
  const r = await runMds('keys', 'create', '--json', '--data-dir', server.dataDir, ...args);
  expect(r.code).toBe(0);
  const created = JSON.parse(r.out) as { id: string; key: string };
  await until(async () => (await server.get('/crypto/symbols', { key: created.key })).status === 200, 'the new key to work');
  return created;
}
