import { describe, expect, test } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('ticks ring buffer', () => {
  test('keeps the newest `capacity` ticks in order after wrapping many times', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path, ringCapacity: 256 });
    for (let i = 1; i <= 5000; i++) store.appendQuote(1, 1000 + i, 100 + i, 101 + i, i, i + 1);
    await store.flush();
    const ticks = store.ticksSince(1, 'quote', 0, 10_000);
    expect(ticks.length).toBe(store.ringCapacity);
    expect(ticks[0]![5]).toBe(5000 - store.ringCapacity + 1);
    expect(ticks.at(-1)).toEqual([6000, 5100, 5101, 5000, 5001, 5000]);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]![5]).toBe(ticks[i - 1]![5]! + 1);
    await store.close();
  });

  test('reads what is left after a reopen, including a half-filled block', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path, ringCapacity: 256 });
    for (let i = 1; i <= 300; i++) store.appendTrade(2, i, i, null);
    await store.close();
    store = Store.open({ dataDir: dir.path, ringCapacity: 256 });
    for (let i = 301; i <= 310; i++) store.appendTrade(2, i, i, 1);
    const ticks = store.ticksSince(2, 'trade', 290, 100);
    expect(ticks.map((t) => t[3])).toEqual([291, 292, 293, 294, 295, 296, 297, 298, 299, 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310]);
    expect(ticks[0]).toEqual([291, 291, NaN, 291]);
    expect(store.latest(2)?.tradeSeq).toBe(310);
    await store.close();
  });

  test('disk use stays bounded under an endless feed', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path, ringCapacity: 1024 });
    // Flushing every 500 ticks, as a live feed does, so old pages are freed and reused.
    const sizeAfter = async (n: number) => {
      for (let i = 0; i < n; i++) {
        store.appendQuote(3, i, 1, 2, 1, 1);
        if (i % 500 === 0) await store.flush();
      }
      await store.flush();
      return readdirSync(dir.path).reduce((s, f) => s + statSync(join(dir.path, f)).size, 0);
    };
    const first = await sizeAfter(20_000);
    const later = await sizeAfter(200_000);
    expect(later).toBeLessThanOrEqual(first * 1.1);
    await store.close();
  });

  test('ticks numbered elsewhere are stored under their seq once; a seq ahead leaves a gap reads skip, with nothing of a reused block', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path, ringCapacity: 256 });
    // Symbol 1 fills and commits blocks, whose arrays are then reused for other rings.
    for (let i = 1; i <= 130; i++) store.appendQuote(1, i, i, i + 1, null, null);
    await store.flush();
    expect(store.putQuoteAt(2, 5, 1005, 10, 11, 1, 1)).toBe(true);
    expect(store.putQuoteAt(2, 5, 1005, 99, 99, 1, 1)).toBe(false);
    expect(store.putQuoteAt(2, 4, 1004, 99, 99, 1, 1)).toBe(false);
    expect(store.putQuoteAt(2, 9, 1009, 12, 13, null, null)).toBe(true);
    expect(store.putQuoteAt(2, 70, 1070, 14, 15, null, null)).toBe(true);
    expect(store.putTradeAt(2, 3, 1003, 10.5, 2)).toBe(true);
    expect(store.putTradeAt(2, 3, 1003, 10.5, 2)).toBe(false);
    expect(store.ticksSince(2, 'quote', 0, 1000)).toEqual([
      [1005, 10, 11, 1, 1, 5],
      [1009, 12, 13, NaN, NaN, 9],
      [1070, 14, 15, NaN, NaN, 70],
    ]);
    expect(store.ticksSince(2, 'trade', 0, 1000)).toEqual([[1003, 10.5, 2, 3]]);
    expect(store.latest(2)).toMatchObject({ quoteSeq: 70, tradeSeq: 3, quote: { tsMs: 1070, bid: 14 } });
    await store.close();
  });
});
