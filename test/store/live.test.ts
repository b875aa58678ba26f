// The per-tick write path: latest state, bars in progress and the ticks ring are readable at once,
// written by the next flush without losing what arrives while it commits, durable once
// `flush()` resolves (even across kill -9), and a schema-1 data dir upgrades in place.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Bar } from '../../src/domain/bar.ts';
import { openDbs, SCHEMA_VERSION } from '../../src/store/env.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const T0 = Date.UTC(2026, 2, 4, 15, 30);

function quote(store: Store, symId: number, i: number): number {
  return store.appendQuote(symId, T0 + i, 100 + i, 101 + i, i % 3 === 0 ? null : i, 2 * i);
}

/** What `ticksSince` returns for the quotes `quote` appended with seqs from..to. */
function expectedQuotes(from: number, to: number): number[][] {
  const out: number[][] = [];
  for (let i = from; i <= to; i++) out.push([T0 + i, 100 + i, 101 + i, i % 3 === 0 ? NaN : i, 2 * i, i]);
  return out;
}

describe('live state and ticks ring', () => {
  test('a quote, a trade and a bar in progress are read back before the flush, and after a reopen', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    for (let i = 1; i <= 100; i++) quote(store, 3, i);
    store.appendTrade(3, T0 + 5, 99.5, null);
    const bar: Bar = { t: T0, o: 1, h: 3, l: 0.5, c: 2, v: null };
    store.setOpenBar(3, '1m', bar);
    bar.c = 2.5; // changed in place after set: the flush writes the fields as they are then
    store.setOpenBar(3, '1m', bar);
    store.setOpenBar(3, '5m', { t: T0, o: 1, h: 1, l: 1, c: 1, v: 7 });
    store.setOpenBar(3, '5m', null);
    const before = { latest: store.latest(3), ticks: store.ticksSince(3, 'quote', 0, 1000), trades: store.ticksSince(3, 'trade', 0, 10) };
    expect(before.ticks).toEqual(expectedQuotes(1, 100));
    expect(before.trades).toEqual([[T0 + 5, 99.5, NaN, 1]]);
    expect(before.latest).toMatchObject({ quote: { tsMs: T0 + 100, bid: 200, ask: 201, bidSize: 100, askSize: 200 }, trade: { tsMs: T0 + 5, price: 99.5, size: null }, quoteSeq: 100, tradeSeq: 1 });
    await store.close();

    store = Store.open({ dataDir: dir.path });
    expect(store.latest(3)).toEqual({ ...before.latest!, version: 1 });
    expect(store.ticksSince(3, 'quote', 0, 1000)).toEqual(before.ticks);
    expect(store.ticksSince(3, 'trade', 0, 10)).toEqual(before.trades);
    expect(store.openBar(3, '1m')).toEqual({ t: T0, o: 1, h: 3, l: 0.5, c: 2.5, v: null });
    expect(store.openBar(3, '5m')).toBeUndefined();
    // The sequence goes on where it stopped, in the same ring block.
    expect(quote(store, 3, 101)).toBe(101);
    expect(store.ticksSince(3, 'quote', 60, 1000)).toEqual(expectedQuotes(61, 101));
    await store.close();
  });

  test('ticks appended while a flush commits are neither lost nor hidden, and all survive a reopen', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path, ringCapacity: 4096 });
    let n = 0;
    const commits: Promise<void>[] = [];
    for (let round = 0; round < 20; round++) {
      // Each round fills and seals ring blocks, then flushes without waiting, so the next
      // round writes while that commit is in flight.
      for (let i = 0; i < 97; i++) quote(store, 1, ++n);
      commits.push(store.flush());
      for (let i = 0; i < 13; i++) quote(store, 1, ++n);
      expect(store.ticksSince(1, 'quote', 0, 10_000)).toEqual(expectedQuotes(1, n));
      if (round % 3 === 0) await commits.at(-1);
    }
    await Promise.all(commits);
    expect(store.ticksSince(1, 'quote', 0, 10_000)).toEqual(expectedQuotes(1, n));
    await store.close();
    store = Store.open({ dataDir: dir.path, ringCapacity: 4096 });
    expect(store.latest(1)?.quoteSeq).toBe(n);
    expect(store.ticksSince(1, 'quote', 0, 10_000)).toEqual(expectedQuotes(1, n));
    await store.close();
  });

  test('what flush() acknowledged survives kill -9 of the writing process', async () => {
    using dir = tempDir();
    const child = Bun.spawn([process.execPath, join(import.meta.dir, '../support/flush-then-wait.ts'), dir.path], { stdout: 'pipe', stderr: 'inherit' });
    const reader = child.stdout.getReader();
    let out = '';
    while (!out.includes('flushed ')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`child ended before flushing: ${out}`);
      out += new TextDecoder().decode(value);
    }
    // The child keeps appending (unflushed) ticks after the acknowledged flush until it is killed.
    const acknowledged = Number(out.match(/flushed (\d+)/)![1]);
    child.kill('SIGKILL');
    await child.exited;
    const store = Store.open({ dataDir: dir.path });
    const seq = store.latest(2)!.quoteSeq;
    expect(seq).toBeGreaterThanOrEqual(acknowledged);
    expect(store.ticksSince(2, 'quote', seq - 500, 1000)).toEqual(expectedQuotes(seq - 499, seq));
    expect(store.openBar(2, '1m')).toEqual({ t: T0, o: 1, h: seq, l: 1, c: seq, v: null });
    await store.close();
  });

  test('a schema-1 data dir opens with its latest state, bars in progress and ticks, and is upgraded by the first flush', async () => {
    using dir = tempDir();
    // Schema 1 kept the latest state as msgpack, each bar in progress as its own record and the
    // ring block being filled under its ring key.
    const dbs = openDbs(dir.path);
    const packed = (values: number[]) => Buffer.from(new Float64Array(values).buffer);
    dbs.meta.putSync('schemaVersion', 1);
    dbs.latest.putSync(7, { quote: { bid: 170, ask: 171, bidSize: 70, askSize: null, tsMs: T0 + 70 }, trade: { price: 170.5, size: 2, tsMs: T0 + 69 }, quoteSeq: 70, tradeSeq: 1 });
    dbs.openBars.putSync([7, 0], packed([T0, 1, 2, 0.5, 1.5, 3]));
    dbs.openBars.putSync([9, 5], packed([T0 - 15.5 * 3_600_000, 4, 5, 3, 4.5, NaN]));
    const quotes = expectedQuotes(1, 70).map((q, i) => (i === 69 ? [T0 + 70, 170, 171, 70, NaN, 70] : q));
    dbs.ticks.putSync([7, 0, 0], packed(quotes.slice(0, 64).flat()));
    dbs.ticks.putSync([7, 0, 1], packed(quotes.slice(64).flat()));
    dbs.ticks.putSync([7, 1, 0], packed([T0 + 69, 170.5, 2, 1]));
    await dbs.root.close();

    let store = Store.open({ dataDir: dir.path });
    expect(store.latest(7)).toEqual({ quote: { bid: 170, ask: 171, bidSize: 70, askSize: null, tsMs: T0 + 70 }, trade: { price: 170.5, size: 2, tsMs: T0 + 69 }, quoteSeq: 70, tradeSeq: 1, version: 1, isStale: true, freshnessSinceMs: 0, liveSources: 0 });
    expect(store.ticksSince(7, 'quote', 0, 100)).toEqual(quotes);
    expect(store.openBar(7, '1m')).toEqual({ t: T0, o: 1, h: 2, l: 0.5, c: 1.5, v: 3 });
    expect(store.openBar(9, '1d')).toEqual({ t: T0 - 15.5 * 3_600_000, o: 4, h: 5, l: 3, c: 4.5, v: null });
    expect(quote(store, 7, 71)).toBe(71);
    await store.close();

    const after = openDbs(dir.path);
    expect(after.meta.get('schemaVersion')).toBe(SCHEMA_VERSION);
    expect([...after.latest.getKeys()]).toEqual([]);
    expect([...after.openBars.getKeys()]).toEqual([]);
    await after.root.close();

    store = Store.open({ dataDir: dir.path });
    expect(store.latest(7)?.quoteSeq).toBe(71);
    expect(store.latest(7)?.trade).toEqual({ price: 170.5, size: 2, tsMs: T0 + 69 });
    expect(store.ticksSince(7, 'quote', 0, 100)).toEqual([...quotes, ...expectedQuotes(71, 71)]);
    expect(store.ticksSince(7, 'trade', 0, 100)).toEqual([[T0 + 69, 170.5, 2, 1]]);
    expect(store.openBar(7, '1m')).toEqual({ t: T0, o: 1, h: 2, l: 0.5, c: 1.5, v: 3 });
    expect(store.openBar(9, '1d')).toEqual({ t: T0 - 15.5 * 3_600_000, o: 4, h: 5, l: 3, c: 4.5, v: null });
    await store.close();
  });

  test('a data dir of a newer schema is refused', async () => {
    using dir = tempDir();
    const dbs = openDbs(dir.path);
    dbs.meta.putSync('schemaVersion', SCHEMA_VERSION + 1);
    await dbs.root.close();
    expect(() => Store.open({ dataDir: dir.path })).toThrow('written by a newer mds');
  });
});
