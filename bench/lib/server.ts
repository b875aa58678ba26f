// The real server under test: `bun src/main.ts serve` on a temp data dir and a free port, pinned
// to the server core; stopped with SIGTERM (then SIGKILL) and its data dir removed.
import { BUN, removeDir, SERVER_CORE, spawnPinned, tempDir, withTimeout, type Spawned } from './proc.ts';

export const BENCH_KEY = 'bench-key-0123456789';
/** A Wednesday at 10:30 New York: US and European stocks, forex, crypto, indices, ETFs and commodities all open. */
export const ALL_OPEN_CLOCK = '2026-03-04T15:30:00Z';

export interface MdsServer {
  base: string;
  port: number;
  pid: number;
  key: string;
  /** The server's temp data dir (for `mds keys create` while it runs). */
  dataDir: string;
  startSeconds: number;
  /** GET with the API key; throws unless 200. */
  fetchBody(path: string): Promise<Uint8Array>;
  logs(): string;
  /** Resolves with the first line of mds's output (already printed, or from now on) that matches. */
  logLine(re: RegExp): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

export interface MdsOptions {
  /** Extra `mds serve` flags (history, clock, feed). */
  args: string[];
  startTimeoutMs?: number;
}

async function historyBuilt(port: number): Promise<void> {
  for (;;) {
    const body = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { history?: { state?: string } };
    if (body.history?.state !== 'building') return;
    await Bun.sleep(250);
  }
}

export async function startMds(opts: MdsOptions): Promise<MdsServer> {
  const dataDir = tempDir('mds-bench-');
  const started = performance.now();
  // A rate limit far above what a bench sends, so no request is refused as over quota (the limiter still runs).
  // MDS_BENCH_BUN_FLAGS: runtime flags for the server under test only, e.g. a CPU profile of it
  // (`--cpu-prof --cpu-prof-md --cpu-prof-dir=DIR`, written when the bench stops it).
  const bunFlags = (process.env.MDS_BENCH_BUN_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const cmd = [BUN, ...bunFlags, 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--dev-key', BENCH_KEY, '--rate-limit', '1000000000', ...opts.args];
  const child: Spawned = spawnPinned(SERVER_CORE, cmd);
  const logs = () => `${child.stdout.text()}\n${child.stderr.text()}`.trim();
  let port: number;
  try {
    const exited = child.proc.exited.then((code) => ({ code }));
    const m = await withTimeout(Promise.race([child.stdout.waitFor(/serving REST on http:\/\/[^:]+:(\d+)/), exited]), opts.startTimeoutMs ?? 120_000, 'starting mds');
    if ('code' in m) throw new Error(`mds exited with code ${m.code} before serving:\n${logs()}`);
    port = Number(m[1]);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    if (health.status !== 200) throw new Error(`mds /health answered ${health.status}`);
    // A first start serves before the simulator's older history is built and builds it in the background, on
    // the server's core; measuring before it is done would measure the build. Wait until /health says it is done.
    await withTimeout(historyBuilt(port), opts.startTimeoutMs ?? 120_000, 'the background history build');
  } catch (err) {
    await child.stop(2000);
    removeDir(dataDir);
    throw err;
  }
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    port,
    pid: child.pid,
    key: BENCH_KEY,
    dataDir,
    startSeconds: (performance.now() - started) / 1000,
    async fetchBody(path) {
      const res = await fetch(base + path, { headers: { 'x-api-key': BENCH_KEY } });
      const body = new Uint8Array(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${new TextDecoder().decode(body).slice(0, 200)}`);
      return body;
    },
    logs,
    logLine: (re) => Promise.race([child.stdout.waitFor(re), child.stderr.waitFor(re)]),
    async stop() {
      await child.stop(15_000);
      removeDir(dataDir);
    },
  };
}
