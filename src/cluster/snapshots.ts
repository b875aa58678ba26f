// Store snapshots in the NATS object store, so a new edge starts with years of bars instead of
// an empty store: the ingest node copies its store (the same consistent LMDB copy `mds backup`
// makes), uploads it with the stream sequence it covers, and a new edge downloads the latest one
// into its empty data dir before opening it, then replays the tick stream from that sequence on.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, renameSync, existsSync, closeSync, fsyncSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Objm, StorageType, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { backupStore } from '../store/backup.ts';
import { PARTIAL_STORE_FILE, STORE_FILE } from '../store/store-file.ts';
import { SNAPSHOT_BUCKET } from './nats.ts';

/** The object every snapshot is written to: a new upload replaces it (the bucket keeps one revision). */
export const LATEST_SNAPSHOT = 'latest';

export interface SnapshotInfo {
  /** Every tick-stream message up to this sequence is in the snapshot (later ones may be too: replaying them is a no-op). */
  streamSeq: number;
  /** When the copy was taken (the ingest node's service clock, Unix ms). */
  takenMs: number;
  bytes: number;
  /** The version of mds that wrote it. */
  version: string;
}

async function bucket(nc: NatsConnection): Promise<ObjectStore> {
  // A put under the same name replaces the object and purges its old chunks: one snapshot is kept.
  return new Objm(nc).create(SNAPSHOT_BUCKET, { storage: StorageType.File });
}

/**
 * Copies the store in `dataDir` (compacted: free pages left out) and uploads it as the latest
 * snapshot, covering the tick stream up to `streamSeq`. The caller makes sure everything those
 * messages carry is committed before it calls (see the ingest publisher).
 */
export async function publishSnapshot(nc: NatsConnection, dataDir: string, tmpRoot: string, info: Omit<SnapshotInfo, 'bytes'>): Promise<SnapshotInfo> {
  const dir = mkdtempSync(join(tmpRoot, 'mds-snapshot-'));
  try {
    // A snapshot is one file: an import being applied is waited for, never half in it.
    const { path, bytes } = await backupStore(dataDir, dir, { compact: true, imports: 'wait' });
    const os = await bucket(nc);
    await os.put(
      {
        name: LATEST_SNAPSHOT,
        description: `mds store snapshot, tick stream up to sequence ${info.streamSeq}`,
        metadata: { stream_seq: String(info.streamSeq), taken_ms: String(info.takenMs), version: info.version, bytes: String(bytes) },
      },
      Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
    );
    return { ...info, bytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The latest snapshot's description, or null when none was published. */
export async function latestSnapshot(nc: NatsConnection): Promise<SnapshotInfo | null> {
  const os = await bucket(nc);
  const meta = await os.info(LATEST_SNAPSHOT);
  if (meta === null || meta.deleted) return null;
  return infoOf(meta.metadata ?? {}, meta.size);
}

function infoOf(m: Record<string, string>, size: number): SnapshotInfo | null {
  const streamSeq = Number(m.stream_seq);
  if (!Number.isSafeInteger(streamSeq) || streamSeq < 0) return null;
  return { streamSeq, takenMs: Number(m.taken_ms) || 0, bytes: size, version: m.version ?? 'unknown' };
}

/**
 * Downloads the latest snapshot into `dataDir` as its store, when the dir holds none; returns what
 * it covers, or null when there is no snapshot (the edge then starts empty and replays the stream).
 * Written under a temporary name, synced and renamed: an interrupted download leaves no store.
 */
export async function restoreLatestSnapshot(nc: NatsConnection, dataDir: string, onProgress?: (bytes: number, totalBytes: number) => void): Promise<SnapshotInfo | null> {
  if (existsSync(join(dataDir, STORE_FILE))) throw new Error(`${dataDir} already holds a store: a snapshot is only restored into an empty data dir`);
  const os = await bucket(nc);
  const result = await os.get(LATEST_SNAPSHOT);
  if (result === null) return null;
  const info = infoOf(result.info.metadata ?? {}, result.info.size);
  if (info === null) throw new Error(`the snapshot in ${SNAPSHOT_BUCKET}/${LATEST_SNAPSHOT} names no stream sequence`);
  const partial = join(dataDir, PARTIAL_STORE_FILE);
  try {
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        onProgress?.(bytes, result.info.size);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(result.data as never), counted, createWriteStream(partial));
    // The object store checks the digest as it reads; a short or corrupt read fails `error`.
    const failed = await result.error;
    if (failed) throw new Error(`the snapshot download failed: ${failed.message}`);
    if (statSync(partial).size !== result.info.size) throw new Error(`the snapshot download is ${statSync(partial).size} bytes, not ${result.info.size}`);
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  renameSync(partial, join(dataDir, STORE_FILE));
  return info;
}

