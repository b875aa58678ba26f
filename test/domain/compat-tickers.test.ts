// Vendor tickers ↔ mds symbols: each mapping goes both ways, and text that cannot be a ticker of
// the kind is null (never a wrong symbol).
import { describe, expect, test } from 'bun:test';
import { indexFromTicker, pairFromVendor, stockFromTicker, tickerOfIndex, tickerOfStock, vendorPair } from '../../src/domain/compat-tickers.ts';

describe('compat tickers', () => {
  test('US stocks are bare tickers; other markets have none', () => {
    expect(stockFromTicker('aapl')).toBe('US:AAPL');
    expect(tickerOfStock('US:BRK.B')).toBe('BRK.B');
    expect(tickerOfStock('DE:SAP')).toBeNull();
  });

  test.each([
    ['BTC-USD', '-', 'BTCUSD'],
    ['btc/usd', '/', 'BTCUSD'],
    ['EUR/USD', '/', 'EURUSD'],
    ['1INCH-USD', '-', '1INCHUSD'],
  ])('%s (separator %s) is %s and back', (vendor, sep, symbol) => {
    expect(pairFromVendor(vendor, sep)).toBe(symbol);
    expect(vendorPair(symbol, sep)).toBe(vendor.toUpperCase());
  });

  test.each(['BTCUSD', 'BTC-US', 'BTC-USD-X', '-USD', 'BTC/USD'])('%s is not a pair with "-"', (text) => {
    expect(pairFromVendor(text, '-')).toBeNull();
  });

  test('indices: the three aliases, every other code behind I:', () => {
    expect([indexFromTicker('I:SPX'), indexFromTicker('i:ndx'), indexFromTicker('I:DJI'), indexFromTicker('I:DE40'), indexFromTicker('I:US500')]).toEqual(['US500', 'US100', 'US30', 'DE40', 'US500']);
    expect([tickerOfIndex('US500'), tickerOfIndex('US100'), tickerOfIndex('US30'), tickerOfIndex('JP225')]).toEqual(['I:SPX', 'I:NDX', 'I:DJI', 'I:JP225']);
    expect([indexFromTicker('SPX'), indexFromTicker('I:')]).toEqual([null, null]);
  });
});
