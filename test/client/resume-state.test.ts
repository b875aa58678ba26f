// The stream client's pure parts: what it does with each tick's seq (deliver, drop as a duplicate,
// report a gap), the frames that restore a connection, the replay reports, the backoff delays and
// the event queue behind the async iterator.
import { describe, expect, test } from 'bun:test';
import { ResumeState } from '../../client/src/resume-state.ts';
import { backoffDelayMs } from '../../client/src/backoff.ts';
import { EventQueue } from '../../client/src/event-queue.ts';
import type { QuoteMessage } from '../../client/src/index.ts';

const quote = (symbol: string, seq: number): QuoteMessage => ({ type: 'quote', channel: 'crypto.quotes', asset: 'crypto', symbol, bid: 1, ask: 2, bid_size: null, ask_size: null, ts: seq, timestamp: seq, seq });

describe('ResumeState', () => {
  test('delivers each seq once per pair: a seq at or below the last one seen is a duplicate', () => {
    const s = new ResumeState();
    const verdicts = [5, 6, 6, 4, 7].map((seq) => s.onTick(quote('BTCUSD', seq)).deliver);
    expect(verdicts).toEqual([true, true, false, false, true]);
    expect(s.onTick(quote('ETHUSD', 1)).deliver).toBe(true);
    expect(s.duplicates).toBe(2);
  });

  test('a jump in seq is a gap naming the missed range', () => {
    const s = new ResumeState();
    s.onTick(quote('BTCUSD', 10));
    expect(s.onTick(quote('BTCUSD', 15))).toEqual({ deliver: true, gap: { type: 'gap', channel: 'crypto.quotes', symbol: 'BTCUSD', from: 11, to: 14 } });
  });

  test('after a conflated frame, the quotes it announces jump in seq without a gap; later jumps are gaps again', () => {
    const s = new ResumeState();
    s.onTick(quote('BTCUSD', 10));
    s.onTick(quote('ETHUSD', 20));
    s.onConflated(2);
    expect(s.onTick(quote('BTCUSD', 50))).toEqual({ deliver: true, gap: null });
    expect(s.onTick(quote('ETHUSD', 90))).toEqual({ deliver: true, gap: null });
    expect(s.onTick(quote('BTCUSD', 52))).toEqual({ deliver: true, gap: { type: 'gap', channel: 'crypto.quotes', symbol: 'BTCUSD', from: 51, to: 51 } });
  });

  test('restore frames: per channel, since for the pairs seen, snapshot only when some pair was never seen, * on its own', () => {
    const s = new ResumeState();
    s.confirm([
      { channel: 'crypto.quotes', symbol: 'BTCUSD' },
      { channel: 'crypto.quotes', symbol: 'ETHUSD' },
      { channel: 'crypto.trades', symbol: 'BTCUSD' },
      { channel: 'forex.quotes', symbol: '*' },
    ]);
    s.onTick(quote('BTCUSD', 1064));
    s.onTick(quote('ETHUSD', 7));
    let id = 0;
    expect(s.restoreFrames(1000, true, () => ++id)).toEqual([
      { action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD', 'ETHUSD'], id: 1, since: { 'crypto.quotes': { BTCUSD: 1064, ETHUSD: 7 } } },
      { action: 'subscribe', channels: ['crypto.trades'], symbols: ['BTCUSD'], id: 2, snapshot: true },
      { action: 'subscribe', channels: ['forex.quotes'], symbols: ['*'], id: 3 },
    ]);
    expect(s.restoreFrames(1, false, () => ++id).map((f) => f.symbols)).toEqual([['BTCUSD'], ['ETHUSD'], ['BTCUSD'], ['*']]);
  });

  test('a replay report with a gap no tick has shown yet is reported once; one the ticks showed is not repeated', () => {
    const s = new ResumeState();
    s.onTick(quote('BTCUSD', 10));
    s.onTick(quote('ETHUSD', 10));
    // ETHUSD's replay started at 20 and its first replayed tick already came (found by onTick).
    expect(s.onTick(quote('ETHUSD', 20)).gap).toEqual({ type: 'gap', channel: 'crypto.quotes', symbol: 'ETHUSD', from: 11, to: 19 });
    const reports = [
      { channel: 'crypto.quotes' as const, symbol: 'BTCUSD', since: 10, replayed: 0, first_seq: 31, gap: true },
      { channel: 'crypto.quotes' as const, symbol: 'ETHUSD', since: 10, replayed: 5, first_seq: 20, gap: true },
      { channel: 'perpetuals.quotes' as const, symbol: 'BTCUSDT', since: 3, replayed: 0, first_seq: null, gap: true },
    ];
    expect(s.onReplay(reports)).toEqual([{ type: 'gap', channel: 'crypto.quotes', symbol: 'BTCUSD', from: 11, to: 30 }]);
    expect(s.onReplay(reports)).toEqual([]);
    expect(s.onTick(quote('BTCUSD', 31))).toEqual({ deliver: true, gap: null });
  });

  test('a server whose counter is behind the client (a new data dir) is followed from its first seq', () => {
    const s = new ResumeState();
    s.onTick(quote('BTCUSD', 500));
    expect(s.onReplay([{ channel: 'crypto.quotes', symbol: 'BTCUSD', since: 500, replayed: 0, first_seq: 3, gap: false }])).toEqual([]);
    expect(s.onTick(quote('BTCUSD', 3)).deliver).toBe(true);
  });

  test('pairs no longer confirmed forget their seq (subscribed again, they start with a snapshot); * keeps its symbols', () => {
    const s = new ResumeState();
    s.confirm([{ channel: 'crypto.quotes', symbol: 'BTCUSD' }]);
    s.onTick(quote('BTCUSD', 9));
    s.onTick(quote('SOLUSD', 4));
    s.confirm([{ channel: 'crypto.quotes', symbol: '*' }]);
    expect(s.last('crypto.quotes', 'BTCUSD')).toBe(9);
    s.confirm([]);
    expect(s.last('crypto.quotes', 'BTCUSD')).toBeUndefined();
    expect(s.subscribeFrame(['crypto.quotes'], ['btcusd'], 1, true)).toEqual({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['btcusd'], id: 1, snapshot: true });
  });
});

describe('backoffDelayMs', () => {
  test('grows by the factor up to the maximum, jittered between half and all of the ceiling', () => {
    const opts = { initialDelayMs: 100, maxDelayMs: 1000, factor: 2 };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelayMs(a, opts, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelayMs(a, opts, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
  });
});

describe('EventQueue', () => {
  test('yields pushed values in order, waits for more, and ends after the values queued before the end', async () => {
    const q = new EventQueue<number>();
    for (let i = 0; i < 3000; i++) q.push(i);
    const read: number[] = [];
    const reading = (async () => {
      for await (const v of q) read.push(v);
    })();
    q.push(3000);
    q.end();
    await reading;
    expect(read).toEqual(Array.from({ length: 3001 }, (_, i) => i));
  });

  test('an end with an error throws it after the queued values', async () => {
    const q = new EventQueue<number>();
    q.push(1);
    q.end({ error: new Error('key revoked') });
    expect(await q.next()).toEqual({ value: 1, done: false });
    await expect(q.next()).rejects.toThrow('key revoked');
  });
});
