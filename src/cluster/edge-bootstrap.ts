// A new edge's first start: with an empty data dir it asks NATS for the ingest node's latest store
// snapshot and starts from it (years of bars at once), resuming the tick stream after the sequence
// the snapshot covers. No snapshot, or NATS out of reach: it starts empty and replays what the
// stream still holds (its max age), as before.
import type { ServeConfig } from '../config.ts';
import type { SnapshotStatus } from '../domain/cluster-status.ts';
import { hasStore, type Store } from '../store/index.ts';
import { setEdgeResumePoint } from './edge-replica.ts';
import { connectNats } from './nats.ts';
import { restoreLatestSnapshot, type SnapshotInfo } from './snapshots.ts';

/** Where an edge keeps the snapshot it was made from (its /health shows it). */
const BOOTSTRAP_META = 'cluster.bootstrap';
/** How long a new edge waits for NATS to fetch a snapshot before it starts empty. */
const CONNECT_TIMEOUT_MS = 15_000;

/**
 * Before the store opens: an edge whose data dir holds no store downloads the latest snapshot into
 * it. Resolves with what it restored, or null (not an edge, a store already there, no snapshot,
 * NATS unreachable: said in the log).
 */
export async function restoreSnapshotIfNew(config: ServeConfig, dataDir: string, log: (line: string) => void): Promise<SnapshotInfo | null> {
  if (config.role !== 'edge' || hasStore(dataDir)) return null;
  let nc;
  try {
    nc = await connectNats(config, 'mds edge bootstrap', CONNECT_TIMEOUT_MS);
  } catch (err) {
    log(`warning: new edge: no snapshot fetched (${err instanceof Error ? err.message : String(err)}); starting empty, from what the stream still holds`);
    return null;
  }
  try {
    const started = performance.now();
    log('new edge: fetching the ingest node\u2019s latest store snapshot from NATS');
    const info = await restoreLatestSnapshot(nc, dataDir);
    if (info === null) log('new edge: no snapshot published yet (the ingest node publishes one once it runs); starting empty, from what the stream still holds');
    else log(`new edge: restored a ${(info.bytes / 1e6).toFixed(1)} MB snapshot up to stream sequence ${info.streamSeq} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return info;
  } catch (err) {
    log(`warning: new edge: the snapshot could not be restored (${err instanceof Error ? err.message : String(err)}); starting empty`);
    return null;
  } finally {
    await nc.close().catch(() => {});
  }
}

/**
 * Once the restored store is open: the stream resumes after the snapshot's sequence; the ingest
 * node's development key, copied with its store, is not this edge's (each node keeps its own).
 */
export async function adoptSnapshot(store: Store, info: SnapshotInfo): Promise<void> {
  await setEdgeResumePoint(store, info.streamSeq, 0);
  await store.deleteMeta('devKey');
  const status: SnapshotStatus = { streamSeq: info.streamSeq, takenMs: info.takenMs, bytes: info.bytes, seconds: 0 };
  await store.putMeta(BOOTSTRAP_META, status);
}

/** The snapshot an edge's store was made from, or null. */
export function edgeBootstrapOf(store: Store): SnapshotStatus | null {
  return store.getMeta<SnapshotStatus>(BOOTSTRAP_META) ?? null;
}
