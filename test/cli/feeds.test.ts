// `mds feeds` and `--feeds FILE`: the list of feeds, and per-feed settings checked before anything
// is written (a bad file exits 2 naming the field and what it takes; credentials come from the
// environment by variable name and their values are never shown).
import { describe, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VenueProtocol } from '../../src/ingest/adapters/venue-protocol.ts';
import { feedsText } from '../../src/cli/feeds.ts';
import { planVenueFeeds, type FeedsFile } from '../../src/cli/feeds-file.ts';
import { runMds } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A venue protocol as a registered adapter declares it (parsing is not exercised here). */
const VENUE: VenueProtocol = {
  id: 'testex',
  description: 'Test exchange spot top of book and trades',
  assetClass: 'crypto',
  defaultUrl: 'wss://stream.testex.example/ws',
  credentials: ['TESTEX_KEY'],
  defaultInstruments: [{ assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' }],
  venueSymbolOf: (symbol) => (/^[A-Z0-9]+USD$/.test(symbol) ? `${symbol.slice(0, -3)}-USD` : null),
  maxSymbolsPerFrame: 10,
  maxFramesPerSecond: 5,
  subscribeFrames: (symbols) => [JSON.stringify({ subscribe: symbols })],
  parse: () => [],
};

describe('mds feeds', () => {
  test('lists the simulator, with the classes it supplies', async () => {
    const r = await runMds('feeds');
    expect(r.code).toBe(0);
    expect(r.out).toContain('sim  (default)');
    expect(r.out).toContain('perpetuals (14)');
  });

  test('lists each registered venue with its class, URL, default instruments and credentials', () => {
    const text = feedsText([VENUE]);
    expect(text).toContain('testex\n  Test exchange spot top of book and trades\n  class: crypto\n  url: wss://stream.testex.example/ws\n  default instruments (mds=venue): BTCUSD=BTC-USD\n  credentials: environment variables TESTEX_KEY');
  });

  test('an argument is a usage error (exit 2)', async () => {
    const r = await runMds('feeds', 'extra');
    expect(r.code).toBe(2);
    expect(r.err).toStartWith("mds: mds feeds takes no arguments");
  });
});

describe('per-feed settings', () => {
  const env = { TESTEX_KEY: 'secret-value-1', OTHER_VAR: 'secret-value-2' };

  test('defaults: the protocol URL, its default instruments, the credential from its own variable', () => {
    const [plan] = planVenueFeeds(['sim', 'testex'], null, [VENUE], env);
    expect(plan!.settings).toEqual({ instruments: VENUE.defaultInstruments, credentials: { TESTEX_KEY: 'secret-value-1' } });
  });

  test('instruments mapped by the protocol, the file’s symbols, or given explicitly; URL and timeouts passed on; the credential from a named variable', () => {
    const file: FeedsFile = {
      feeds: {
        testex: {
          url: 'ws://127.0.0.1:9999/',
          instruments: ['ETHUSD', 'SOLUSD', { symbol: 'ZZTUSD', venueSymbol: 'ZZT-X', name: 'Zeta', decimals: 4 }],
          symbols: { SOLUSD: 'SOL-USDC' },
          credentials: { TESTEX_KEY: 'OTHER_VAR' },
          silentMs: 5000,
          backoffMinMs: 100,
          backoffMaxMs: 2000,
        },
      },
    };
    const [plan] = planVenueFeeds(['testex'], file, [VENUE], env);
    expect(plan!.settings).toEqual({
      url: 'ws://127.0.0.1:9999/',
      instruments: [
        { assetClass: 'crypto', symbol: 'ETHUSD', venueSymbol: 'ETH-USD' },
        { assetClass: 'crypto', symbol: 'SOLUSD', venueSymbol: 'SOL-USDC' },
        { assetClass: 'crypto', symbol: 'ZZTUSD', venueSymbol: 'ZZT-X', name: 'Zeta', decimals: 4 },
      ],
      credentials: { TESTEX_KEY: 'secret-value-2' },
      silentMs: 5000,
      backoffMinMs: 100,
      backoffMaxMs: 2000,
    });
  });

  test.each([
    [['nope'], null, '--feed: no feed "nope"; the feeds are sim, testex'],
    [['sim'], { feeds: { testex: {} } }, 'feeds file: /feeds/testex: testex is not among --feed (sim)'],
    [['testex'], { feeds: { sim: {} } }, 'feeds file: /feeds/sim: the simulator takes its settings from the serve flags'],
    [['testex'], { feeds: { testex: { instruments: ['EURGBP'] } } }, 'feeds file: /feeds/testex/instruments/0: testex has no venue symbol for "EURGBP"'],
    [['testex'], { feeds: { testex: { credentials: { API_KEY: 'X' } } } }, 'feeds file: /feeds/testex/credentials/API_KEY: testex takes the credentials TESTEX_KEY'],
    [['testex'], { feeds: { testex: { credentials: { TESTEX_KEY: 'UNSET_VAR' } } } }, 'feeds file: /feeds/testex/credentials/TESTEX_KEY: testex needs the environment variable UNSET_VAR set'],
    [['testex'], { feeds: { testex: { backoffMinMs: 5000, backoffMaxMs: 100 } } }, 'feeds file: /feeds/testex/backoffMinMs: must not exceed backoffMaxMs'],
  ] as [string[], FeedsFile | null, string][])('%p %j is refused: %s', (ids, file, message) => {
    expect(() => planVenueFeeds(ids, file, [VENUE], env)).toThrow(message);
  });

  test('a missing credential names the variable, never a value', () => {
    let message = '';
    try {
      planVenueFeeds(['testex'], null, [VENUE], { OTHER_VAR: 'secret-value-2' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('TESTEX_KEY');
    expect(message).not.toContain('secret');
  });
});

describe('mds serve --feeds FILE', () => {
  test.each([
    ['{', 'mds: cannot read feeds file'],
    ['{"feeds": {"testex": {"silentMs": "5s"}}}', '/feeds/testex/silentMs: Expected integer (silentMs takes an integer from 1000 to 3600000)'],
    ['{"feeds": {"testex": {"url": "http://x"}}}', '/feeds/testex/url: Expected string to match'],
    ['{"feeds": {"testex": {"colour": "red"}}}', "(a feed's settings: url, restUrl, instruments, symbols, credentials, silentMs, backoffMinMs, backoffMaxMs)"],
    ['{"feeds": {"binance": {}}}', 'mds: feeds file', ],
  ])('%s exits 2 naming the field, before the data dir is made', async (text, message) => {
    using dir = tempDir();
    const file = join(dir.path, 'feeds.json');
    writeFileSync(file, text);
    const dataDir = join(dir.path, 'data');
    const r = await runMds('serve', '--data-dir', dataDir, '--feeds', file);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(existsSync(dataDir)).toBe(false);
  });
});
