// The `lag` warning's episodes, over the slow-consumer checks with a socket whose unsent bytes the
// test sets and a clock it moves: one warning per episode, none again while the connection stays
// behind, and one more only after it has caught up to an eighth of where its policy acts. (The
// warning's place before `conflated` and before the 4008 close, over a real server, is in
// conflate.test.ts.)
import { describe, expect, test } from 'bun:test';
import type { ServerWebSocket } from 'bun';
import type { Account } from '../../src/domain/account.ts';
import { Conflation } from '../../src/stream/conflation.ts';
import type { ConnData, StreamCounts, StreamLimits } from '../../src/stream/connections.ts';
import { createSlowConsumers, type SlowPolicy } from '../../src/stream/slow-consumers.ts';

const BOUND = 64_000;
const LIMITS: StreamLimits = { maxSubscriptions: 100, maxConnectionsPerKey: 5, maxFramesPer10s: 100, slowConsumerBytes: BOUND, heartbeatMs: 15_000, maxReplay: 100, overBudgetDelayMs: 0 };

interface FakeWs {
  ws: ServerWebSocket<ConnData>;
  /** The unsent bytes the next check sees. */
  setUnsent(bytes: number): void;
}

function fakeWs(slow: SlowPolicy, withQuotes: boolean): FakeWs {
  let unsent = 0;
  const subs = new Map();
  if (withQuotes) subs.set('crypto.quotes|BTCUSD', { channel: { name: 'crypto.quotes', kind: 'quotes' }, entry: { symbol: 'BTCUSD' } });
  const data = {
    id: 'c1',
    account: { id: 'k1' } as Account,
    format: 'json',
    subs,
    slowSweeps: null,
    refused: null,
    session: null,
    slow,
    backlog: null,
    hasConflated: false,
    lagSinceMs: null,
    lagWarned: false,
  } as unknown as ConnData;
  const ws = {
    data,
    getBufferedAmount: () => unsent,
    subscribe: () => {},
    unsubscribe: () => {},
    close: () => {},
  } as unknown as ServerWebSocket<ConnData>;
  return { ws, setUnsent: (bytes) => (unsent = bytes) };
}

function checks() {
  let nowMs = 1_000_000;
  const sent: Record<string, unknown>[] = [];
  const counts: StreamCounts = { opened: 0, refused: new Map(), closed: new Map(), framesIn: 0, framesOut: 0, bytesOut: 0, conflations: 0, lagWarnings: 0 };
  const slow = createSlowConsumers({
    limits: LIMITS,
    conflation: new Conflation(),
    clock: { nowMs: () => nowMs },
    send: (_ws, frame) => sent.push(frame),
    sendRaw: () => {},
    log: () => {},
    counts,
  });
  return {
    sent,
    counts,
    /** One 50 ms check at `atMs` of a connection with `unsent` bytes unsent. */
    check(conn: FakeWs, atMs: number, unsent: number) {
      nowMs = atMs;
      conn.setUnsent(unsent);
      slow.sweep([conn.ws]);
    },
  };
}

const lagFrames = (sent: Record<string, unknown>[]) => sent.filter((f) => f.type === 'lag');

describe('lag warning episodes', () => {
  test('disconnect: one warning past half the bound, none while still behind, another after catching up to an eighth', () => {
    const c = checks();
    const conn = fakeWs('disconnect', true);
    c.check(conn, 1_000, 0);
    c.check(conn, 1_050, BOUND / 8 + 1); // falling behind: lag_ms runs from here
    expect(lagFrames(c.sent)).toEqual([]);
    c.check(conn, 1_300, BOUND / 2 + 1);
    expect(lagFrames(c.sent)).toEqual([{ type: 'lag', unsent_bytes: BOUND / 2 + 1, limit_bytes: BOUND, slow: 'disconnect', lag_ms: 250, ts: 1_300 }]);

    // Still behind, even further: no second warning; down to just above an eighth: still the same episode.
    c.check(conn, 1_350, (BOUND * 3) / 4);
    c.check(conn, 1_400, BOUND / 8 + 1);
    c.check(conn, 1_450, BOUND / 2 + 1);
    expect(lagFrames(c.sent)).toHaveLength(1);

    // Caught up to an eighth of the bound: the next episode warns again, its lag_ms from its own start.
    c.check(conn, 2_000, BOUND / 8);
    c.check(conn, 2_050, BOUND / 4);
    c.check(conn, 2_150, BOUND / 2 + 1);
    expect(lagFrames(c.sent)).toEqual([
      { type: 'lag', unsent_bytes: BOUND / 2 + 1, limit_bytes: BOUND, slow: 'disconnect', lag_ms: 250, ts: 1_300 },
      { type: 'lag', unsent_bytes: BOUND / 2 + 1, limit_bytes: BOUND, slow: 'disconnect', lag_ms: 100, ts: 2_150 },
    ]);
    expect(c.counts.lagWarnings).toBe(2);
  });

  test('conflate with quotes: the warning comes at half the hold-back (a quarter of the bound); without quotes, at half the bound', () => {
    const c = checks();
    const quotes = fakeWs('conflate', true);
    c.check(quotes, 1_000, BOUND / 8 + 1);
    expect(lagFrames(c.sent)).toEqual([{ type: 'lag', unsent_bytes: BOUND / 8 + 1, limit_bytes: BOUND / 4, slow: 'conflate', lag_ms: 0, ts: 1_000 }]);

    // Trades only: nothing to conflate, so the policy acts at the bound, as under `disconnect`.
    const trades = fakeWs('conflate', false);
    c.check(trades, 2_000, BOUND / 8 + 1);
    expect(lagFrames(c.sent)).toHaveLength(1);
    c.check(trades, 2_050, BOUND / 2 + 1);
    expect(lagFrames(c.sent).at(-1)).toEqual({ type: 'lag', unsent_bytes: BOUND / 2 + 1, limit_bytes: BOUND, slow: 'conflate', lag_ms: 50, ts: 2_050 });
  });

  test('a connection that never falls behind is never warned', () => {
    const c = checks();
    const conn = fakeWs('disconnect', true);
    for (let i = 0; i < 100; i++) c.check(conn, 1_000 + i * 50, (i % 7) * 100);
    expect(c.sent).toEqual([]);
    expect(c.counts.lagWarnings).toBe(0);
  });
});
