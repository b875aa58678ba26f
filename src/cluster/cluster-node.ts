// The cluster side of `mds serve --role ingest|edge`, started once the ingest path exists and
// stopped before the store closes: an ingest node publishes what its path makes; an edge applies
// what the ingest node published. Neither waits for NATS to start: both serve meanwhile.
import { accessSync, constants } from 'node:fs';
import type { Clock, OffsetClock } from '../clock.ts';
import type { ServeConfig } from '../config.ts';
import type { ClusterStatus } from '../domain/cluster-status.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import type { Store } from '../store/index.ts';
import { EdgeReplica } from './edge-replica.ts';
import { edgeBootstrapOf, partialHistoryOf } from './edge-bootstrap.ts';
import { IngestPublisher } from './ingest-publisher.ts';
import { HistoryPublisher } from './history-publisher.ts';
import { SnapshotPublisher } from './snapshot-publisher.ts';
import { NatsLink } from './link.ts';
import { natsOptions } from './nats.ts';

export interface ClusterNode {
  /** The node's NATS connection (shared by the accounts and the snapshots). */
  link: NatsLink;
  status(): ClusterStatus;
  /**
   * Resolves once the node's clock is the one to act on: at once on an ingest node; on an edge once
   * it follows its ingest node's (time-based work such as retention waits for it).
   */
  clockSynced: Promise<void>;
  /** Ingest: publishes what is open and waits a while for its acks. Both: close the NATS connection. */
  stop(): Promise<void>;
}

export interface ClusterParts {
  store: Store;
  /** The data dir (an ingest node's snapshot copies are made in it). */
  dataDir: string;
  clock: Clock;
  pipeline: Pipeline;
  /** An edge's clock, which follows the ingest node's; unused on an ingest node. */
  edgeClock: OffsetClock | null;
  log: (line: string) => void;
}

export interface ClusterPlan {
  /** Starts the role's cluster side (connecting in the background). */
  start(parts: ClusterParts): ClusterNode;
}

/**
 * The cluster side of the role, checked before anything is opened: null for `--role all`. Throws
 * when a credentials or certificate file cannot be read (a start failure, not a retry loop).
 */
export function planClusterNode(config: ServeConfig): ClusterPlan | null {
  if (config.role === 'all') return null;
  const name = `mds ${config.role}`;
  try {
    natsOptions(config, name);
  } catch (err) {
    throw new Error(`--nats-creds ${config.natsCreds} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const [flag, path] of [['--nats-tls-ca', config.natsTlsCa], ['--nats-tls-cert', config.natsTlsCert], ['--nats-tls-key', config.natsTlsKey]] as const) {
    if (path === null) continue;
    try {
      accessSync(path, constants.R_OK);
    } catch (err) {
      throw new Error(`${flag} ${path} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    start(parts) {
      const link = new NatsLink(config, name, parts.log);
      let role: { status(): ClusterStatus; stop(): Promise<void>; clockSynced?: Promise<void> };
      if (config.role === 'ingest') {
        const publisher = new IngestPublisher(link, parts.store, parts.pipeline, parts.log);
        const history = new HistoryPublisher(parts.store, { ready: () => link.isConnected, publish: (m) => publisher.publishHistory(m), lastSweepMs: () => publisher.lastSweepMs }, parts.log);
        // The minute each series had in progress when this node last stopped (a kill -9 included)
        // may differ on the edges (ticks stored here that the stream never carried): published once sealed.
        void noteOpenMinutes(parts.store).then(() => history.start(), (err: unknown) => parts.log(`error: cannot note the minutes in progress for the edges: ${err instanceof Error ? err.message : String(err)}`));
        const snapshots = config.snapshotEveryMin === 0 ? null : new SnapshotPublisher(link, parts.store, parts.dataDir, { streamSeq: () => publisher.status().streamSeq }, parts.clock, config.snapshotEveryMin * 60_000, parts.log);
        snapshots?.start();
        role = {
          status: () => {
            const s = snapshots?.status();
            return { ...publisher.status(), historyPending: history.pending(), snapshot: s?.last ?? null, snapshotError: s?.error ?? null };
          },
          stop: async () => {
            await history.stop();
            await snapshots?.stop();
            await publisher.stop();
          },
        };
      } else {
        if (parts.edgeClock === null) throw new Error('an edge needs a clock it can set');
        const replica = new EdgeReplica(link, parts.store, parts.edgeClock, parts.pipeline, parts.log, config.edgeMaxLagMs);
        const bootstrap = edgeBootstrapOf(parts.store);
        const partialHistory = partialHistoryOf(parts.store);
        role = {
          status: () => {
            const s = replica.status();
            return { ...s, bootstrap, partialHistory, reason: s.reason ?? partialHistory };
          },
          stop: () => replica.stop(),
          clockSynced: replica.clockSynced,
        };
      }
      link.start();
      return {
        link,
        status: () => role.status(),
        clockSynced: role.clockSynced ?? Promise.resolve(),
        stop: async () => {
          await role.stop();
          await link.close();
        },
      };
    },
  };
}

/** Notes, for the edges, the 1-minute bar each series has in progress in the store (left by the last run). */
async function noteOpenMinutes(store: Store): Promise<void> {
  const ranges: [number, number, number][] = [];
  for (const symId of store.registry.ids()) {
    const open = store.openBar(symId, '1m');
    if (open !== undefined) ranges.push([symId, open.t, open.t + 60_000]);
  }
  await store.historyChanges.note({ kind: 'bars', ranges });
}
