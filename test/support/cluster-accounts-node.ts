// Cluster nodes in one process for the accounts tests: each its own temp store, Authenticator and
// app (requests through the real gate with app.handle), sharing one nats-server; quotas leased
// from it, and with a role, keys synced as `mds serve` does it. Disposal stops a node cleanly
// (its unused calls given back); crash() drops it without.
import type { NatsConnection } from '@nats-io/transport-node';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import type { Clock } from '../../src/clock.ts';
import { connectNats, type NatsSettings } from '../../src/cluster/nats.ts';
import { openQuotaLeases, type QuotaLeases } from '../../src/cluster/quota-leases.ts';
import { openClusterAccounts, type ClusterAccounts } from '../../src/cluster/accounts.ts';
import type { KeyRecord } from '../../src/domain/account.ts';
import { BUILT_IN_PLANS, type Plan } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from './temp-dir.ts';

/** Every test node's development key (each node its own, as in a cluster: the same text here). */
export const DEV_KEY = 'node-dev-key-0123456789';

export const natsSettings = (url: string): NatsSettings => ({ nats: url, natsCreds: null, natsTlsCa: null, natsTlsCert: null, natsTlsKey: null });

export interface TestNode extends AsyncDisposable {
  dataDir: string;
  store: Store;
  auth: Authenticator;
  leases: QuotaLeases | null;
  nc: NatsConnection;
  logs: string[];
  /** GET `path` with `key` through the app; status and JSON body. */
  get(path: string, key: string): Promise<{ status: number; body: any; headers: Headers }>;
  /** Stops cleanly: the leases give back what they hold, then the connection and the store close. */
  stop(): Promise<void>;
  /** Drops the node as a crash would: nothing given back. */
  crash(): Promise<void>;
}

export interface NodeOptions {
  clock: Clock;
  plans?: readonly Plan[];
  /** false: no quota backend (the ingest side of the key sync tests counts locally). */
  leases?: boolean;
  recheckMs?: number;
  /** With a role, the node runs the key sync of `mds serve --role` (openClusterAccounts), started before this resolves. */
  role?: 'ingest' | 'edge';
  /** Called with the new node's store before its key sync starts (keys an edge had before). */
  before?: (store: Store) => void;
}

export async function startNode(url: string, name: string, opts: NodeOptions): Promise<TestNode> {
  const dir: TempDir = tempDir(`mds-${name}-`);
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  const logs: string[] = [];
  const log = (line: string) => void logs.push(line);
  const nc = await connectNats(natsSettings(url), name);
  const plans = opts.plans ?? BUILT_IN_PLANS;
  opts.before?.(store);
  const cluster: ClusterAccounts | null = opts.role === undefined ? null : await openClusterAccounts(nc, { role: opts.role, clock: opts.clock, plans, log, ...(opts.recheckMs !== undefined && { recheckMs: opts.recheckMs }) });
  const leases = cluster !== null ? cluster.quota : opts.leases === false ? null : await openQuotaLeases(nc, opts.clock, log, opts.recheckMs);
  const auth = new Authenticator({ store, clock: opts.clock, plans, devKey: DEV_KEY, devPerMinute: 1000, ...(leases !== null && { quota: leases }) });
  await cluster?.start(auth, store);
  // The poll of `mds serve`: keys changed by `mds keys` in another process.
  auth.start(50);
  const app = createApp({ store, bars: { barInProgress: () => null }, clock: opts.clock, auth, feed: 'none', version: '1.0.0' }, log);
  let closed = false;
  const close = async (clean: boolean) => {
    if (closed) return;
    closed = true;
    auth.stop();
    // A crash gives nothing back; closing the connection ends the key sync's watch too.
    if (clean) await (cluster ?? leases)?.stop();
    await nc.close();
    await store.close();
    dir[Symbol.dispose]();
  };
  return {
    dataDir: dir.path,
    store,
    auth,
    leases,
    nc,
    logs,
    async get(path, key) {
      const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': key } }));
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    stop: () => close(true),
    crash: () => close(false),
    [Symbol.asyncDispose]: () => close(true),
  };
}

/** Makes a key on `first` and copies its record to the other nodes' stores (as the key sync would). */
export function shareKey(nodes: readonly TestNode[], plan: string, nowMs: number): { record: KeyRecord; secret: string } {
  const [first, ...rest] = nodes;
  const made = first!.store.accounts.create({ name: plan, plan, markets: ['*'], addons: [] }, nowMs);
  for (const node of rest) node.store.accounts.replicate([made.record], []);
  return made;
}
