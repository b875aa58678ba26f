// After a full disk and any stop, the store reopens with everything that was acknowledged. A loop
// on a real tmpfs (mounted for the test: root, as in CI): a writer process (support/full-disk-writer)
// writes ticks and bars, a filler takes the last free byte (or leaves a few pages so a commit fails
// half way), and the writer is stopped by SIGTERM or killed by SIGKILL, while commits fail or just
// after the space came back. Each next writer must open the store (no refusal, no SIGBUS while it
// reads everything back) and find every acknowledged tick count and bar.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, rmSync, truncateSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkStoreFile } from '../../src/store/index.ts';
import { runMds } from '../support/cli.ts';
import { mountSmallDisk, type SmallDisk } from '../support/full-disk.ts';

const WRITER = resolve(import.meta.dir, '../support/full-disk-writer.ts');
/** Iterations: a quarter each of SIGKILL and SIGTERM while failing, and of each just after space returned. */
const ITERATIONS = 20;
const PAGE = 4096;

interface Counts {
  quotes: number;
  trades: number;
  bars: number;
}

class Writer {
  readonly proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>;
  /** Resolves when the writer's stdout is read to its end. */
  readonly drained: Promise<void>;
  private out = '';
  private readonly waiters: (() => void)[] = [];

  constructor(dataDir: string) {
    const proc = Bun.spawn([process.execPath, WRITER, dataDir], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    this.proc = proc;
    this.drained = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of proc.stdout) {
        this.out += decoder.decode(chunk);
        for (const wake of this.waiters.splice(0)) wake();
      }
      for (const wake of this.waiters.splice(0)) wake();
    })();
  }

  lines(): string[] {
    return this.out.split('\n').filter((l) => l.length > 0);
  }

  /** Resolves once a line matches `pattern`; rejects when the writer ends first. */
  async line(pattern: RegExp, after = 0): Promise<string> {
    for (;;) {
      const found = this.lines().slice(after).find((l) => pattern.test(l));
      if (found !== undefined) return found;
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
        throw new Error(`the writer ended (${this.proc.exitCode ?? this.proc.signalCode}) before printing ${pattern}:\n${this.out}\n${await new Response(this.proc.stderr).text()}`);
      }
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  lastAck(): Counts | null {
    const ack = this.lines().findLast((l) => l.startsWith('ack '));
    return ack === undefined ? null : counts(ack);
  }
}

function counts(line: string): Counts {
  const [, quotes, trades, bars] = line.split(' ').map(Number);
  return { quotes: quotes!, trades: trades!, bars: bars! };
}

/** A small deterministic generator (mulberry32), so a failing iteration can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let disk: SmallDisk;

beforeAll(() => {
  disk = mountSmallDisk(32);
});

afterAll(() => disk.unmount());

describe('a store after a full disk', () => {
  test(`reopens after ${ITERATIONS} full disks ended by SIGTERM or SIGKILL, with every acknowledged write`, async () => {
    const dataDir = join(disk.path, 'data');
    mkdirSync(dataDir);
    const rand = random(29);
    let acked: Counts = { quotes: 0, trades: 0, bars: 0 };
    for (let i = 0; i < ITERATIONS; i++) {
      const writer = new Writer(dataDir);
      const opened = (await writer.line(/^opened /)).split(' ');
      const stored = counts(opened.join(' '));
      const what = `iteration ${i}`;
      // Every write acknowledged before the disk filled is there, bars without gap or change.
      expect({ what, whole: opened[4] }).toEqual({ what, whole: 'ok' });
      expect({ what, quotes: stored.quotes >= acked.quotes, trades: stored.trades >= acked.trades, bars: stored.bars >= acked.bars }).toEqual({ what, quotes: true, trades: true, bars: true });

      // Writes commit, then the disk fills: to the last byte, or with a few pages left so a
      // commit fails half way through its pages.
      const beforeFill = writer.lines().length;
      await writer.line(/^ack /, beforeFill);
      await writer.line(/^ack /, writer.lines().length);
      const filler = disk.fill();
      if (rand() < 0.5) truncateSync(filler, Math.max(0, statSync(filler).size - PAGE * Math.floor(1 + rand() * 64)));
      await writer.line(/^failing$/);

      const mode = i % 4;
      const signal = mode % 2 === 0 ? 'SIGKILL' : 'SIGTERM';
      // Half the stops come while commits fail, half just after space is back (a retry under way).
      if (mode >= 2) rmSync(filler);
      writer.proc.kill(signal);
      const code = await writer.proc.exited;
      await writer.drained;
      rmSync(filler, { force: true });
      if (signal === 'SIGTERM') {
        expect({ what, code, stopped: writer.lines().some((l) => l.startsWith('stopped ')) }).toEqual({ what, code: 0, stopped: true });
      }
      acked = writer.lastAck() ?? acked;
    }
    // The store every command opens: the check accepts it, and a CLI command runs on it.
    expect(() => checkStoreFile(dataDir)).not.toThrow();
    const keys = await runMds('keys', 'list', '--data-dir', dataDir);
    expect({ code: keys.code, err: keys.err }).toEqual({ code: 0, err: '' });
  }, 120_000);

  test('a new store is not created on a full disk: exit 2, and no empty mds.mdb left behind', async () => {
    const dataDir = join(disk.path, 'new');
    const filler = disk.fill();
    try {
      const r = await runMds('keys', 'list', '--data-dir', dataDir);
      expect({ code: r.code, err: r.err }).toEqual({ code: 2, err: `mds: the disk of the data dir ${dataDir} is full (0 KiB free; a new store needs at least 1.0 MiB): free space there and try again\n` });
      expect(existsSync(join(dataDir, 'mds.mdb'))).toBe(false);
    } finally {
      rmSync(filler);
    }
    expect((await runMds('keys', 'list', '--data-dir', dataDir)).code).toBe(0);
  }, 30_000);
});
