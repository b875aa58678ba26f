// The logger: levels, the text and JSON line formats, fields, and the sentence adapter that reads a
// level and fields from how a line starts.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../src/clock.ts';
import { createLogger, loggerOf, type LogFormat, type LogLevel } from '../src/log.ts';
import { createApp } from '../src/api/app.ts';
import { Authenticator } from '../src/auth/authenticator.ts';
import { BUILT_IN_PLANS } from '../src/domain/plans.ts';
import { CATALOG } from '../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../src/ingest/reference/seed-registry.ts';
import { Store } from '../src/store/index.ts';
import { tempDir } from './support/temp-dir.ts';

const AT = Date.UTC(2026, 10, 25, 21, 15, 33, 444);

function rig(format: LogFormat, level: LogLevel = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ clock: new ManualClock(AT), format, level, write: (line) => lines.push(line) });
  return { lines, logger };
}

describe('text lines', () => {
  test('time, level, message, then key=value fields; values with spaces quoted', () => {
    const { lines, logger } = rig('text');
    logger.info('stream: closed s1', { conn: 's1', key_id: 'key_abc', reason: 'API key revoked' });
    expect(lines).toEqual(['2026-11-25T21:15:33.444Z info stream: closed s1 conn=s1 key_id=key_abc reason="API key revoked"']);
  });

  test('lines below the level are dropped', () => {
    const { lines, logger } = rig('text', 'warn');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines).toEqual(['2026-11-25T21:15:33.444Z warn w', '2026-11-25T21:15:33.444Z error e']);
  });
});

describe('JSON lines', () => {
  test('one object per line with time, level, msg and the fields; a child adds its fields', () => {
    const { lines, logger } = rig('json', 'debug');
    const feed = logger.child({ feed: 'binance' });
    feed.debug('connected', { attempt: 2 });
    feed.error('worker failed', { msg: 'not overwritten' });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { time: '2026-11-25T21:15:33.444Z', level: 'debug', msg: 'connected', feed: 'binance', attempt: 2 },
      { time: '2026-11-25T21:15:33.444Z', level: 'error', msg: 'worker failed', feed: 'binance' },
    ]);
  });
});

describe('sentences through lineLogger()', () => {
  test('error: and warning: give the level; feed and stream lines give their fields', () => {
    const { lines, logger } = rig('json');
    const log = logger.lineLogger();
    log('error: writes to the data dir fail (ENOSPC)');
    log('warning: low disk space');
    log('feed binance: no message for 3000 ms (limit 2000 ms): lines stale, reconnecting');
    log('feed kraken failed: start failed; the server goes on with what it has');
    log('stream: closed s1f (key key_0a1b): API key revoked');
    log('stream: closing s2 (key key_9) as a slow consumer: 2000000 bytes unsent; nothing more is sent to it');
    log('retention: removed 3 bar chunks');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { time: '2026-11-25T21:15:33.444Z', level: 'error', msg: 'writes to the data dir fail (ENOSPC)' },
      { time: '2026-11-25T21:15:33.444Z', level: 'warn', msg: 'low disk space' },
      { time: '2026-11-25T21:15:33.444Z', level: 'info', msg: 'feed binance: no message for 3000 ms (limit 2000 ms): lines stale, reconnecting', feed: 'binance' },
      { time: '2026-11-25T21:15:33.444Z', level: 'info', msg: 'feed kraken failed: start failed; the server goes on with what it has', feed: 'kraken' },
      { time: '2026-11-25T21:15:33.444Z', level: 'info', msg: 'stream: closed s1f (key key_0a1b): API key revoked', conn: 's1f', key_id: 'key_0a1b' },
      { time: '2026-11-25T21:15:33.444Z', level: 'info', msg: 'stream: closing s2 (key key_9) as a slow consumer: 2000000 bytes unsent; nothing more is sent to it', conn: 's2', key_id: 'key_9' },
      { time: '2026-11-25T21:15:33.444Z', level: 'info', msg: 'retention: removed 3 bar chunks' },
    ]);
  });

  test('over a sentence sink a sentence comes out as it went in', () => {
    const out: string[] = [];
    const log = loggerOf((line) => out.push(line)).lineLogger();
    for (const line of ['warning: key key_1 has plan "free"', 'error: recording fails', 'history ready in 1.2s']) log(line);
    expect(out).toEqual(['warning: key key_1 has plan "free"', 'error: recording fails', 'history ready in 1.2s']);
  });
});

describe('the REST 500 line', () => {
  test('is an error with request id, method and the route without its query (which may carry the key)', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'latest') return () => { throw new Error('disk read failed'); };
        return Reflect.get(target, prop, receiver);
      },
    });
    const clock = new ManualClock(AT);
    const key = 'SECRET-dev-key-123';
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: key, devPerMinute: 100 });
    const { lines, logger } = rig('json');
    const app = createApp({ store: failing, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, logger);
    const res = await app.handle(new Request(`http://localhost/crypto/quote/BTCUSD?apiKey=${key}`));
    expect(res.status).toBe(503);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'error', method: 'GET', route: '/crypto/quote/BTCUSD', request_id: res.headers.get('x-request-id') });
    expect(line.msg).toBe('request failed: disk read failed');
    expect(String(line.stack)).toStartWith('Error: disk read failed\n    at ');
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).not.toContain('apiKey');
    await store.close();
  });
});
