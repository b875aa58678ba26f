// History written outside the live path, replicated without NATS: an import applied on an "ingest"
// store leaves a note; the history publisher turns it into stream messages (the rows as stored) and
// removes the note only once they are acked; a StreamApplier on another store writes them. Both
// stores then hold the same bars in every timeframe, bond series, calendar events and fundamentals.
// Symbol ids differ between the stores on purpose: messages name symbols.
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { ManualClock } from '../../src/clock.ts';
import { HistoryPublisher, type HistoryMessage } from '../../src/cluster/history-publisher.ts';
import { StreamApplier } from '../../src/cluster/stream-applier.ts';
import { TIMEFRAMES } from '../../src/domain/timeframes.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import { applyStagedImport } from '../../src/ingest/importers/history/apply-bars.ts';
import { importBonds } from '../../src/ingest/importers/bonds-import.ts';
import { importCalendar } from '../../src/ingest/importers/calendar-import.ts';
import { importFundamentals } from '../../src/ingest/importers/fundamentals-import.ts';
import { importCorporateActions } from '../../src/ingest/importers/corporate-actions-import.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const DAY_MS = Date.parse('2026-02-20T00:00:00Z');
const MINUTES = 600;
const EXAMPLES = resolve(import.meta.dir, '../../examples');

function openStore(dir: string, reversed = false): Store {
  const store = Store.open({ dataDir: dir });
  seedRegistry(store, reversed ? [...ALL_INSTRUMENTS].reverse() : ALL_INSTRUMENTS);
  return store;
}

/** Stages and applies MINUTES one-minute BTCUSD bars from DAY_MS, as `mds import bars` and the server do. */
async function importMinutes(store: Store, bump: number, onConflict: 'skip' | 'replace'): Promise<void> {
  const records = new Float64Array(MINUTES * 6);
  for (let i = 0; i < MINUTES; i++) records.set([DAY_MS + i * 60_000, 42_000 + i + bump, 42_005 + i + bump, 41_995 + i + bump, 42_001 + i + bump, (i % 7) + 0.5], i * 6);
  const record = store.imports.begin('test.csv', onConflict, process.pid, DAY_MS);
  const block = store.imports.stageBlock(record.id, records, MINUTES);
  record.series = [['BTCUSD', TIMEFRAMES.indexOf('1m'), [block]]];
  await store.imports.markStaged(record);
  const result = await applyStagedImport(store, store.imports.get(record.id)!, DAY_MS + 30 * 86_400_000);
  await store.imports.finish(record.id, 'applied', result);
}

/** A publisher whose stream is an array; `acks` says whether JetStream "acked" each publish. */
function publisherOf(store: Store, acks: boolean[] = []) {
  const sent: HistoryMessage[] = [];
  const publisher = new HistoryPublisher(store, { ready: () => true, publish: async (m) => (sent.push(...m), acks.shift() ?? true), lastSweepMs: () => Infinity }, () => {});
  return { publisher, sent };
}

function barsOf(store: Store, tf: (typeof TIMEFRAMES)[number]): number[] {
  const id = store.registry.resolve('crypto', 'BTCUSD')!.id;
  const { count, data } = store.barsInRange(id, tf, DAY_MS - 7 * 86_400_000, DAY_MS + 7 * 86_400_000);
  return Array.from(data.subarray(0, count * 6));
}

describe('history publisher', () => {
  test('an imported day of bars reaches an edge as stored, every timeframe; a note stays until its messages are acked', async () => {
    using ingestDir = tempDir();
    using edgeDir = tempDir();
    const ingest = openStore(ingestDir.path);
    const edge = openStore(edgeDir.path, true);
    const applier = new StreamApplier(edge, new Pipeline(edge, new ManualClock(DAY_MS + 30 * 86_400_000)), () => {});

    await importMinutes(ingest, 0, 'skip');
    expect(ingest.historyChanges.pending().map((n) => n.change)).toEqual([{ kind: 'bars', ranges: [[ingest.registry.resolve('crypto', 'BTCUSD')!.id, DAY_MS, DAY_MS + (MINUTES - 1) * 60_000 + 1]] }]);
    // JetStream did not ack: the note stays, and is published again.
    const { publisher, sent } = publisherOf(ingest, [false, true]);
    await publisher.publishNoted();
    expect(publisher.pending()).toBe(1);
    await publisher.publishNoted();
    expect(publisher.pending()).toBe(0);
    // Both attempts sent the same messages: 1m, 5m, 15m, 1h, 4h and 1d bars.
    expect(sent.length).toBe(12);
    expect(sent.every(([subject]) => subject === 'mds.history.bars')).toBe(true);

    for (const [subject, data] of sent.slice(6)) applier.apply(subject, data);
    for (const tf of TIMEFRAMES) expect({ tf, bars: barsOf(edge, tf) }).toEqual({ tf, bars: barsOf(ingest, tf) });
    expect(barsOf(edge, '1m').length).toBe(MINUTES * 6);
    expect(barsOf(edge, '1h').length).toBe(10 * 6);

    // A re-import with replace: the edge's bars are replaced by the ingest node's new ones; applying twice changes nothing more.
    await importMinutes(ingest, 7, 'replace');
    const again = publisherOf(ingest);
    await again.publisher.publishNoted();
    for (const [subject, data] of [...again.sent, ...again.sent]) applier.apply(subject, data);
    for (const tf of TIMEFRAMES) expect({ tf, bars: barsOf(edge, tf) }).toEqual({ tf, bars: barsOf(ingest, tf) });
    expect(barsOf(edge, '1m')[1]).toBe(42_007);
    expect({ history: applier.historyMessages, skipped: applier.skippedMessages }).toEqual({ history: 18, skipped: 0 });
    await ingest.close();
    await edge.close();
  });

  test('fundamentals, bond yields and calendar events imported on the ingest node are the same on the edge', async () => {
    using ingestDir = tempDir();
    using edgeDir = tempDir();
    const ingest = openStore(ingestDir.path);
    const edge = openStore(edgeDir.path);
    const applier = new StreamApplier(edge, new Pipeline(edge, new ManualClock(DAY_MS)), () => {});
    const fundamentals = await importFundamentals(ingest, `${EXAMPLES}/fundamentals.csv`, { format: 'csv', latestDate: '2099-12-31' });
    const bonds = await importBonds(ingest, `${EXAMPLES}/bonds.csv`, { latestDate: '2099-12-31' });
    const calendar = await importCalendar(ingest, `${EXAMPLES}/economic-calendar.csv`, { format: 'csv' });
    expect(ingest.historyChanges.pending().map((n) => n.change.kind)).toEqual(['fundamentals', 'bonds', 'calendar']);

    const { publisher, sent } = publisherOf(ingest);
    await publisher.publishNoted();
    expect(publisher.pending()).toBe(0);
    for (const [subject, data] of sent) applier.apply(subject, data);
    expect(applier.skippedMessages).toBe(0);

    const changes = Object.fromEntries(ingest.historyChanges.pending().map((n) => [n.change.kind, n.change]));
    expect(changes).toEqual({});
    const nke = 'US:NKE';
    expect(fundamentals.written?.symbolsWritten).toBeGreaterThan(0);
    expect(edge.fundamentals.json(nke)?.toString()).toBe(ingest.fundamentals.json(nke)!.toString());
    expect(edge.fundamentals.get(nke)).toEqual(ingest.fundamentals.get(nke));
    expect(bonds.observations).toBeGreaterThan(0);
    const all = { offset: 0, limit: 10_000, sort: 'asc' as const };
    for (const symbol of ['DE:2Y', 'DE:10Y']) expect(edge.bonds.history(symbol, '2000-01-01', '2099-12-31', all)).toEqual(ingest.bonds.history(symbol, '2000-01-01', '2099-12-31', all));
    expect(ingest.bonds.history('DE:10Y', '2000-01-01', '2099-12-31', all).total).toBeGreaterThan(0);
    expect(calendar.written?.added).toBeGreaterThan(0);
    expect(edge.calendar.get('US-NFP-2026-04-03')).toEqual(ingest.calendar.get('US-NFP-2026-04-03')!);
    await ingest.close();
    await edge.close();
  });

  test('splits and dividends imported on the ingest node are the same on the edge; an import changing nothing sends nothing', async () => {
    using ingestDir = tempDir();
    using edgeDir = tempDir();
    const ingest = openStore(ingestDir.path);
    const edge = openStore(edgeDir.path);
    const applier = new StreamApplier(edge, new Pipeline(edge, new ManualClock(DAY_MS)), () => {});
    const splits = join(ingestDir.path, 'splits.csv');
    writeFileSync(splits, 'ticker,execution_date,split_from,split_to\nAAPL,2020-08-31,1,4\nNVDA,2024-06-10,1,10\n');
    const dividends = join(ingestDir.path, 'dividends.ndjson');
    writeFileSync(dividends, '{"ticker":"AAPL","ex_dividend_date":"2020-08-07","cash_amount":0.82,"pay_date":"2020-08-13","frequency":4,"dividend_type":"CD"}\n');
    await importCorporateActions(ingest, 'splits', splits, { format: 'csv' });
    await importCorporateActions(ingest, 'dividends', dividends, { format: 'ndjson' });
    expect(ingest.historyChanges.pending().map((n) => n.change.kind)).toEqual(['actions', 'actions']);
    const { publisher, sent } = publisherOf(ingest);
    await publisher.publishNoted();
    for (const [subject, data] of sent) applier.apply(subject, data);
    expect(applier.skippedMessages).toBe(0);
    expect(edge.corporateActions.all()).toEqual(ingest.corporateActions.all());
    expect(edge.corporateActions.of('US:AAPL').dividends[0]!.payDate).toBe('2020-08-13');
    await importCorporateActions(ingest, 'splits', splits, { format: 'csv' });
    expect(ingest.historyChanges.pending()).toEqual([]);
    await ingest.close();
    await edge.close();
  });
});
