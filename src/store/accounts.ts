// API keys and their usage counters. Keys are written synchronously (the `mds keys` commands run
// in their own process against the same data dir) and bump a version the server polls; usage
// counters live in memory and are persisted through the write queue, so a restart does not
// refill a quota.
import { createHash, randomBytes } from 'node:crypto';
import type { KeyRecord } from '../domain/account.ts';
import type { StoreDbs } from './env.ts';
import type { Write, WriteQueue } from './write-queue.ts';

export type NewKey = Pick<KeyRecord, 'name' | 'plan' | 'markets' | 'addons'>;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export class AccountStore {
  private byHashMap = new Map<string, KeyRecord>();
  private byIdMap = new Map<string, KeyRecord>();
  private version = -1;
  private readonly usage = new Map<string, number>();
  /** The write-queue mark of each usage window counted in this process (its id and its write). */
  private readonly usageMarks = new Map<string, { id: string; write: () => Write }>();

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
  ) {
    this.refresh();
  }

  /** Reloads the keys when another process changed them; cheap when nothing changed. */
  refresh(): boolean {
    this.dbs.root.resetReadTxn?.();
    const version = (this.dbs.meta.get('keysVersion') as number | undefined) ?? 0;
    if (version === this.version) return false;
    const next = new Map<string, KeyRecord>();
    const ids = new Map<string, KeyRecord>();
    for (const { value } of this.dbs.keys.getRange()) {
      const record = value as KeyRecord;
      next.set(record.hash, record);
      ids.set(record.id, record);
    }
    this.byHashMap = next;
    this.byIdMap = ids;
    this.version = version;
    return true;
  }

  byHash(hash: string): KeyRecord | undefined {
    return this.byHashMap.get(hash);
  }

  /** A key by id as of the last refresh (no read of the database). */
  byId(id: string): KeyRecord | undefined {
    return this.byIdMap.get(id);
  }

  list(): KeyRecord[] {
    return [...this.dbs.keys.getRange()].map(({ value }) => value as KeyRecord).sort((a, b) => a.createdMs - b.createdMs);
  }

  get(id: string): KeyRecord | undefined {
    return this.dbs.keys.get(id) as KeyRecord | undefined;
  }

  /** Creates a key; the secret is returned once and never stored. */
  create(fields: NewKey, nowMs: number): { record: KeyRecord; secret: string } {
    const secret = `mds_${randomBytes(24).toString('base64url')}`;
    const record: KeyRecord = { id: `key_${randomBytes(6).toString('hex')}`, ...fields, createdMs: nowMs, revokedMs: null, hash: hashSecret(secret) };
    this.write(record);
    return { record, secret };
  }

  update(id: string, patch: Partial<NewKey> & { revokedMs?: number }): KeyRecord | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next: KeyRecord = { ...current, ...patch };
    this.write(next);
    return next;
  }

  /**
   * Makes the stored keys follow another node's (a cluster edge applying what the ingest node
   * publishes): `put` written as given, `remove` deleted, in one transaction.
   */
  replicate(put: readonly KeyRecord[], remove: readonly string[]): void {
    if (put.length === 0 && remove.length === 0) return;
    this.dbs.root.transactionSync(() => {
      for (const record of put) this.dbs.keys.putSync(record.id, record);
      for (const id of remove) this.dbs.keys.removeSync(id);
      this.dbs.meta.putSync('keysVersion', ((this.dbs.meta.get('keysVersion') as number | undefined) ?? 0) + 1);
    });
    this.refresh();
  }

  private write(record: KeyRecord): void {
    this.dbs.root.transactionSync(() => {
      this.dbs.keys.putSync(record.id, record);
      this.dbs.meta.putSync('keysVersion', ((this.dbs.meta.get('keysVersion') as number | undefined) ?? 0) + 1);
    });
    this.refresh();
  }

  /** Calls counted for a key in the quota window starting at `windowStartMs`. */
  usageOf(id: string, windowStartMs: number): number {
    return this.usageAt(usageKey(id, windowStartMs));
  }

  /** usageOf by the window's prebuilt key (`usageKey`): the gate's path, which builds it once per window. */
  usageAt(k: string): number {
    let n = this.usage.get(k);
    if (n === undefined) {
      n = (this.dbs.usage.get(k) as number | undefined) ?? 0;
      this.usage.set(k, n);
    }
    return n;
  }

  /** Counts one call (exact: the event loop is the only writer). */
  addUsage(id: string, windowStartMs: number): number {
    return this.addUsageAt(usageKey(id, windowStartMs));
  }

  /** addUsage by the window's prebuilt key. */
  addUsageAt(k: string): number {
    const n = this.usageAt(k) + 1;
    this.usage.set(k, n);
    let mark = this.usageMarks.get(k);
    if (mark === undefined) {
      // One mark per window, kept: the queue calls `write` at the next flush for the count then.
      mark = { id: `usage:${k}`, write: () => ({ db: this.dbs.usage, key: k, value: this.usage.get(k)! }) };
      this.usageMarks.set(k, mark);
    }
    this.queue.mark(mark.id, mark.write);
    return n;
  }
}

/** The usage db's key of a key's quota window: `id|windowStartMs`. */
export function usageKey(id: string, windowStartMs: number): string {
  return `${id}|${windowStartMs}`;
}
