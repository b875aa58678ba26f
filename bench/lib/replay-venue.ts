// Starts and steers bench/lib/venue-replay.ts (a local venue replaying recorded frames) from a bench.
import { join } from 'node:path';
import { BUN, LOAD_CORE, spawnPinned, withTimeout, type Spawned } from './proc.ts';

export interface ReplayVenue {
  url: string;
  pid: number;
  /** Frames per second to send to each subscribed connection; 0 = as fast as it takes them, -1 = none. */
  setRate(framesPerS: number): void;
  /** Frames sent so far. */
  sent(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * `vary` (default true): each symbol's frames carry a changing bid and ask; false replays one
 * unchanged book per symbol.
 */
export async function startReplayVenue(venue: string, framesPerS: number, opts: { vary?: boolean } = {}): Promise<ReplayVenue> {
  const config = { venue, rate: framesPerS, vary: opts.vary ?? true };
  const child: Spawned = spawnPinned(LOAD_CORE, [BUN, join(import.meta.dir, 'venue-replay.ts'), JSON.stringify(config)], { stdin: 'pipe' });
  const exited = child.proc.exited.then((code) => Promise.reject(new Error(`replay venue exited with code ${code}: ${child.stderr.text()}`)));
  const m = await withTimeout(Promise.race([child.stdout.waitFor(/^READY (\d+)$/), exited]), 30_000, 'starting the replay venue');
  let asked = 0;
  const command = (line: string) => {
    const stdin = child.proc.stdin;
    if (stdin && typeof stdin !== 'number') {
      stdin.write(`${line}\n`);
      void stdin.flush();
    }
  };
  return {
    url: `ws://127.0.0.1:${m[1]}`,
    pid: child.pid,
    setRate: (rate) => command(`rate ${rate}`),
    async sent() {
      const k = ++asked;
      command(`count ${k}`);
      const reply = await withTimeout(child.stdout.waitFor(new RegExp(`^SENT ${k} (\\d+)$`)), 10_000, 'the replay venue count');
      return Number(reply[1]);
    },
    async stop() {
      await child.stop(2000);
    },
  };
}
