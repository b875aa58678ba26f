// The typed client's `status` event against a real server: a line stored with a quote and served
// with no feed has no live source, so a subscriber to its quotes learns so at once, and REST
// quote and snapshot carry `stale` in the client's types.
import { describe, expect, test } from 'bun:test';
import { MdsClient, type StatusMessage } from '../../client/src/index.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { until } from '../support/cli.ts';
import { startServer } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';

const CLOCK = '2026-03-04T15:30:00Z';
const QUOTE_TS = Date.parse(CLOCK) - 60_000;

describe('stream client: line freshness', () => {
  test('a subscriber to a line no source feeds gets a stale status event before the ack; REST says stale too', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, ALL_INSTRUMENTS);
    store.appendQuote(store.registry.resolve('forex', 'EURUSD')!.id, QUOTE_TS, 1.1, 1.1002, 1, 1);
    await store.close();
    await using server = await startServer({ dataDir: dir.path, args: ['--feed', 'none', '--clock-start', CLOCK] });
    const mds = new MdsClient({ baseUrl: server.base, apiKey: server.key });
    const statuses: StatusMessage[] = [];
    const stream = mds.stream();
    stream.on('status', (s) => statuses.push(s));
    try {
      await stream.subscribe({ channels: 'forex.quotes', symbols: ['EURUSD'] });
      await until(async () => statuses.length > 0, 'the status event');
      expect(statuses).toEqual([{ type: 'status', channel: 'forex.quotes', asset: 'forex', symbol: 'EURUSD', status: 'stale', sources: 0, since: expect.any(Number), snapshot: true }]);
      const quote = await mds.getForexQuote({ symbol: 'EURUSD' });
      const isStale: boolean = quote.stale;
      expect(isStale).toBe(true);
      expect((await mds.getForexSnapshot({ symbol: 'EURUSD' })).stale).toBe(true);
    } finally {
      stream.close();
    }
  }, 30_000);
});
