// Real servers for contract tests: `startServer` runs `mds serve` in this process on port 0
// with a temporary data dir; `spawnServer` runs it as a child process (for kill -9 tests).
// Both talk real HTTP; both are disposable.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve, type RunningServer } from '../../src/cli/serve.ts';
import { parseServeConfig, type ServeConfig } from '../../src/config.ts';
import type { Feed } from '../../src/domain/feed.ts';
import { TEST_SERVER_ARGS } from './env.ts';
import { copyTemplate, historyTemplate, isEmptyDir, templateFits } from './history-template.ts';

export const TEST_KEY = 'test-key-0123456789';
/** A Wednesday during the US regular session (10:30 New York, EST), Europe open, Tokyo closed. */
export const WEDNESDAY_US_OPEN = '2026-03-04T15:30:00Z';

export interface TestServer extends AsyncDisposable {
  base: string;
  port: number;
  /** The port of --metrics-port, or null without one. */
  metricsPort: number | null;
  dataDir: string;
  key: string;
  /** What the server logged. */
  logs: string[];
  get(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  json<T = any>(path: string): Promise<{ status: number; body: T; headers: Headers }>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  args?: string[];
  dataDir?: string;
  /**
   * Keep the data dir after `stop()` and disposal (a test that reads it after the stop removes it).
   * Otherwise a data dir the harness made is removed by either: a suite's servers leave nothing behind.
   */
  keepDataDir?: boolean;
  /** Feeds run besides those of --feed (fake feeds of the feed-boundary tests). */
  feeds?: readonly Feed[];
  /** false: without the default history, clock and seed flags (a replay sets the clock itself). */
  defaults?: boolean;
  /**
   * false: return as soon as the server serves, while its history build may still run (a first
   * start as a user sees it: never from a template).
   */
  waitForHistory?: boolean;
  /**
   * false: an empty data dir makes its own history, as a user's first start does. By default a
   * simulator server on an empty data dir starts from a copy of the same history made once
   * (history-template.ts): the same bars, some 2 s of CPU less per server. The default is false
   * with `waitForHistory: false` (a test of the first start); true overrides it.
   */
  template?: boolean;
}

/** Resolves once /health shows no history build running (or writes failing: a full-disk test's build cannot end). */
async function historyBuilt(base: string): Promise<void> {
  for (;;) {
    const body = (await (await fetch(`${base}/health`)).json()) as { history?: { state: string }; disk?: { writes: string } };
    if (body.history?.state !== 'building' || body.disk?.writes === 'failing') return;
    await Bun.sleep(20);
  }
}

const DEFAULT_ARGS = ['--history-days', '2', '--history-years', '0', '--clock-start', WEDNESDAY_US_OPEN, '--seed', '7'];

function client(base: string, key: string) {
  const get = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const k = init.key === undefined ? key : init.key;
    if (k !== null) headers.set('x-api-key', k);
    return fetch(base + path, { ...init, headers });
  };
  const json = async <T = any>(path: string): Promise<{ status: number; body: T; headers: Headers }> => {
    const res = await get(path);
    return { status: res.status, body: (await res.json()) as T, headers: res.headers as Headers };
  };
  return { get, json };
}

export async function startServer(opts: ServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'mds-srv-'));
  const config = parseServeConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--dev-key', TEST_KEY, ...TEST_SERVER_ARGS, ...(opts.defaults === false ? [] : DEFAULT_ARGS), ...(opts.args ?? [])], {}) as ServeConfig;
  if ((opts.template ?? opts.waitForHistory !== false) && opts.feeds === undefined && templateFits(config) && isEmptyDir(dataDir)) copyTemplate(await historyTemplate(config), dataDir);
  const logs: string[] = [];
  const running: RunningServer = await serve(config, (line) => logs.push(line), { feeds: opts.feeds });
  const base = `http://127.0.0.1:${running.port}`;
  // The simulator makes older history in the background; tests read it as after a finished first start.
  if (opts.waitForHistory !== false) await historyBuilt(base);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await running.stop();
    if (!opts.keepDataDir && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return {
    base,
    logs,
    port: running.port,
    metricsPort: running.metricsPort,
    dataDir,
    key: TEST_KEY,
    ...client(base, TEST_KEY),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

export interface ChildServer extends AsyncDisposable {
  base: string;
  proc: ReturnType<typeof Bun.spawn>;
  get(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  json<T = any>(path: string): Promise<{ status: number; body: T; headers: Headers }>;
  output(): string;
}

/** Runs `mds serve` as a child process and waits until it prints its URL. */
export async function spawnServer(dataDir: string, args: string[] = [], opts: { template?: boolean } = {}): Promise<ChildServer> {
  const main = resolve(import.meta.dir, '../../src/main.ts');
  const argv = ['serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--dev-key', TEST_KEY, ...TEST_SERVER_ARGS, ...DEFAULT_ARGS, ...args];
  // An empty data dir starts from the history made once, as startServer's do (history-template.ts).
  if (opts.template !== false && isEmptyDir(dataDir)) {
    const config = parseServeConfig(argv.slice(1), {}) as ServeConfig;
    if (templateFits(config)) copyTemplate(await historyTemplate(config), dataDir);
  }
  const proc = Bun.spawn([process.execPath, main, ...argv], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let out = '';
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let port = 0;
  while (port === 0) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening:\n${out}\n${await new Response(proc.stderr as ReadableStream).text()}`);
    out += decoder.decode(value);
    const m = /serving REST on http:\/\/[^:]+:(\d+)/.exec(out);
    if (m) port = Number(m[1]);
  }
  // Keep draining both pipes so the child never blocks on a full one.
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += decoder.decode(value);
    }
  })();
  void (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) out += decoder.decode(chunk);
  })();
  const base = `http://127.0.0.1:${port}`;
  await historyBuilt(base);
  return {
    base,
    proc,
    ...client(base, TEST_KEY),
    output: () => out,
    [Symbol.asyncDispose]: async () => {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await proc.exited;
    },
  };
}
