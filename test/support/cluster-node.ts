// An `mds serve` child process for cluster tests: any role, its own data dir, killable with SIGKILL
// (a crash) or stopped with SIGTERM, its output kept; plus a WebSocket client that timestamps every
// tick frame on arrival and reads a node's tick ring through a `since` replay.
import { resolve } from 'node:path';
import { collectOutput, until } from './cli.ts';
import { cleanEnv } from './env.ts';
import { TEST_KEY } from './server.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');

export interface Node extends AsyncDisposable {
  port: number;
  base: string;
  dataDir: string;
  proc: ReturnType<typeof Bun.spawn>;
  output(): string;
  json<T = any>(path: string): Promise<{ status: number; body: T }>;
  /** The /health body. */
  health(): Promise<any>;
  /** SIGKILL: no flush, no goodbye. */
  kill9(): Promise<void>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number>;
}

/**
 * Starts `mds serve --data-dir DIR ARGS` on a free port; resolves once it serves REST, or with
 * `bootstrapping`, once a new edge's port answers while it waits for a snapshot (the same port).
 */
export async function startNode(dataDir: string, args: string[], opts: { bootstrapping?: boolean } = {}): Promise<Node> {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--dev-key', TEST_KEY, ...args], { stdout: 'pipe', stderr: 'pipe', env: cleanEnv() });
  const output = collectOutput(proc);
  let port = 0;
  await until(
    async () => {
      if (proc.exitCode !== null) throw new Error(`mds serve exited (${proc.exitCode}) before listening:\n${output()}`);
      const m = opts.bootstrapping ? /bootstrapping' on port (\d+)/.exec(output()) : /serving REST on http:\/\/[^:]+:(\d+)/.exec(output());
      if (m && (opts.bootstrapping || / feed \w+;/.test(output()))) port = Number(m[1]);
      return port !== 0;
    },
    `mds serve ${args.join(' ')} to listen`,
    // A first start makes history, a restart fills its gap: slow on a busy shared machine.
    90_000,
  );
  const base = `http://127.0.0.1:${port}`;
  const json = async <T>(path: string) => {
    const res = await fetch(base + path, { headers: { 'x-api-key': TEST_KEY } });
    return { status: res.status, body: (await res.json()) as T };
  };
  const stop = async () => {
    if (proc.exitCode === null) proc.kill('SIGTERM');
    return proc.exited;
  };
  return {
    port,
    base,
    dataDir,
    proc,
    output,
    json,
    health: async () => (await json('/health')).body,
    kill9: async () => {
      proc.kill('SIGKILL');
      await proc.exited;
    },
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop();
    },
  };
}

export interface TickFrame {
  type: 'quote' | 'trade';
  channel: string;
  symbol: string;
  seq: number;
  /** The frame as sent. */
  text: string;
  /** performance.now() at arrival in this process. */
  atMs: number;
}

/** A stream client that keeps every tick frame with its arrival time, by `channel|symbol|seq`. */
export class TickWatcher implements AsyncDisposable {
  readonly frames = new Map<string, TickFrame>();
  private readonly ws: WebSocket;
  readonly open: Promise<void>;

  /** `subscriptions`: channel → symbols, one subscribe frame each. */
  constructor(node: Pick<Node, 'port'>, subscriptions: Record<string, string[]>) {
    this.ws = new WebSocket(`ws://127.0.0.1:${node.port}/?apiKey=${TEST_KEY}`);
    this.ws.onmessage = (e) => {
      const atMs = performance.now();
      const text = e.data as string;
      const m = JSON.parse(text) as TickFrame;
      if (m.type === 'quote' || m.type === 'trade') this.frames.set(`${m.channel}|${m.symbol}|${m.seq}`, { ...m, text, atMs });
    };
    this.open = new Promise((resolve, reject) => {
      this.ws.onopen = () => {
        for (const [channel, symbols] of Object.entries(subscriptions)) this.ws.send(JSON.stringify({ action: 'subscribe', channels: [channel], symbols }));
        resolve();
      };
      this.ws.onerror = () => reject(new Error(`cannot open a stream on port ${node.port}`));
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const closed = new Promise((resolve) => (this.ws.onclose = resolve));
    this.ws.close();
    await Promise.race([closed, Bun.sleep(2000)]);
  }
}

/** The tick frames a node's ring holds for one pair after `since` (a `since` replay), in order, as sent. */
export async function ringOf(node: Pick<Node, 'port'>, channel: string, symbol: string, since: number): Promise<string[]> {
  const ws = new WebSocket(`ws://127.0.0.1:${node.port}/?apiKey=${TEST_KEY}`);
  const frames: string[] = [];
  let replayed = -1;
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data as string) as { type: string; replayed?: number };
    if (m.type === 'subscribed') replayed = m.replayed!;
    else if ((m.type === 'quote' || m.type === 'trade') && (replayed < 0 || frames.length < replayed)) frames.push(e.data as string);
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`cannot open a stream on port ${node.port}`));
  });
  ws.send(JSON.stringify({ action: 'subscribe', channels: [channel], symbols: [symbol], since }));
  await until(async () => replayed >= 0 && frames.length >= replayed, `the ${channel} ${symbol} replay from port ${node.port}`);
  ws.close();
  // Replayed frames come before the ack and any live frame.
  return frames.slice(0, replayed);
}
