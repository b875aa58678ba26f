// The accounts of a cluster node (--role ingest or edge), what `mds serve` wires: keys and plans
// through the key bucket (the ingest node publishes, edges follow) and quotas leased from the
// quota buckets by every node that serves, the ingest node included, so all calls count together.
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Plan } from '../domain/plans.ts';
import type { Clock } from '../clock.ts';
import type { LineLog } from '../log.ts';
import type { Store } from '../store/index.ts';
import type { CountedWindow, QuotaBackend, TakeOutcome, WindowKind } from '../auth/quota-backend.ts';
import { KeyFollower, KeyPublisher } from './key-sync.ts';
import type { NatsLink } from './link.ts';
import { KEYS_BUCKET } from './nats.ts';
import { KV_TIMEOUT_MS, openQuotaLeases, type QuotaLeases } from './quota-leases.ts';

export interface ClusterAccounts {
  /** The Authenticator's quota backend. */
  quota: QuotaLeases;
  /** Starts the key sync over `store`; on an edge, resolves once the bucket's keys and plans are in it. */
  start(auth: Authenticator, store: Store): Promise<void>;
  /** Stops the key sync and gives back the unused calls of the leases (before the store closes). */
  stop(): Promise<void>;
}

export interface ClusterAccountsOptions {
  role: 'ingest' | 'edge';
  clock: Clock;
  /** This node's plans table: the ingest node publishes it; an edge uses it until the ingest node's arrives. */
  plans: readonly Plan[];
  log: LineLog;
  /** See QuotaLeasesOptions.recheckMs. */
  recheckMs?: number;
}

/**
 * Opens the buckets (made if missing): everything that can fail on the NATS side (no JetStream,
 * no permission) fails here, before `mds serve` touches its data dir.
 */
export async function openClusterAccounts(nc: NatsConnection, opts: ClusterAccountsOptions): Promise<ClusterAccounts> {
  let keys: Awaited<ReturnType<Kvm['create']>>;
  let quota: QuotaLeases;
  try {
    keys = await new Kvm(jetstream(nc, { timeout: KV_TIMEOUT_MS })).create(KEYS_BUCKET, { history: 1 });
    quota = await openQuotaLeases(nc, opts.clock, opts.log, opts.recheckMs);
  } catch (err) {
    throw new Error(`cannot open the NATS KV buckets of keys and quotas (is JetStream on: nats-server -js?): ${err instanceof Error ? err.message : String(err)}`);
  }
  let sync: KeyPublisher | KeyFollower | null = null;
  return {
    quota,
    start: (auth, store) => {
      sync = opts.role === 'ingest' ? new KeyPublisher(keys, store, opts.plans, opts.log) : new KeyFollower(keys, store, opts.log);
      return sync.start(auth);
    },
    stop: async () => {
      await sync?.stop();
      await quota.stop();
    },
  };
}

/**
 * The quota backend of a node whose buckets are not open yet (NATS not reached since the start):
 * a stored key's call gets 503 `quota service unavailable` (never served unleased) until they are.
 */
class DeferredQuota implements QuotaBackend {
  real: QuotaLeases | null = null;

  tryTake(keyId: string, quota: CountedWindow | null, minute: CountedWindow | null): TakeOutcome {
    return this.real === null ? 'unavailable' : this.real.tryTake(keyId, quota, minute);
  }

  usedOf(keyId: string, kind: WindowKind, startMs: number): number {
    return this.real?.usedOf(keyId, kind, startMs) ?? 0;
  }
}

/** The cluster accounts of `mds serve`: opened on the node's NATS link once it is up, tried again until they open. */
export interface LinkedAccounts {
  quota: QuotaBackend;
  /** Begins once the link is up; resolves when the accounts are in use, or after `waitMs` (the node then serves meanwhile). */
  start(auth: Authenticator, store: Store, waitMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** How long between attempts to open the buckets when NATS answers but they cannot be opened. */
const REOPEN_MS = 5_000;

export function linkedAccounts(link: NatsLink, opts: ClusterAccountsOptions): LinkedAccounts {
  const quota = new DeferredQuota();
  let accounts: ClusterAccounts | null = null;
  let stopped = false;
  let opening = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const open = async (nc: NatsConnection, auth: Authenticator, store: Store) => {
    if (accounts !== null || opening || stopped) return;
    opening = true;
    try {
      const opened = await openClusterAccounts(nc, opts);
      if (stopped) return void (await opened.stop());
      accounts = opened;
      quota.real = opened.quota;
      await opened.start(auth, store);
      ready();
    } catch (err) {
      opts.log(`error: ${err instanceof Error ? err.message : String(err)}; trying again in ${REOPEN_MS / 1000} s (stored keys get 503 meanwhile)`);
      retry = setTimeout(() => void open(nc, auth, store), REOPEN_MS);
    } finally {
      opening = false;
    }
  };
  return {
    quota,
    start: async (auth, store, waitMs) => {
      link.onUp((nc) => void open(nc, auth, store));
      if (link.nc !== null) void open(link.nc, auth, store);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([isReady, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    },
    stop: async () => {
      stopped = true;
      if (retry !== null) clearTimeout(retry);
      await accounts?.stop();
    },
  };
}
