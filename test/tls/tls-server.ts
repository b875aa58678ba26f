// `mds serve` over TLS as a child process (it must receive SIGHUP), on port 0 with a temporary data
// dir; it is ready once it has printed its start lines (its https URL among them).
import { resolve } from 'node:path';
import { TEST_KEY, WEDNESDAY_US_OPEN } from '../support/server.ts';

export const MAIN = resolve(import.meta.dir, '../../src/main.ts');

export interface StartingTlsChild extends AsyncDisposable {
  proc: ReturnType<typeof Bun.spawn>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves once its output matches `pattern` (after `from` characters), with the match. */
  waitForOutput(pattern: RegExp, from?: number): Promise<RegExpExecArray>;
}

export interface TlsChild extends StartingTlsChild {
  /** https://127.0.0.1:PORT */
  base: string;
  /** wss://127.0.0.1:PORT */
  wsBase: string;
  port: number;
  key: string;
}

/** Starts the child and returns at once, before it serves. */
export function startTlsChild(dataDir: string, certFile: string, keyFile: string): StartingTlsChild {
  const args = ['serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--dev-key', TEST_KEY, '--history-days', '1', '--history-years', '0', '--clock-start', WEDNESDAY_US_OPEN, '--seed', '7', '--tls-cert', certFile, '--tls-key', keyFile];
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { stdout: 'pipe', stderr: 'pipe' });
  let out = '';
  let exited = false;
  void proc.exited.then(() => (exited = true));
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) out += decoder.decode(chunk, { stream: true });
  };
  void drain(proc.stdout as ReadableStream<Uint8Array>);
  void drain(proc.stderr as ReadableStream<Uint8Array>);
  // Awaits a condition on what the child printed (each pipe chunk lands in `out` between turns).
  const waitForOutput = async (pattern: RegExp, from = 0): Promise<RegExpExecArray> => {
    for (;;) {
      const m = pattern.exec(out.slice(from));
      if (m) return m;
      if (exited) throw new Error(`server exited (code ${proc.exitCode}) before printing ${pattern}:\n${out}`);
      await Bun.sleep(20);
    }
  };
  return {
    proc,
    output: () => out,
    waitForOutput,
    [Symbol.asyncDispose]: async () => {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

export async function spawnTlsServer(dataDir: string, certFile: string, keyFile: string): Promise<TlsChild> {
  const child = startTlsChild(dataDir, certFile, keyFile);
  // Ready once every start line is out (the development key's is the last).
  await child.waitForOutput(/development API key/);
  const port = Number((await child.waitForOutput(/serving REST on https:\/\/127\.0\.0\.1:(\d+)/))[1]);
  return { ...child, base: `https://127.0.0.1:${port}`, wsBase: `wss://127.0.0.1:${port}`, port, key: TEST_KEY };
}
