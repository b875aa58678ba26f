// Child processes of a bench run: spawned pinned to one core, their output kept, and every one of
// them (plus temp dirs) stopped at the end of the run — also on failure, Ctrl-C or a watchdog.
import type { Subprocess } from 'bun';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The bun binary running the bench; children use the same one. */
export const BUN = process.execPath;
export const REPO_ROOT = join(import.meta.dir, '..', '..');
/** The server under test (and ceilings, and in-process harnesses) run here ... */
export const SERVER_CORE = 0;
/** ... and load generators and clients here. */
export const LOAD_CORE = 1;

type Child = Subprocess<'ignore' | 'pipe', 'pipe', 'pipe'>;

const live = new Set<Child>();
const dirs = new Set<string>();

/** A temp dir removed at the end of the run whatever happens. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

/** Keeps the last lines a stream printed and lets callers await a line matching a pattern. */
export class OutputTail {
  readonly lines: string[] = [];
  private waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  private partial = '';
  readonly done: Promise<void>;

  constructor(stream: ReadableStream<Uint8Array>, private readonly keep = 400) {
    this.done = this.pump(stream);
  }

  private async pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) this.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // the child went away; what was read stays available
    }
    if (this.partial) this.push('\n');
  }

  private push(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      this.lines.push(line);
      if (this.lines.length > this.keep) this.lines.shift();
      this.waiters = this.waiters.filter((w) => {
        const m = line.match(w.re);
        if (m) w.resolve(m);
        return !m;
      });
    }
  }

  /** Resolves with the first line (from now on, or already seen) that matches. */
  waitFor(re: RegExp): Promise<RegExpMatchArray> {
    for (const line of this.lines) {
      const m = line.match(re);
      if (m) return Promise.resolve(m);
    }
    return new Promise((resolve) => this.waiters.push({ re, resolve }));
  }

  text(): string {
    return this.lines.join('\n');
  }
}

export interface Spawned {
  proc: Child;
  pid: number;
  stdout: OutputTail;
  stderr: OutputTail;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null if killed). */
  stop(graceMs?: number): Promise<number | null>;
}

/** Spawns `cmd` pinned to `core` (or a taskset core list, '0,1') with `taskset` (which execs, so the pid is the command's). */
export function spawnPinned(core: number | string, cmd: string[], opts: { cwd?: string; stdin?: 'ignore' | 'pipe' } = {}): Spawned {
  const proc = Bun.spawn(['taskset', '-c', String(core), ...cmd], {
    cwd: opts.cwd ?? REPO_ROOT,
    stdin: opts.stdin ?? 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, NO_COLOR: '1' },
  }) as Child;
  live.add(proc);
  void proc.exited.then(() => live.delete(proc));
  const stdout = new OutputTail(proc.stdout);
  const stderr = new OutputTail(proc.stderr);
  return {
    proc,
    pid: proc.pid,
    stdout,
    stderr,
    async stop(graceMs = 10_000) {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timedOut = await Promise.race([proc.exited.then(() => false), Bun.sleep(graceMs).then(() => true)]);
        if (timedOut) proc.kill('SIGKILL');
      }
      await proc.exited;
      return proc.exitCode;
    },
  };
}

/** Rejects after `ms` with `what` in the message, unless `promise` settles first. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: timed out after ${(ms / 1000).toFixed(0)} s`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** CPU time (user + system) a process has used so far, in seconds, from /proc. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Kills every child still running and removes every temp dir, synchronously (exit paths). */
export function killEverything(): void {
  for (const proc of live) {
    try {
      proc.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
  for (const dir of dirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort at exit
    }
  }
  dirs.clear();
}

/** Stops everything on signals, uncaught errors and exit; `watchdogMs` bounds the whole run. */
export function installCleanup(watchdogMs: number): void {
  process.on('exit', killEverything);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping everything it started\n`);
      killEverything();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (err) => {
    process.stderr.write(`bench: ${err.stack ?? err.message}\n`);
    killEverything();
    process.exit(1);
  });
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: the run exceeded ${(watchdogMs / 60_000).toFixed(0)} minutes; stopping everything\n`);
    killEverything();
    process.exit(1);
  }, watchdogMs);
  watchdog.unref();
}
