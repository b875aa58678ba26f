// Store snapshots through a real nats-server's object store: the copy a new edge starts from is
// the store as it was (same bars), covers the stream sequence it was published with, and replaces
// the one before; a data dir that holds a store is never overwritten.
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectNats } from '../src/cluster/nats.ts';
import { latestSnapshot, publishSnapshot, restoreLatestSnapshot } from '../src/cluster/snapshots.ts';
import { Store } from '../src/store/index.ts';
import { ensureNatsServer, startNats } from './support/nats.ts';

const settings = (url: string) => ({ nats: url, natsCreds: null, natsTlsCa: null, natsTlsCert: null, natsTlsKey: null });

describe('store snapshots in the NATS object store', () => {
  beforeAll(() => ensureNatsServer(), 600_000);

  test('an upload is restored byte for byte into an empty data dir, with the sequence it covers', async () => {
    await using nats = await startNats();
    const nc = await connectNats(settings(nats.url), 'test');
    const source = mkdtempSync(join(tmpdir(), 'mds-snap-src-'));
    const target = mkdtempSync(join(tmpdir(), 'mds-snap-dst-'));
    try {
      expect(await latestSnapshot(nc)).toBeNull();
      expect(await restoreLatestSnapshot(nc, target)).toBeNull();
      expect(readdirSync(target)).toEqual([]);

      const store = Store.open({ dataDir: source, ringCapacity: 128, minFreeBytes: 0, nowMs: () => 1_772_638_200_000 });
      await store.putMeta('probe', { bars: [1, 2, 3], text: 'x'.repeat(300_000) });
      await store.close();
      const first = await publishSnapshot(nc, source, tmpdir(), { streamSeq: 41, takenMs: 1_772_638_200_000, version: '1.0.0' });
      expect(first.bytes).toBeGreaterThan(300_000);
      expect(await latestSnapshot(nc)).toEqual(first);

      // A second upload replaces the first.
      const second = await publishSnapshot(nc, source, tmpdir(), { streamSeq: 97, takenMs: 1_772_638_260_000, version: '1.0.0' });
      expect((await latestSnapshot(nc))?.streamSeq).toBe(97);

      const restored = await restoreLatestSnapshot(nc, target);
      expect(restored).toEqual(second);
      const copy = Store.open({ dataDir: target, ringCapacity: 128, minFreeBytes: 0, nowMs: () => 1_772_638_300_000 });
      expect(copy.getMeta<{ bars: number[]; text: string }>('probe')).toEqual({ bars: [1, 2, 3], text: 'x'.repeat(300_000) });
      await copy.close();
      expect(existsSync(join(target, 'mds.mdb.partial'))).toBe(false);

      // Never over a store that is there.
      await expect(restoreLatestSnapshot(nc, target)).rejects.toThrow('already holds a store');
    } finally {
      await nc.close();
      rmSync(source, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  }, 30_000);
});
