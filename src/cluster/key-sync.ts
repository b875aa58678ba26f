// Keys and plans across a cluster, through one NATS KV bucket: the ingest node, where keys are
// managed (`mds keys`), publishes each key record (the hash of its secret, never a secret) and its
// plans table whenever they change; each edge follows the bucket into its own store and its
// Authenticator, so a key made or revoked on the ingest node works or stops on every edge within a
// second, and open stream connections follow as they do for `mds keys` on a single node.
import { Type as T } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { KV, KvEntry } from '@nats-io/kv';
import { ClosedConnectionError } from '@nats-io/transport-node';
import type { Authenticator } from '../auth/authenticator.ts';
import type { KeyRecord } from '../domain/account.ts';
import { ADDONS, parsePlans, type Plan } from '../domain/plans.ts';
import type { LineLog } from '../log.ts';
import type { Store } from '../store/index.ts';
import { KEYS_BUCKET } from './nats.ts';

/** Bucket entries: `plans` (the plans table, as a plans file has it) and `key.<id>` per key. */
export const PLANS_ENTRY = 'plans';
const KEY_PREFIX = 'key.';
/** A failed publication, or a watch that ended, is tried again after this long. */
const REPUBLISH_MS = 1000;

/**
 * A key as the bucket carries it: what an edge needs to check it. No secret exists to carry (only
 * its hash is stored); the key's name is the operator's label and stays on the ingest node.
 */
const WireKeySchema = T.Object({
  id: T.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
  hash: T.String({ pattern: '^[0-9a-f]{64}$' }),
  plan: T.String(),
  markets: T.Array(T.String()),
  addons: T.Array(T.Union(ADDONS.map((a) => T.Literal(a)))),
  createdMs: T.Number(),
  revokedMs: T.Union([T.Number(), T.Null()]),
});
type WireKey = Omit<KeyRecord, 'name'>;

function toWire(r: KeyRecord): WireKey {
  return { id: r.id, hash: r.hash, plan: r.plan, markets: r.markets, addons: r.addons, createdMs: r.createdMs, revokedMs: r.revokedMs };
}

/** Whether a stored record already says what the bucket says (`wire` as toWire made it; the name is the edge's own). */
function isSameKey(stored: KeyRecord, wire: WireKey): boolean {
  return JSON.stringify(toWire(stored)) === JSON.stringify(wire);
}

/** Bucket requests in flight at once when many keys are read or written (a start with thousands of keys). */
const REQUESTS_AT_ONCE = 64;

/** Runs `fn` over `items`, REQUESTS_AT_ONCE at a time. */
async function inChunks<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += REQUESTS_AT_ONCE) await Promise.all(items.slice(i, i + REQUESTS_AT_ONCE).map(fn));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The ingest node's side: the bucket follows this node's keys and plans table. */
export class KeyPublisher {
  /** What the bucket holds, by entry name (as this node last wrote or read it). */
  private readonly published = new Map<string, string>();
  private running: Promise<void> | null = null;
  private again = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly kv: KV,
    private readonly store: Store,
    private readonly plans: readonly Plan[],
    private readonly log: LineLog,
  ) {}

  /** Publishes what the bucket lacks, then every key change the Authenticator picks up. */
  async start(auth: Authenticator): Promise<void> {
    const names: string[] = [];
    for await (const name of await this.kv.keys()) names.push(name);
    await inChunks(names, async (name) => {
      const entry = await this.kv.get(name);
      if (entry !== null && entry.operation === 'PUT') this.published.set(name, entry.string());
    });
    const own = new Set(this.store.accounts.list().map((r) => `${KEY_PREFIX}${r.id}`));
    const strays = [...this.published.keys()].filter((name) => name.startsWith(KEY_PREFIX) && !own.has(name));
    // Never removed from the bucket: an ingest node started on the wrong data dir must not take every key away.
    if (strays.length > 0) this.log(`warning: keys: ${strays.length} keys in the cluster's bucket are not in this data dir (${strays.slice(0, 5).map((n) => n.slice(KEY_PREFIX.length)).join(', ')}${strays.length > 5 ? ', ...' : ''}): edges keep serving them (take one away with: nats kv del ${KEYS_BUCKET} key.<id>)`);
    await this.publish();
    auth.onKeysChanged(() => this.schedule());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry !== null) clearTimeout(this.retry);
    await this.running;
  }

  /** Runs one publication at a time; a change during one runs another after it. */
  private schedule(): void {
    if (this.stopped) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.running = this.publish()
      .then(
        () => {
          if (this.failing) this.log('keys: publishing to NATS again');
          this.failing = false;
        },
        (err: unknown) => {
          if (!this.failing) this.log(`warning: keys: cannot publish key changes to NATS (${errorText(err)}): edges get them once it can, tried every ${REPUBLISH_MS / 1000} s`);
          this.failing = true;
          if (this.stopped) return;
          this.retry = setTimeout(() => {
            this.retry = null;
            this.schedule();
          }, REPUBLISH_MS);
        },
      )
      .then(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
  }

  /** Writes every entry the bucket does not hold as this node has it: the plans first, then the keys. */
  private async publish(): Promise<void> {
    const put = async ([name, value]: [string, string]) => {
      await this.kv.put(name, value);
      this.published.set(name, value);
    };
    const plans = JSON.stringify({ plans: this.plans });
    if (this.published.get(PLANS_ENTRY) !== plans) await put([PLANS_ENTRY, plans]);
    const changed: [string, string][] = [];
    for (const r of this.store.accounts.list()) {
      const name = `${KEY_PREFIX}${r.id}`;
      const value = JSON.stringify(toWire(r));
      if (this.published.get(name) !== value) changed.push([name, value]);
    }
    await inChunks(changed, put);
  }
}

/** An edge's side: its store's keys and its plans table follow the bucket. */
export class KeyFollower {
  /** The keys as the bucket has them, by id. */
  private readonly keys = new Map<string, WireKey>();
  /** The bucket's plans table, until applied. */
  private plansJson: string | null = null;
  private hasIngestPlans = false;
  private isInitial = true;
  private watch: Awaited<ReturnType<KV['watch']>> | null = null;
  private reconciling = false;
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly kv: KV,
    private readonly store: Store,
    private readonly log: LineLog,
  ) {}

  /**
   * Follows the bucket; resolves once what it holds now is applied (or after `timeoutMs`, with a
   * warning: the edge then serves the keys its store has until the bucket answers).
   */
  async start(auth: Authenticator, timeoutMs = 10_000): Promise<void> {
    // `mds keys` run on an edge's own data dir is undone: the ingest node is where keys are managed.
    auth.onKeysChanged(() => {
      if (!this.isInitial) this.reconcile(null, auth, 'local');
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
    const late = await Promise.race([this.follow(auth).then(() => false), timedOut]);
    clearTimeout(timer);
    if (late) this.log(`warning: keys: the key bucket sent nothing for ${timeoutMs / 1000} s: serving this data dir's keys until it does`);
  }

  stop(): void {
    this.stopped = true;
    if (this.retry !== null) clearTimeout(this.retry);
    this.watch?.stop();
  }

  /**
   * One watch of the bucket; resolves once what the bucket held when it began is applied. The
   * client keeps a watch going across NATS restarts; one that ends all the same is begun again.
   */
  private async follow(auth: Authenticator): Promise<void> {
    // A watch sends the whole bucket first: applied as a whole, keys gone meanwhile included.
    this.isInitial = true;
    this.keys.clear();
    const { values } = await this.kv.status();
    const watch = await this.kv.watch();
    this.watch = watch;
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const finishInitial = () => {
      this.applyPlans(auth);
      const changed = this.reconcile(null, auth, 'initial');
      this.isInitial = false;
      this.log(`keys: following the ingest node's keys over NATS: ${this.keys.size} keys${changed > 0 ? `, ${changed} written to this data dir` : ''}; plans ${this.hasIngestPlans ? 'of the ingest node' : 'of this node (none published yet)'}`);
      ready();
    };
    // An empty bucket sends nothing to wait for.
    if (values === 0) finishInitial();
    void (async () => {
      try {
        for await (const entry of watch) {
          this.take(entry);
          // The watch marks the last entry of what the bucket held when it began as an update.
          if (this.isInitial) {
            if (entry.isUpdate) finishInitial();
          } else if (entry.key === PLANS_ENTRY) this.applyPlans(auth);
          else this.reconcile([entry.key.slice(KEY_PREFIX.length)], auth, 'update');
        }
      } catch (err) {
        this.log(`warning: keys: the key bucket's watch failed: ${errorText(err)}`);
      }
      if (!this.stopped) this.followAgain(auth);
    })();
    return isReady;
  }

  private followAgain(auth: Authenticator): void {
    this.log(`warning: keys: the key bucket's watch ended: following it again in ${REPUBLISH_MS / 1000} s`);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      this.follow(auth).catch((err: unknown) => {
        // The node's connection is closed only when it stops (or crashes, in tests): nothing to follow.
        if (!(err instanceof ClosedConnectionError)) this.followAgain(auth);
      });
    }, REPUBLISH_MS);
  }

  /** Records one bucket entry; bad entries are skipped with a warning. */
  private take(entry: KvEntry): void {
    if (entry.key === PLANS_ENTRY) {
      if (entry.operation === 'PUT') this.plansJson = entry.string();
      return;
    }
    if (!entry.key.startsWith(KEY_PREFIX)) return;
    const id = entry.key.slice(KEY_PREFIX.length);
    if (entry.operation !== 'PUT') {
      this.keys.delete(id);
      return;
    }
    let wire: unknown;
    try {
      wire = JSON.parse(entry.string());
    } catch {
      wire = null;
    }
    if (!Value.Check(WireKeySchema, wire) || wire.id !== id) {
      this.log(`warning: keys: the bucket's entry ${entry.key} is not a key record: skipped`);
      return;
    }
    this.keys.set(id, toWire({ ...wire, name: '' }));
  }

  private applyPlans(auth: Authenticator): void {
    if (this.plansJson === null) return;
    let parsed: ReturnType<typeof parsePlans>;
    try {
      parsed = parsePlans(JSON.parse(this.plansJson));
    } catch (err) {
      parsed = { errors: [errorText(err)] };
    }
    this.plansJson = null;
    if ('errors' in parsed) {
      this.log(`warning: keys: the ingest node's plans table is not valid (${parsed.errors[0]}): keeping this node's`);
      return;
    }
    auth.replacePlans(parsed.plans);
    this.hasIngestPlans = true;
    if (!this.isInitial) this.log(`keys: plans table of the ingest node applied (${parsed.plans.map((p) => p.name).join(', ')})`);
  }

  /**
   * Makes the store's keys (those of `ids`, or all) say what the bucket says; returns how many
   * changed. `reason` words the log: a local change undone is a warning.
   */
  private reconcile(ids: Iterable<string> | null, auth: Authenticator, reason: 'initial' | 'update' | 'local'): number {
    if (this.reconciling) return 0;
    const accounts = this.store.accounts;
    const all = ids === null ? new Set([...this.keys.keys(), ...accounts.list().map((r) => r.id)]) : ids;
    const put: KeyRecord[] = [];
    const remove: string[] = [];
    const what: string[] = [];
    for (const id of all) {
      const wire = this.keys.get(id);
      const stored = accounts.get(id);
      if (wire === undefined) {
        if (stored !== undefined) remove.push(id);
      } else if (stored === undefined || !isSameKey(stored, wire)) {
        put.push({ ...wire, name: stored?.name ?? '' });
        what.push(stored === undefined ? 'added' : wire.revokedMs !== null && stored.revokedMs === null ? 'revoked' : 'updated');
      }
    }
    if (put.length === 0 && remove.length === 0) return 0;
    this.reconciling = true;
    try {
      accounts.replicate(put, remove);
      auth.keysChanged();
    } finally {
      this.reconciling = false;
    }
    const changed = [...put.map((r) => r.id), ...remove];
    if (reason === 'local') this.log(`warning: keys: ${changed.join(', ')} changed in this edge's data dir: put back as the ingest node has ${changed.length > 1 ? 'them' : 'it'} (keys are managed on the ingest node)`);
    else if (reason === 'update') {
      put.forEach((r, i) => this.log(`keys: ${r.id} ${what[i]} (from the ingest node)`));
      for (const id of remove) this.log(`keys: ${id} removed (no longer in the key bucket)`);
    }
    return changed.length;
  }
}
