// `mds serve --workers N`: one real supervisor over a real nats-server, an ingest process and an
// edge, all sharing one port. Requests on fresh connections reach both processes with the one
// development key; the stream answers on the port; an edge killed with SIGKILL is started again
// and serves again; SIGTERM stops every process with its data written. The flags it refuses are
// checked in-process.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer, connect as tcpConnect } from 'node:net';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseServeConfig, UsageError, type ServeConfig } from '../../src/config.ts';
import { startWorkers, withoutFlags } from '../../src/cli/workers.ts';
import { collectOutput, until } from '../support/cli.ts';
import { cleanEnv, TEST_SERVER_ARGS } from '../support/env.ts';
import { ensureNatsServer, freePort } from '../support/nats.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';
import { connect } from '../support/ws-client.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');

/** One HTTP/1.1 request on a connection of its own (fetch would reuse one): the kernel picks the process. */
function freshGet(port: number, path: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const socket = tcpConnect({ port, host: '127.0.0.1' });
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('error', fail);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(raw)?.[1] ?? 0);
      const at = raw.indexOf('\r\n\r\n');
      done({ status, body: at < 0 ? '' : raw.slice(at + 4) });
    });
  });
}

describe('serve --workers: the flags', () => {
  const parse = (...argv: string[]) => parseServeConfig(argv, {}) as ServeConfig;

  test('takes 1 to 64 processes, 1 by default', () => {
    expect(parse().workers).toBe(1);
    expect(parse('--workers', '4').workers).toBe(4);
    expect((parseServeConfig([], { MDS_WORKERS: '3' }) as ServeConfig).workers).toBe(3);
    expect(() => parse('--workers', '0')).toThrow('--workers must be an integer from 1 to 64, got "0"');
    expect(() => parse('--workers', '65')).toThrow('--workers must be an integer from 1 to 64, got "65"');
  });

  test('refuses a role and NATS servers of the user: it runs its own', () => {
    expect(() => parse('--workers', '2', '--role', 'edge', '--nats', 'nats://127.0.0.1:4222')).toThrow('--workers runs one ingest process and edges itself: leave out --role (got --role edge)');
    expect(() => parse('--workers', '2', '--nats', 'nats://127.0.0.1:4222')).toThrow('--workers starts a NATS server of its own for its processes: leave out --nats');
  });

  test('--reuse-port is a switch, also from MDS_REUSE_PORT', () => {
    expect(parse().reusePort).toBe(false);
    expect(parse('--reuse-port').reusePort).toBe(true);
    expect((parseServeConfig([], { MDS_REUSE_PORT: '1' }) as ServeConfig).reusePort).toBe(true);
  });

  test('without nats-server it says what to install, and starts nothing', async () => {
    using dir = tempDir();
    const config = parse('--workers', '2', '--data-dir', dir.path);
    const lines: string[] = [];
    const started = startWorkers(config, [], { MDS_NATS_SERVER: join(dir.path, 'no-such-nats-server') }, (l) => lines.push(l), (l) => lines.push(l));
    await expect(started).rejects.toThrow(UsageError);
    await expect(started).rejects.toThrow('--workers 2 needs nats-server on PATH (Debian: apt-get install nats-server; or set MDS_NATS_SERVER to its path)');
    expect(lines).toEqual([]);
  });

  test('refuses a port something else listens on: with SO_REUSEPORT it would share it silently', async () => {
    ensureNatsServer();
    using dir = tempDir();
    const other = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => other.once('listening', r));
    const port = (other.address() as { port: number }).port;
    try {
      const config = parse('--workers', '2', '--data-dir', dir.path, '--port', String(port), '--host', '127.0.0.1', '--dev-key', 'a-test-key-123');
      const lines: string[] = [];
      await expect(startWorkers(config, [], cleanEnv(), (l) => lines.push(l), (l) => lines.push(l))).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: the port is in use (--workers shares it only among its own processes)`);
      expect(lines).toEqual([]);
    } finally {
      other.close();
    }
  });

  test("the processes' flags replace the user's, in both spellings", () => {
    const argv = ['--workers', '3', '--port=9000', '--feed', 'binance', '--reuse-port', '--log-level', 'warn', '--data-dir=/x', '--record', '/rec'];
    expect(withoutFlags(argv, ['workers', 'port', 'data-dir', 'reuse-port'])).toEqual(['--feed', 'binance', '--log-level', 'warn', '--record', '/rec']);
    expect(withoutFlags(argv, ['feed', 'record'])).toEqual(['--workers', '3', '--port=9000', '--reuse-port', '--log-level', 'warn', '--data-dir=/x']);
  });
});

interface Supervisor {
  proc: ReturnType<typeof Bun.spawn>;
  output(): string;
  /** How many times the process named has said it serves. */
  served(name: string): number;
}

/** `serve --workers 2` on `dataDir`; resolves once the ingest process and the edge both serve. */
async function startSupervisor(dataDir: string, port: number): Promise<Supervisor> {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--workers', '2', '--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir, '--history-days', '1', '--history-years', '0', ...TEST_SERVER_ARGS], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: cleanEnv(),
  });
  const output = collectOutput(proc);
  const served = (name: string) => output().split('\n').filter((l) => l.startsWith(`[${name}] `) && l.includes('serving REST on')).length;
  await until(
    async () => {
      if (proc.exitCode !== null) throw new Error(`serve --workers 2 exited (${proc.exitCode}):\n${output()}`);
      return served('ingest') >= 1 && served('edge-1') >= 1;
    },
    'the ingest process and the edge to serve',
    90_000,
  );
  return { proc, output, served };
}

const pidsOn = (path: string) => Bun.spawnSync(['pgrep', '-f', '--', path]).stdout.toString().trim().split('\n').filter(Boolean).map(Number);

describe('serve --workers 2: an ingest process and an edge on one port', () => {
  let dir: TempDir;
  let sup: Supervisor;
  let proc: ReturnType<typeof Bun.spawn>;
  let port = 0;
  let key = '';
  const served = (name: string) => sup.served(name);

  beforeAll(async () => {
    ensureNatsServer();
    dir = tempDir();
    port = await freePort();
    sup = await startSupervisor(join(dir.path, 'data'), port);
    proc = sup.proc;
    key = /\[workers\] \S+Z info development API key, the same on every process \(send as x-api-key\): (\S+)/.exec(sup.output())![1]!;
  }, 120_000);

  afterAll(async () => {
    for (const p of [proc, sup.proc]) {
      if (p.exitCode === null) {
        p.kill('SIGKILL');
        await p.exited;
      }
    }
    for (const pid of pidsOn(join(dir.path, 'data'))) process.kill(pid, 'SIGKILL');
    dir[Symbol.dispose]();
  });

  test('new connections reach both processes, which take the one development key', async () => {
    const roles = new Map<string, number>();
    for (let i = 0; i < 200 && roles.size < 2; i++) {
      const res = await freshGet(port, '/health', key);
      expect(res.status).toBe(200);
      const role = JSON.parse(res.body).cluster.role as string;
      roles.set(role, (roles.get(role) ?? 0) + 1);
    }
    expect([...roles.keys()].sort()).toEqual(['edge', 'ingest']);
    // The key the supervisor printed is the data dir's, and each process takes it.
    for (let i = 0; i < 20; i++) {
      const res = await freshGet(port, '/crypto/quote/BTCUSD', key);
      expect(res.status).toBe(200);
      // `stale` is left alone: right after a start a line is stale until its first tick.
      expect(JSON.parse(res.body)).toMatchObject({ symbol: 'BTCUSD', bid: expect.any(Number), ask: expect.any(Number) });
    }
    expect((await freshGet(port, '/crypto/quote/BTCUSD', 'not-a-key-0000')).status).toBe(401);
  });

  test('the stream answers on the shared port, whichever process takes the connection', async () => {
    for (let i = 0; i < 4; i++) {
      await using ws = await connect(`ws://127.0.0.1:${port}/?apiKey=${key}`);
      await ws.next((m) => m.type === 'ready');
      ws.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
      const quote = await ws.next((m) => m.type === 'quote');
      expect(quote).toMatchObject({ channel: 'crypto.quotes', symbol: 'BTCUSD' });
    }
  });

  test('an edge killed with SIGKILL is started again and joins the port again', async () => {
    const pid = pidsOn(join(dir.path, 'data', 'workers', 'edge-1'))[0]!;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await until(async () => /\[workers\] \S+Z error edge-1 ended with code \d+ after \d+ s; starting it again in 1 s/.test(sup.output()), 'the supervisor to notice', 30_000);
    await until(async () => served('edge-1') >= 2, 'the edge to serve again', 60_000);
    const roles = new Set<string>();
    for (let i = 0; i < 200 && roles.size < 2; i++) roles.add(JSON.parse((await freshGet(port, '/health', key)).body).cluster.role);
    expect([...roles].sort()).toEqual(['edge', 'ingest']);
  }, 120_000);

  test('SIGTERM stops every process, each with its data written', async () => {
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    const out = sup.output();
    expect(out.match(/^\[(ingest|edge-1)\] .*info stopped; everything written is on disk$/gm)?.length).toBe(2);
    expect(out).toMatch(/\[nats\] .*Server Exiting/);
    expect(out.trimEnd()).toMatch(/\n\[workers\] \S+Z info stopped$/);
    expect(pidsOn(join(dir.path, 'data'))).toEqual([]);
  }, 60_000);

  test('a supervisor killed with -9: its processes stop by themselves, the next start stops its NATS server and resumes', async () => {
    const dataDir = join(dir.path, 'data');
    sup = await startSupervisor(dataDir, port);
    const nats = pidsOn(join(dataDir, 'workers', 'nats'));
    expect(nats.length).toBe(1);
    sup.proc.kill('SIGKILL');
    await sup.proc.exited;
    // The ingest process and the edge see their parent gone and stop as on SIGTERM: the data dirs' locks go.
    await until(async () => pidsOn(`--data-dir ${dataDir}`).length === 0 && pidsOn(join(dataDir, 'workers', 'edge-1')).length === 0, 'the processes to stop', 30_000);
    expect(existsSync(join(dataDir, 'mds.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'workers', 'edge-1', 'mds.pid'))).toBe(false);
    expect(pidsOn(join(dataDir, 'workers', 'nats'))).toEqual(nats);
    sup = await startSupervisor(dataDir, port);
    proc = sup.proc;
    expect(sup.output()).toMatch(new RegExp(`\\[workers\\] \\S+Z info stopped the nats-server \\(pid ${nats[0]}\\) a previous supervisor left running`));
    expect(sup.output()).toMatch(/\[edge-1\] .*edge: resuming the stream MDS_TICKS after sequence \d+/);
    expect(pidsOn(join(dataDir, 'workers', 'nats')).length).toBe(1);
    expect((await freshGet(port, '/crypto/quote/BTCUSD', key)).status).toBe(200);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 180_000);
});
