// `mds serve --log-format/--log-level` as an operator runs it: the whole stdout and stderr of a
// real server, read after it stops, hold no key secret and no query string; JSON lines parse.
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMds, until } from '../support/cli.ts';
import { connect } from '../support/ws-client.ts';
import { cleanEnv } from '../support/env.ts';
import { tempDir } from '../support/temp-dir.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');

interface Run {
  port: number;
  /** Everything written to stdout so far. */
  out: () => string;
  /** Stops the server by SIGTERM and resolves with its whole stdout and stderr. */
  stop: () => Promise<{ out: string; err: string }>;
}

/** A port nobody listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Runs `mds serve` keeping all it prints; ready once /health answers (the log may hide the start lines). */
async function serveLogged(dataDir: string, env: Record<string, string>, ...args: string[]): Promise<Run> {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir, '--feed', 'none', '--no-dev-key', ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...cleanEnv(), ...env } });
  let out = '';
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) out += decoder.decode(chunk, { stream: true });
  })();
  const err = new Response(proc.stderr as ReadableStream).text();
  await until(async () => {
    if (proc.exitCode !== null) throw new Error(`mds serve exited: ${out}\n${await err}`);
    return (await fetch(`http://127.0.0.1:${port}/health`).catch(() => null))?.status === 200;
  }, 'the server to answer /health');
  return {
    port,
    out: () => out,
    stop: async () => {
      proc.kill('SIGTERM');
      await proc.exited;
      await reading;
      return { out, err: await err };
    },
  };
}

async function createKey(dataDir: string): Promise<{ id: string; key: string }> {
  const r = await runMds('keys', 'create', '--json', '--plan', 'pro', '--data-dir', dataDir);
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as { id: string; key: string };
}

describe('mds serve logs', () => {
  test('--log-format json: keys sent as ?apiKey=, x-api-key and on a stream revoked meanwhile never reach the log; every line is an object with time, level, msg', async () => {
    using dir = tempDir('mds-logs-');
    const rest = await createKey(dir.path);
    const streamed = await createKey(dir.path);
    const wrong = 'mds_not-a-key-SECRET-0123456789';
    const server = await serveLogged(dir.path, {}, '--log-format', 'json');
    let stopped: { out: string; err: string } | null = null;
    try {
      const base = `http://127.0.0.1:${server.port}`;
      for (const path of ['/crypto/quote/BTCUSD', '/crypto/quote/NOPEUSD', '/crypto/agg/BTCUSD/1/minute/2026-01-02/2026-01-01', '/nowhere']) {
        await fetch(`${base}${path}?apiKey=${rest.key}&x=1`);
        await fetch(`${base}${path}`, { headers: { 'x-api-key': rest.key } });
        await fetch(`${base}${path}?apiKey=${wrong}`);
      }
      await using c = await connect(`ws://127.0.0.1:${server.port}/?apiKey=${streamed.key}`);
      await c.next((m) => m.type === 'ready');
      expect((await runMds('keys', 'revoke', streamed.id, '--data-dir', dir.path)).code).toBe(0);
      await c.closed;
      await until(async () => server.out().includes('stream: closed'), 'the stream close to be logged');
    } finally {
      stopped = await server.stop();
    }
    const all = `${stopped.out}\n${stopped.err}`;
    for (const secret of [rest.key, streamed.key, wrong]) expect(all).not.toContain(secret);
    expect(all).not.toContain('apiKey=');
    const lines = stopped.out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) {
      expect(typeof line.time === 'string' && !Number.isNaN(Date.parse(line.time))).toBe(true);
      expect(['debug', 'info', 'warn', 'error']).toContain(line.level as string);
      expect(typeof line.msg).toBe('string');
    }
    expect(lines.find((l) => String(l.msg).startsWith('stream: closed'))).toMatchObject({ level: 'info', key_id: streamed.id });
    expect(lines.some((l) => String(l.msg).startsWith('mds ') && String(l.msg).includes('serving REST'))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped; everything written is on disk' });
  });

  test('MDS_LOG_LEVEL=warn keeps the warnings and drops the info lines; text lines are time, level, message', async () => {
    using dir = tempDir('mds-logs-');
    const r = await runMds('keys', 'create', '--json', '--plan', 'free', '--data-dir', dir.path);
    const { id } = JSON.parse(r.out) as { id: string };
    const plansFile = join(dir.path, 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ plans: [{ name: 'team', description: 'test', classes: ['crypto'], quota: 1000, quota_window_days: 30, per_minute: null, stream_connections: 1, stream_subscriptions: 5, addons: [] }] }));
    const server = await serveLogged(dir.path, { MDS_LOG_LEVEL: 'warn' }, '--plans', plansFile);
    const { out } = await server.stop();
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z warn key ${id} has plan "free", which the plans table does not have`));
  });
});
