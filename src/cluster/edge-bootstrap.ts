// A new edge's first start: with an empty data dir it waits for the ingest node's latest store
// snapshot in NATS and starts from it (years of bars at once), resuming the tick stream after the
// sequence the snapshot covers. It never serves market data from a history it knows is partial:
// while it waits, its port answers /health 503 `bootstrapping` with the progress, and every other
// route 503 (bootstrap-server.ts). Past --edge-bootstrap-timeout with no snapshot it starts empty,
// from what the stream still holds, and says so for good in /health and /coverage.
import type { ServeConfig } from '../config.ts';
import type { SnapshotStatus } from '../domain/cluster-status.ts';
import { hasStore, type Store } from '../store/index.ts';
import { BootstrapServer, type BootstrapProgress } from './bootstrap-server.ts';
import { setEdgeResumePoint } from './edge-replica.ts';
import { connectNats } from './nats.ts';
import { latestSnapshot, restoreLatestSnapshot, type SnapshotInfo } from './snapshots.ts';

/** Where an edge keeps the snapshot it was made from (its /health shows it). */
const BOOTSTRAP_META = 'cluster.bootstrap';
/** Where an edge that started without a snapshot keeps why its history is partial. */
const PARTIAL_META = 'cluster.partialHistory';
/** One connection attempt at most this long; between attempts and looks for a snapshot, this. */
const CONNECT_TIMEOUT_MS = 5000;
const POLL_MS = 1000;

export interface EdgeBootstrap {
  /** The snapshot restored into the data dir, or null. */
  info: SnapshotInfo | null;
  /** Why the history is partial (no snapshot in time), or null. */
  partialReason: string | null;
  /** The port the bootstrapping server held: the server listens on it next. */
  port: number;
  /** Closes the bootstrapping server (just before the server listens on its port). */
  release(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Before the store opens: an edge whose data dir holds no store serves `bootstrapping` on its port
 * and waits (bounded) for a snapshot to restore. Null when there is nothing to wait for (not an
 * edge, or a store already there).
 */
export async function bootstrapEdge(config: ServeConfig, dataDir: string, version: string, log: (line: string) => void, tls: { cert: string; key: string } | null = null): Promise<EdgeBootstrap | null> {
  if (config.role !== 'edge' || hasStore(dataDir)) return null;
  const timeoutMs = config.edgeBootstrapTimeoutS * 1000;
  const startedMs = performance.now();
  const progress: BootstrapProgress = { state: 'connecting', waitedS: 0, timeoutS: config.edgeBootstrapTimeoutS, bytes: 0, totalBytes: null, lastError: null };
  // On a shared port (--reuse-port: a process of --workers) the other processes answer meanwhile:
  // this one listens only once it holds the history, rather than take connections to refuse them.
  const server = config.reusePort ? null : new BootstrapServer(config.host, config.port, version, () => ({ ...progress, waitedS: Math.round((performance.now() - startedMs) / 1000) }), tls);
  log(`new edge: waiting up to ${config.edgeBootstrapTimeoutS} s for the ingest node's first store snapshot; ${server === null ? `not listening on the shared port ${config.port} meanwhile` : `/health answers 503 'bootstrapping' on port ${server.port} meanwhile`}`);
  const isLate = () => performance.now() - startedMs >= timeoutMs;
  let info: SnapshotInfo | null = null;
  let lastLogged = '';
  const note = (message: string) => {
    progress.lastError = message;
    if (message !== lastLogged) log(`warning: new edge: ${message}; still waiting`);
    lastLogged = message;
  };
  do {
    let nc;
    try {
      nc = await connectNats(config, 'mds edge bootstrap', Math.max(1000, Math.min(CONNECT_TIMEOUT_MS, timeoutMs - (performance.now() - startedMs))));
    } catch (err) {
      note(messageOf(err));
      if (!isLate()) await sleep(POLL_MS);
      continue;
    }
    try {
      progress.state = 'waiting';
      for (;;) {
        const latest = await latestSnapshot(nc);
        if (latest !== null) break;
        if (isLate()) break;
        await sleep(POLL_MS);
      }
      if (!isLate() || (await latestSnapshot(nc)) !== null) {
        progress.state = 'downloading';
        const downloadStarted = performance.now();
        log('new edge: fetching the ingest node\u2019s latest store snapshot from NATS');
        info = await restoreLatestSnapshot(nc, dataDir, (bytes, totalBytes) => {
          progress.bytes = bytes;
          progress.totalBytes = totalBytes;
        });
        if (info !== null) log(`new edge: restored a ${(info.bytes / 1e6).toFixed(1)} MB snapshot up to stream sequence ${info.streamSeq} in ${((performance.now() - downloadStarted) / 1000).toFixed(1)} s`);
      }
    } catch (err) {
      progress.state = 'waiting';
      note(`the snapshot could not be fetched (${messageOf(err)})`);
      if (!isLate()) await sleep(POLL_MS);
    } finally {
      await nc.close().catch(() => {});
    }
  } while (info === null && !isLate());
  let partialReason: string | null = null;
  if (info === null) {
    partialReason = `this edge started without the ingest node's history: no snapshot within --edge-bootstrap-timeout ${config.edgeBootstrapTimeoutS} s${progress.lastError === null ? '' : ` (${progress.lastError})`}; it serves only what the stream carried since. Start it again on an empty data dir once the ingest node has published a snapshot`;
    log(`error: new edge: ${partialReason}`);
  }
  return { info, partialReason, port: server?.port ?? config.port, release: async () => server?.stop() };
}

/**
 * Once the new store is open: from a snapshot, the stream resumes after the snapshot's sequence
 * and the ingest node's development key, copied with its store, is dropped (each node keeps its
 * own); without one, the store remembers that its history is partial.
 */
export async function adoptBootstrap(store: Store, boot: EdgeBootstrap): Promise<void> {
  const info = boot.info;
  if (info === null) {
    await store.putMeta(PARTIAL_META, boot.partialReason);
    return;
  }
  // The ingest node's clock offset comes with its first sweep: until then the edge's clock is not
  // its own (a shifted or replayed ingest clock is far from the machine's), so none is recorded.
  await setEdgeResumePoint(store, info.streamSeq, null);
  await store.deleteMeta('devKey');
  const status: SnapshotStatus = { streamSeq: info.streamSeq, takenMs: info.takenMs, bytes: info.bytes, seconds: 0 };
  await store.putMeta(BOOTSTRAP_META, status);
}

/** The snapshot an edge's store was made from, or null. */
export function edgeBootstrapOf(store: Store): SnapshotStatus | null {
  return store.getMeta<SnapshotStatus>(BOOTSTRAP_META) ?? null;
}

/** Why an edge's history is partial (it started without a snapshot), or null. */
export function partialHistoryOf(store: Store): string | null {
  return store.getMeta<string>(PARTIAL_META) ?? null;
}
