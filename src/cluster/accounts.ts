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
import { KeyFollower, KeyPublisher } from './key-sync.ts';
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
