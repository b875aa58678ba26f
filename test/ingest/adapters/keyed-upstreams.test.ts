// The keyed vendor upstreams (Massive, Alpaca): auth and subscribe frames as the vendors document
// them, and symbol mapping (times: parse-iso-ms.test.ts).
import { describe, expect, test } from 'bun:test';
import { ALPACA_CRYPTO, ALPACA_STOCKS } from '../../../src/ingest/adapters/alpaca/index.ts';
import { MASSIVE_CRYPTO, MASSIVE_FOREX, MASSIVE_STOCKS } from '../../../src/ingest/adapters/massive/index.ts';

describe('Massive', () => {
  test('auth sends the key from MASSIVE_API_KEY and waits for auth_success', () => {
    expect(MASSIVE_STOCKS.credentials).toEqual(['MASSIVE_API_KEY']);
    expect(MASSIVE_STOCKS.awaitsAuth).toBe(true);
    expect(MASSIVE_STOCKS.authFrames!({ MASSIVE_API_KEY: 'k123' }).map((f) => JSON.parse(f))).toEqual([{ action: 'auth', params: 'k123' }]);
  });

  test('one subscribe frame per batch: quotes and trades channels of every symbol, comma-separated', () => {
    expect(JSON.parse(MASSIVE_STOCKS.subscribeFrames(['AAPL', 'MSFT'], 1)[0]!)).toEqual({ action: 'subscribe', params: 'Q.AAPL,Q.MSFT,T.AAPL,T.MSFT' });
    expect(JSON.parse(MASSIVE_CRYPTO.subscribeFrames(['BTC-USD'], 1)[0]!)).toEqual({ action: 'subscribe', params: 'XQ.BTC-USD,XT.BTC-USD' });
    expect(JSON.parse(MASSIVE_FOREX.subscribeFrames(['EUR/USD'], 1)[0]!)).toEqual({ action: 'subscribe', params: 'C.EUR/USD' });
  });

  test('symbol mapping: US stocks by ticker, crypto BTC-USD, forex EUR/USD; anything else unmappable', () => {
    expect([MASSIVE_STOCKS.venueSymbolOf('US:AAPL'), MASSIVE_STOCKS.venueSymbolOf('DE:SAP')]).toEqual(['AAPL', null]);
    expect([MASSIVE_CRYPTO.venueSymbolOf('BTCUSD'), MASSIVE_CRYPTO.venueSymbolOf('DOGEUSD')]).toEqual(['BTC-USD', 'DOGE-USD']);
    expect([MASSIVE_FOREX.venueSymbolOf('EURUSD'), MASSIVE_FOREX.venueSymbolOf('EURUSD.RAW')]).toEqual(['EUR/USD', null]);
    expect(MASSIVE_STOCKS.defaultInstruments.every((i) => i.symbol.startsWith('US:'))).toBe(true);
    expect(MASSIVE_FOREX.suppliesTrades).toBe(false);
  });
});

describe('Alpaca', () => {
  test('auth sends key and secret from APCA_API_KEY_ID / APCA_API_SECRET_KEY and waits for authenticated', () => {
    expect(ALPACA_STOCKS.credentials).toEqual(['APCA_API_KEY_ID', 'APCA_API_SECRET_KEY']);
    expect(JSON.parse(ALPACA_STOCKS.authFrames!({ APCA_API_KEY_ID: 'id', APCA_API_SECRET_KEY: 'sec' })[0]!)).toEqual({ action: 'auth', key: 'id', secret: 'sec' });
  });

  test('subscribe adds quotes and trades of the batch', () => {
    expect(JSON.parse(ALPACA_CRYPTO.subscribeFrames(['BTC/USD', 'ETH/USD'], 1)[0]!)).toEqual({ action: 'subscribe', quotes: ['BTC/USD', 'ETH/USD'], trades: ['BTC/USD', 'ETH/USD'] });
  });

  test('the IEX default stays within its 30 trade and quote channels; crypto maps BTCUSD to BTC/USD', () => {
    expect(ALPACA_STOCKS.defaultInstruments.length).toBeLessThanOrEqual(30);
    expect(ALPACA_CRYPTO.venueSymbolOf('BTCUSD')).toBe('BTC/USD');
  });
});
