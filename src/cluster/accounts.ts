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
  /** Starts the key sync; on an edge, resolves once the bucket's keys and plans are in its store. */
  start(auth: Authenticator): Promise<void>;
  /** Stops the key sync and gives back the unused calls of the leases (before the store closes). */
  stop(): Promise<void>;
}

export interface ClusterAccountsOptions {
  role: 'ingest' | 'edge';
  store: Store;
  clock: Clock;
  /** This node's plans table: the ingest node publishes it; an edge uses it until the ingest node's arrives. */
  plans: readonly Plan[];
  log: LineLog;
  /** See QuotaLeasesOptions.recheckMs. */
  recheckMs?: number;
}

export async function openClusterAccounts(nc: NatsConnection, opts: ClusterAccountsOptions): Promise<ClusterAccounts> {
  const keys = await new Kvm(jetstream(nc, { timeout: KV_TIMEOUT_MS })).create(KEYS_BUCKET, { history: 1 });
  const quota = await openQuotaLeases(nc, opts.clock, opts.log, opts.recheckMs);
  const sync = opts.role === 'ingest' ? new KeyPublisher(keys, opts.store, opts.plans, opts.log) : new KeyFollower(keys, opts.store, opts.log);
  return {
    quota,
    start: (auth) => sync.start(auth),
    stop: async () => {
      await sync.stop();
      await quota.stop();
    },
  };
}
