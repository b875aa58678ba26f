// A full disk under a running server, on a small tmpfs mounted for the test: reads keep answering,
// /health says degraded with the cause, raw ticks waiting for a commit stay bounded (dropped and
// counted), and writing resumes by itself once space is freed; a start on the full disk is refused
// (exit 2). Needs root for `mount` (as in CI).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runMds, until } from './support/cli.ts';
import { mountSmallDisk, type SmallDisk } from './support/full-disk.ts';
import { spawnServer, WEDNESDAY_US_OPEN, type ChildServer } from './support/server.ts';

const RING = 128;
/** Ticks a ring may hold unwritten: its blocks but the spare one (64 ticks each). */
const RING_UNWRITTEN = Math.ceil(RING / 64) * 64;
const ARGS = ['--history-days', '1', '--ring-capacity', String(RING), '--sim-rate', '20', '--min-free-disk', '8MiB'];

let disk: SmallDisk;
let mountDir = '';

beforeAll(() => {
  disk = mountSmallDisk(64);
  mountDir = disk.path;
});

afterAll(() => disk.unmount());

interface Health {
  status: string;
  reason: string | null;
  symbols: number;
  disk: { space: string; free_bytes: number; writes: string; write_error: string | null; failing_since_ms: number | null; unwritten_ticks: number; dropped_ticks: number };
}

async function health(server: ChildServer): Promise<Health> {
  return (await server.json<Health>('/health')).body;
}

describe('a full disk', () => {
  test('a running server keeps serving reads, reports degraded, bounds unwritten ticks and resumes writing by itself', async () => {
    const dataDir = join(mountDir, 'data');
    mkdirSync(dataDir);
    let quoteTsAfterResume = 0;
    let droppedWhileFailing = 0;
    {
      await using server = await spawnServer(dataDir, ARGS);
      expect((await health(server)).status).toBe('ok');

      const filler = disk.fill();
      try {
        let failing: Health | null = null;
        // Failing at once; the cause follows when LMDB reports it.
        await until(async () => {
          failing = await health(server);
          return failing.disk.writes === 'failing' && failing.disk.write_error !== 'a commit failed';
        }, 'writes to fail, with the cause', 60_000);
        const degraded = failing!;
        expect(degraded.status).toBe('degraded');
        // LMDB reports a write past the end of the full file system as ENOSPC or, from its sync, EIO.
        expect(degraded.disk).toMatchObject({ space: 'low', writes: 'failing' });
        expect(degraded.disk.write_error).toMatch(/^(No space left on device|Input\/output error)$/);
        expect(degraded.reason).toStartWith(`writes to the data dir fail (${degraded.disk.write_error}, 0 KiB free): serving what is stored, retrying by itself;`);
        expect(degraded.disk.failing_since_ms).toBeGreaterThan(Date.parse(WEDNESDAY_US_OPEN));

        // Reads answer from what is stored and from memory.
        const quote = await server.json('/crypto/quote/BTCUSD');
        expect(quote.status).toBe(200);
        const range = await server.json('/crypto/agg/BTCUSD/1/minute/2026-03-03/2026-03-04?limit=5');
        expect(range.status).toBe(200);
        expect(range.body.results_count).toBe(5);

        // The ticks rings fill: the oldest unwritten ticks are dropped, counted, and memory stays bounded.
        await until(async () => (await health(server)).disk.dropped_ticks > 0, 'raw ticks to be dropped', 60_000);
        const bound = degraded.symbols * 2 * RING_UNWRITTEN;
        const first = await health(server);
        expect(first.disk.unwritten_ticks).toBeLessThanOrEqual(bound);
        await until(async () => (await health(server)).disk.dropped_ticks > first.disk.dropped_ticks + 1000, 'more raw ticks to be dropped', 60_000);
        const later = await health(server);
        expect(later.disk.unwritten_ticks).toBeLessThanOrEqual(bound);
        expect(later.disk.writes).toBe('failing');
        droppedWhileFailing = later.disk.dropped_ticks;
        expect(server.proc.exitCode).toBeNull();
        expect(server.output().match(/Z error writes to the data dir fail/g)).toHaveLength(1);

      } finally {
        // Space returns (also when an assertion above failed, for the next test).
        rmSync(filler, { force: true });
      }
      // Writing resumes without a restart.
      await until(async () => (await health(server)).disk.writes === 'ok', 'writes to resume', 60_000);
      const resumed = await health(server);
      expect(resumed).toMatchObject({ status: 'ok', reason: null });
      expect(resumed.disk).toMatchObject({ space: 'ok', writes: 'ok', write_error: null, failing_since_ms: null });
      expect(resumed.disk.dropped_ticks).toBeGreaterThanOrEqual(droppedWhileFailing);
      expect(server.output()).toContain('writes to the data dir work again');
      quoteTsAfterResume = (await server.json('/crypto/quote/BTCUSD')).body.timestamp;
      // A clean stop writes everything: what was ingested after the disk filled is on disk.
      server.proc.kill('SIGTERM');
      expect(await server.proc.exited).toBe(0);
      expect(server.output()).toContain('everything written is on disk');
    }
    {
      await using again = await spawnServer(dataDir, [...ARGS, '--feed', 'none']);
      const quote = await again.json('/crypto/quote/BTCUSD');
      expect(quote.body.timestamp).toBeGreaterThanOrEqual(quoteTsAfterResume);
    }
  }, 360_000);

  test('a stop while writes fail exits 0 saying so; a start on the full disk is refused with exit 2', async () => {
    const dataDir = join(mountDir, 'data');
    await using server = await spawnServer(dataDir, ARGS);
    const filler = disk.fill();
    try {
      await until(async () => (await health(server)).disk.writes === 'failing', 'writes to fail', 60_000);
      server.proc.kill('SIGTERM');
      expect(await server.proc.exited).toBe(0);
      expect(server.output()).toMatch(/stopped with writes failing \((No space left on device|Input\/output error)\): what was not yet written is lost/);

      expect(existsSync(join(dataDir, 'mds.mdb'))).toBe(true);
      const r = await runMds('serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...ARGS);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`mds: the disk of the data dir ${dataDir} is full (`);
      expect(r.err).toContain('free space there (see docs/operations.md, A full disk) and start again');
      expect(r.out).not.toContain('serving');
    } finally {
      rmSync(filler);
    }
  }, 180_000);
});
