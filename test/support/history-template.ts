// The simulator's first-start history, made once and copied: a test server on an empty data dir
// would otherwise spend some 2 s of CPU making the same deterministic history (same seed, clock
// and plan) that dozens of other test servers make. The template is what a first start leaves
// once its background build is done, minus any live tick: the copy then starts as a restart at the
// same instant, with the gap to fill empty. Tests of the first start itself (its log, its
// background build, its progress) opt out with `template: false` or `waitForHistory: false`.
//
// Templates live under the system temp dir, keyed by the history's settings and a hash of src/
// (and the runtime), so any change to the code that makes history makes a new one; the test
// workers of one run share them, and a template unused for two hours is removed (each change to src/ makes new ones).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { shiftedClock } from '../../src/clock.ts';
import type { ServeConfig } from '../../src/config.ts';
import { SimFeed } from '../../src/ingest/simulator/sim-feed.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';

const ROOT = resolve(import.meta.dir, '../..');
const CACHE = join(tmpdir(), 'mds-test-history-templates');
const UNUSED_FOR_MS = 2 * 3600_000;

let sourceHash: string | null = null;
/** A hash of every file under src/ and of the runtime: a template is only ever reused by the same code. */
function codeHash(): string {
  if (sourceHash !== null) return sourceHash;
  const hash = createHash('sha256').update(Bun.version).update(readFileSync(join(ROOT, 'package-lock.json')));
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(relative(ROOT, path)).update(readFileSync(path));
    }
  };
  walk(join(ROOT, 'src'));
  sourceHash = hash.digest('hex').slice(0, 16);
  return sourceHash;
}

/** Whether a server of this config on an empty data dir starts the way a template copy does. */
export function templateFits(config: ServeConfig): boolean {
  return config.feed === 'sim' && config.role === 'all' && config.clockStartMs !== null && config.nats === null && config.record === null;
}

const inProcess = new Map<string, Promise<string>>();

/** The template dir for the history of this config, made first if no worker made it yet. */
export function historyTemplate(config: ServeConfig): Promise<string> {
  const settings = { seed: config.seed, historyDays: config.historyDays, historyYears: config.historyYears, clockStartMs: config.clockStartMs, ringCapacity: config.ringCapacity };
  const key = createHash('sha256').update(codeHash()).update(JSON.stringify(settings)).digest('hex').slice(0, 24);
  let made = inProcess.get(key);
  // Made by this process but since removed (a cleanup of the temp dir): made again.
  if (made !== undefined && Bun.peek.status(made) === 'fulfilled' && !existsSync(join(Bun.peek(made) as string, 'mds.mdb'))) made = undefined;
  if (made === undefined) {
    made = makeTemplate(key, config);
    inProcess.set(key, made);
  }
  return made;
}

async function makeTemplate(key: string, config: ServeConfig): Promise<string> {
  const dir = join(CACHE, key);
  if (existsSync(join(dir, 'mds.mdb'))) return dir;
  mkdirSync(CACHE, { recursive: true });
  removeUnused();
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building);
  const clock = shiftedClock(config.clockStartMs!);
  const store = Store.open({ dataDir: building, ringCapacity: config.ringCapacity, nowMs: () => clock.nowMs(), log: () => {} });
  try {
    seedRegistry(store, ALL_INSTRUMENTS);
    const feed = new SimFeed(store, clock, { seed: config.seed, simRate: config.simRate, historyDays: config.historyDays, historyYears: config.historyYears }, () => {});
    const nowMs = clock.nowMs();
    // What `mds serve` asks of its feeds on a first start (src/cli/serve.ts), then the background build to its end.
    await feed.backfill({ endMs: nowMs - (nowMs % 60_000), isFirstStart: true });
    await feed.backfillOlder();
  } finally {
    await store.close();
  }
  rmSync(join(building, 'mds.mdb-lock'), { force: true });
  try {
    renameSync(building, dir);
  } catch {
    // Another worker finished the same template first: theirs is the same data.
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** Templates of older code: removed once nobody used them for two hours. */
function removeUnused(): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another worker meanwhile.
    }
  }
}

/** Copies the template into `dataDir` (empty or absent). */
export function copyTemplate(template: string, dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  cpSync(join(template, 'mds.mdb'), join(dataDir, 'mds.mdb'));
  const now = new Date();
  utimesSync(template, now, now);
}

/** Whether a data dir holds nothing yet (a first start). */
export function isEmptyDir(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}
