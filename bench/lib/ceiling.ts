// Starts and stops ceiling servers (bench/lib/ceiling-server.ts): one process per body, pinned to
// the same core as the server under test, started only for its own measurement.
import { join } from 'node:path';
import { BUN, removeDir, SERVER_CORE, spawnPinned, tempDir, withTimeout } from './proc.ts';

export interface Ceiling {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** `contract`: the ceiling also reads the key header and sends our per-request response headers. */
export async function startCeiling(body: Uint8Array, contract = false): Promise<Ceiling> {
  const dir = tempDir('mds-ceiling-');
  const file = join(dir, 'body.json');
  await Bun.write(file, body);
  const child = spawnPinned(SERVER_CORE, [BUN, join(import.meta.dir, 'ceiling-server.ts'), file, ...(contract ? ['--contract'] : [])]);
  const stop = async () => {
    await child.stop(5000);
    removeDir(dir);
  };
  try {
    const exited = child.proc.exited.then((code) => ({ code }));
    const m = await withTimeout(Promise.race([child.stdout.waitFor(/ceiling listening on (\d+)/), exited]), 20_000, 'starting the ceiling server');
    if ('code' in m) throw new Error(`ceiling server exited with code ${m.code}: ${child.stderr.text()}`);
    return { base: `http://127.0.0.1:${m[1]}`, pid: child.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
