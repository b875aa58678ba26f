// `mds serve --workers N` (N ≥ 2): N processes serve one port on this host. One NATS server
// (JetStream, its store under DATA/workers/nats) started here; one ingest process on the data dir
// (`--role ingest`: the feeds, the store's only writer, serving too); N-1 edges (`--role edge`,
// each its own data dir DATA/workers/edge-K) that follow the ingest process's stream. All listen
// on the port with SO_REUSEPORT, so the kernel spreads new connections over them. This process
// only supervises: it starts them in order, passes their lines on with a prefix, starts again one
// that ends unexpectedly, and stops them all on SIGTERM/SIGINT. The cluster's parts are those of
// docs/cluster.md, unchanged; an edge starts from the ingest process's snapshot and joins the port
// once it holds the history.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { Subprocess } from 'bun';
import { systemClock } from '../clock.ts';
import { UsageError, WORKERS_SUPERVISOR_ENV, type ServeConfig } from '../config.ts';
import { Store } from '../store/index.ts';
import { lockDataDir, serverPidOf } from './data-dir-lock.ts';

/** A process that ends within this long of a start that never served is a failed start: all stop. */
const START_GRACE_MS = 120_000;
/** Restarts back off from this, doubling to the max; a process that ran this long starts afresh. */
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const STABLE_MS = 60_000;
/** How long a stop waits for each process before it is killed. */
const STOP_WAIT_MS = 30_000;
const NATS_WAIT_MS = 15_000;
/** A server still stopping on the data dir (the processes of a supervisor that was killed) gets this long. */
const PREVIOUS_STOP_WAIT_MS = 15_000;

export interface Workers {
  /** Resolves with the exit code once everything has stopped (after stop(), or a failed start). */
  done: Promise<number>;
  stop(): Promise<void>;
  /** Passes SIGHUP on (each process re-reads --tls-cert and --tls-key). */
  reloadTls(): void;
}

type Out = (line: string) => void;

interface Child {
  name: string;
  /** The command after the executable: serve flags, or nats-server's. */
  argv: string[];
  env: Record<string, string | undefined>;
  /** The log line that says the process serves (or accepts, for NATS). */
  ready: RegExp;
  proc: Subprocess<'ignore', 'pipe', 'pipe'> | null;
  /** Its output passed on to the end (after its exit). */
  drained: Promise<unknown>;
  startedMs: number;
  /** It has said it serves, in this run or an earlier one: a restart that fails is started again, not fatal. */
  hasServed: boolean;
  backoffMs: number;
  onReady: (() => void) | null;
}

/** The serve flags the supervisor sets on its processes, removed from what the user gave. */
const OWN_FLAGS = ['workers', 'role', 'nats', 'data-dir', 'port', 'dev-key', 'reuse-port', 'no-dev-key'];
/** Flags that belong to the ingest process alone (an edge records, fetches and exports nothing of its own). */
const INGEST_ONLY_FLAGS = ['feed', 'feeds', 'record', 'metrics-port', 'snapshot-every', 'seed', 'sim-rate', 'history-days', 'history-years'];
const INGEST_ONLY_ENV = ['MDS_FEED', 'MDS_FEEDS', 'MDS_RECORD', 'MDS_METRICS_PORT', 'MDS_SNAPSHOT_EVERY', 'MDS_SIM_RATE', 'MDS_HISTORY_DAYS', 'MDS_HISTORY_YEARS'];

/** `argv` without the flags named (both `--flag value` and `--flag=value`; boolean flags take no value). */
export function withoutFlags(argv: readonly string[], flags: readonly string[], booleans: readonly string[] = ['reuse-port', 'no-dev-key', 'help']): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--([^=]+)(=.*)?$/.exec(a);
    if (m === null || !flags.includes(m[1]!)) {
      out.push(a);
      continue;
    }
    if (m[2] === undefined && !booleans.includes(m[1]!)) i++;
  }
  return out;
}

/** How this executable runs `mds` again: the compiled binary itself, or Bun with the entry script. */
function selfCommand(): string[] {
  const compiled = import.meta.url.includes('/$bunfs/') || import.meta.url.includes('/~BUN/');
  return compiled ? [process.execPath] : [process.execPath, Bun.main];
}

function freePort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolvePort(port));
    });
  });
}

/** Whether nothing listens on host:port: the processes share it, so it must be free of anything else. */
function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, host, () => srv.close(() => done(true)));
  });
}

/** Whether `pid` was started by a --workers supervisor that is gone (it then stops by itself). */
function isOrphan(pid: number): boolean {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const supervisor = env.find((e) => e.startsWith(`${WORKERS_SUPERVISOR_ENV}=`))?.slice(WORKERS_SUPERVISOR_ENV.length + 1);
    if (supervisor === undefined) return false;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return String(ppid) !== supervisor;
  } catch {
    return false;
  }
}

/** Stops the nats-server a killed supervisor left on this store dir (its pid file names it); its pid, or null. */
async function stopLeftNats(pidFile: string, storeDir: string): Promise<number | null> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes('nats-server') || !cmdline.includes(storeDir)) return null;
  } catch {
    return null;
  }
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return pid;
    }
    await Bun.sleep(50);
  }
  process.kill(pid, 'SIGKILL');
  return pid;
}

/** The data dir's development key (made and kept there when missing), so every process takes the same. */
async function sharedDevKey(dataDir: string): Promise<string> {
  const unlock = lockDataDir(dataDir);
  const store = Store.open({ dataDir });
  try {
    const kept = store.getMeta<string>('devKey');
    if (kept !== undefined) return kept;
    const key = `mds_dev_${randomBytes(18).toString('base64url')}`;
    await store.putMeta('devKey', key);
    return key;
  } finally {
    await store.close();
    unlock();
  }
}

/** Lines of a child's stream, each passed on with the child's name. */
async function pipeLines(stream: ReadableStream<Uint8Array>, name: string, jsonLines: boolean, out: Out, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let rest = '';
  const emit = (line: string) => {
    onLine(line);
    // With --log-format json every line is JSON: the process's name is a field of its own, and a
    // line that is not JSON (nats-server's, a crash's) becomes the message of one.
    if (!jsonLines) out(`[${name}] ${line}`);
    else out(line.startsWith('{') ? `{"process":${JSON.stringify(name)},${line.slice(1)}` : JSON.stringify({ process: name, msg: line }));
  };
  for await (const chunk of stream) {
    rest += decoder.decode(chunk, { stream: true });
    let nl = rest.indexOf('\n');
    while (nl >= 0) {
      emit(rest.slice(0, nl));
      rest = rest.slice(nl + 1);
      nl = rest.indexOf('\n');
    }
  }
  if (rest.length > 0) emit(rest);
}

/**
 * Starts the processes of `--workers` (config.workers ≥ 2); `argv` is what `serve` was given.
 * Throws UsageError when nats-server is missing or the data dir is taken.
 */
export async function startWorkers(config: ServeConfig, argv: readonly string[], env: Record<string, string | undefined>, out: Out, err: Out): Promise<Workers> {
  const natsServer = Bun.which(env.MDS_NATS_SERVER ?? 'nats-server');
  if (natsServer === null) throw new UsageError(`--workers ${config.workers} needs nats-server on PATH (Debian: apt-get install nats-server; or set MDS_NATS_SERVER to its path)`);
  const dataDir = resolve(config.dataDir);
  const workDir = join(dataDir, 'workers');
  mkdirSync(workDir, { recursive: true });
  // The processes of a supervisor that was killed stop within a second or two (they watch their
  // parent), and its nats-server is stopped below: a start right after one waits for them.
  let running = serverPidOf(dataDir);
  if (running !== null && isOrphan(running)) {
    const until = performance.now() + PREVIOUS_STOP_WAIT_MS;
    while (running !== null && performance.now() < until) {
      await Bun.sleep(100);
      running = serverPidOf(dataDir);
    }
  }
  if (running !== null) throw new UsageError(`another mds server (pid ${running}) already serves the data dir ${dataDir}`);
  let unlockWorkDir: () => void;
  try {
    unlockWorkDir = lockDataDir(workDir);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  // The supervisor's own lines, as its processes write theirs (time, level, message).
  const own = (level: 'info' | 'error', line: string) => {
    const time = new Date(systemClock.nowMs()).toISOString();
    return config.logFormat === 'json' ? JSON.stringify({ process: 'workers', time, level, msg: line }) : `[workers] ${time} ${level} ${line}`;
  };
  const info = (line: string) => out(own('info', line));
  const warn = (line: string) => err(own('error', line));

  let devKey: string | null;
  let port: number;
  let natsPort: number;
  try {
    devKey = config.noDevKey ? null : (config.devKey ?? (await sharedDevKey(dataDir)));
    port = config.port === 0 ? await freePort(config.host === '0.0.0.0' ? '127.0.0.1' : config.host) : config.port;
    // With SO_REUSEPORT another server on the port (mds with --reuse-port, say) would silently share it.
    if (!(await portIsFree(config.host, port))) throw new UsageError(`cannot listen on ${config.host}:${port}: the port is in use (--workers shares it only among its own processes)`);
    natsPort = await freePort('127.0.0.1');
  } catch (e) {
    unlockWorkDir();
    throw e;
  }
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const natsPidFile = join(workDir, 'nats.pid');
  const userFlags = withoutFlags(argv, OWN_FLAGS);
  const common = ['--nats', natsUrl, '--port', String(port), '--reuse-port'];
  // The processes read their settings from these flags, and the key from the environment (not
  // shown by ps): the environment's own values for them are replaced.
  const childEnv = { ...env, [WORKERS_SUPERVISOR_ENV]: String(process.pid), MDS_WORKERS: undefined, MDS_ROLE: undefined, MDS_NATS: undefined, MDS_DATA_DIR: undefined, MDS_PORT: undefined, MDS_DEV_KEY: devKey ?? undefined, MDS_NO_DEV_KEY: devKey === null ? '1' : undefined };
  const edgeEnv: Record<string, string | undefined> = { ...childEnv };
  for (const name of INGEST_ONLY_ENV) edgeEnv[name] = undefined;

  const child = (name: string, argv: string[], childEnv: Record<string, string | undefined>, ready: RegExp): Child => ({ name, argv, env: childEnv, ready, proc: null, drained: Promise.resolve(), startedMs: 0, hasServed: false, backoffMs: RESTART_MIN_MS, onReady: null });
  const nats = child('nats', ['-js', '-sd', join(workDir, 'nats'), '-a', '127.0.0.1', '-p', String(natsPort)], env, /Server is ready/);
  const ingest = child('ingest', ['serve', ...userFlags, '--role', 'ingest', '--data-dir', dataDir, ...common], childEnv, /serving REST on/);
  const edges = Array.from({ length: config.workers - 1 }, (_, i) =>
    child(`edge-${i + 1}`, ['serve', ...withoutFlags(userFlags, INGEST_ONLY_FLAGS), '--role', 'edge', '--feed', 'none', '--data-dir', join(workDir, `edge-${i + 1}`), ...common], edgeEnv, /serving REST on/),
  );

  let stopping = false;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((r) => (finish = r));
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const launch = (c: Child) => {
    const cmd = c === nats ? [natsServer, ...c.argv] : [...selfCommand(), ...c.argv];
    const proc = Bun.spawn(cmd, { env: c.env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    c.proc = proc;
    c.startedMs = performance.now();
    // A supervisor killed with -9 leaves its nats-server running: the next one stops it by this file.
    if (c === nats) writeFileSync(natsPidFile, String(proc.pid));
    const onLine = (line: string) => {
      if (!c.hasServed && c.ready.test(line)) {
        c.hasServed = true;
        c.onReady?.();
        c.onReady = null;
      }
    };
    const json = config.logFormat === 'json';
    c.drained = Promise.all([pipeLines(proc.stdout, c.name, json, out, onLine), pipeLines(proc.stderr, c.name, json, err, onLine)]);
    void proc.exited.then((code) => onExit(c, proc, code));
  };

  const onExit = (c: Child, proc: Subprocess, code: number) => {
    if (c.proc !== proc) return;
    c.proc = null;
    if (stopping) return;
    const ranMs = performance.now() - c.startedMs;
    if (!c.hasServed && ranMs < START_GRACE_MS) {
      // A start that fails (a flag, the port, the data dir) fails again: say so and stop.
      warn(`${c.name} ended with code ${code} before it served; stopping every process`);
      void stopAll(code === 0 ? 1 : code);
      return;
    }
    if (ranMs >= STABLE_MS) c.backoffMs = RESTART_MIN_MS;
    const wait = c.backoffMs;
    c.backoffMs = Math.min(RESTART_MAX_MS, c.backoffMs * 2);
    warn(`${c.name} ended with code ${code} after ${Math.round(ranMs / 1000)} s; starting it again in ${wait / 1000} s`);
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopping) launch(c);
    }, wait);
    timers.add(t);
  };

  const stopOne = async (c: Child) => {
    const proc = c.proc;
    if (proc === null) return;
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), STOP_WAIT_MS);
    await proc.exited;
    clearTimeout(t);
    await c.drained;
  };

  let stopped: Promise<void> | null = null;
  const stopAll = (code = 0): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      for (const t of timers) clearTimeout(t);
      // The edges first, then the writer (its last flush), then NATS, which the others publish to.
      await Promise.all(edges.map(stopOne));
      await stopOne(ingest);
      await stopOne(nats);
      rmSync(natsPidFile, { force: true });
      unlockWorkDir();
      info('stopped');
      finish(code);
    })());

  const served = (c: Child) => new Promise<void>((r) => (c.hasServed ? r() : (c.onReady = r)));
  const startedOrFailed = (c: Child) => Promise.race([served(c), done.then(() => Promise.reject(new Error('stopped')))]);

  try {
    const left = await stopLeftNats(natsPidFile, join(workDir, 'nats'));
    if (left !== null) info(`stopped the nats-server (pid ${left}) a previous supervisor left running`);
    launch(nats);
    let late: ReturnType<typeof setTimeout> | undefined;
    const tooLate = new Promise<never>((_, reject) => (late = setTimeout(() => reject(new Error(`nats-server did not say it is ready within ${NATS_WAIT_MS / 1000} s`)), NATS_WAIT_MS)));
    await Promise.race([startedOrFailed(nats), tooLate]).finally(() => clearTimeout(late));
    info(`nats-server ${natsUrl} (JetStream in ${join(workDir, 'nats')})`);
    launch(ingest);
    await startedOrFailed(ingest);
    // Each edge waits for the ingest process's first snapshot, and joins the port once it has it.
    for (const e of edges) launch(e);
    info(`${config.workers} processes on port ${port}: the ingest process serves now; ${edges.length} edge${edges.length === 1 ? '' : 's'} join${edges.length === 1 ? 's' : ''} once ${edges.length === 1 ? 'it holds' : 'each holds'} its history (${edges.map((e) => join(workDir, e.name)).join(', ')})`);
    if (devKey !== null) info(`development API key, the same on every process (send as x-api-key): ${devKey}`);
  } catch (e) {
    if (!stopping) warn(`${e instanceof Error ? e.message : String(e)}; stopping every process`);
    await stopAll(1);
  }
  return {
    done,
    stop: () => stopAll(0),
    reloadTls: () => {
      for (const c of [ingest, ...edges]) c.proc?.kill('SIGHUP');
    },
  };
}
