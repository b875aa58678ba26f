// A real NATS server with JetStream for cluster tests: Debian's `nats-server` on a free loopback
// port with its store in a temporary dir. Installed with apt-get when missing and running as root
// (as here and in CI); otherwise the test fails saying how to install it. It can be stopped and
// started again on the same port and store (a NATS outage mid-stream).
import { spawnSync, type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NATS_SERVER = process.env.MDS_NATS_SERVER ?? 'nats-server';

/** Installs Debian's `nats-server` when it is missing and this is root with apt-get; call before the test's clock starts. */
export function ensureNatsServer(): void {
  if (Bun.which(NATS_SERVER) !== null) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !Bun.which('apt-get')) return;
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'nats-server']]) {
    const res = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (res.status !== 0) return;
  }
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface TestNats extends AsyncDisposable {
  url: string;
  port: number;
  storeDir: string;
  /** Stops the server (SIGTERM, as an operator would), keeping its store. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** What the server printed. */
  logs(): string;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      Bun.connect({ hostname: '127.0.0.1', port, socket: { open: (s) => (s.end(), resolve(true)), data() {}, error: () => resolve(false), connectError: () => resolve(false) } }).catch(() => resolve(false));
    });
    if (ok) return;
    if (performance.now() > deadline) throw new Error(`nats-server did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await Bun.sleep(25);
  }
}

/** Starts `nats-server -js` on a free loopback port; disposal stops it and removes its store. */
export async function startNats(): Promise<TestNats> {
  if (Bun.which(NATS_SERVER) === null) throw new Error(`no ${NATS_SERVER} on PATH: install Debian's package (apt-get install -y nats-server, as .ci/run does) or set MDS_NATS_SERVER`);
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'mds-nats-'));
  let proc: ChildProcess | null = null;
  let out = '';
  const start = async () => {
    proc = spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir, '--server_name', `mds-test-${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (d: Buffer) => void (out += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => void (out += d.toString()));
    // Generous for a loaded machine: a server that listens ends the wait at once.
    await waitForPort(port, 30_000);
  };
  const stop = async () => {
    const p = proc;
    if (p === null || p.exitCode !== null) return;
    proc = null;
    const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
    p.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    start,
    logs: () => out,
    [Symbol.asyncDispose]: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
