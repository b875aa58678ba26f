// Resume across gaps and restarts on the real server: when the ring no longer reaches back to
// `since` the ack says where the replay starts (gap), and forex ts keeps increasing per symbol
// across a restart on the same data dir.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

const isType = (type: string) => (m: any) => m.type === type;

describe('resume', () => {
  test('since older than the ring: the ack reports the gap and the first seq replayed, and the replay starts there', async () => {
    await using server = await startServer({ args: ['--ring-capacity', '128', '--sim-rate', '100'] });
    const url = `${server.base.replace('http', 'ws')}/?apiKey=${server.key}`;
    {
      await using watcher = await connect(url);
      watcher.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
      await watcher.next((m) => m.type === 'quote' && m.seq > 300);
    }
    await using c = await connect(url);
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], since: { 'crypto.quotes': { BTCUSD: 10 } } });
    const ack = await c.next(isType('subscribed'));
    const [report] = ack.replay;
    expect(report).toMatchObject({ channel: 'crypto.quotes', symbol: 'BTCUSD', since: 10, gap: true });
    expect(report.first_seq).toBeGreaterThan(300 - 128);
    expect(report.replayed).toBeLessThanOrEqual(128);
    expect((await c.next(isType('quote'))).seq).toBe(report.first_seq);
  }, 30_000);

  test('forex ts stays strictly increasing per symbol across a restart on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mds-fxrestart-'));
    try {
      const last = new Map<string, number>();
      const collect = async (onQuote: (q: any) => void) => {
        await using server = await startServer({ dataDir, args: ['--sim-rate', '5'] });
        await using c = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${server.key}`);
        c.send({ action: 'subscribe', channels: ['forex.quotes'], symbols: ['EURUSD', 'USDJPY', 'GBPUSD'] });
        await c.next(isType('subscribed'));
        const seen = new Set<string>();
        while (seen.size < 3) {
          const q = await c.next(isType('quote'));
          onQuote(q);
          seen.add(q.symbol);
        }
      };
      await collect((q) => last.set(q.symbol, q.ts));
      // The restarted server's clock starts at the same instant again: ts must not repeat or go back.
      await collect((q) => {
        expect(q.ts).toBeGreaterThan(last.get(q.symbol)!);
        last.set(q.symbol, q.ts);
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
