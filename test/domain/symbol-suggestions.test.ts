// "Did you mean": the pure suggestion rules over the simulator's real symbol lists (case,
// separators, market prefix, reversed pairs, vendor suffixes, typos), and what it must not suggest.
import { describe, expect, test } from 'bun:test';
import { BOND_SYMBOLS } from '../../src/domain/bonds.ts';
import { editDistance, MAX_SUGGESTIONS, suggestSymbols } from '../../src/domain/symbol-suggestions.ts';
import { CATALOG, PERPETUALS } from '../../src/ingest/reference/catalog.ts';

const of = (cls: string) => [...CATALOG, ...PERPETUALS].filter((i) => i.assetClass === cls);
const bonds = BOND_SYMBOLS.map((symbol) => ({ symbol }));

describe('suggestSymbols', () => {
  test.each([
    ['crypto', 'BTC-USD', ['BTCUSD']],
    ['crypto', 'btc/usd', ['BTCUSD']],
    ['crypto', 'BTC', ['BTCUSD']],
    ['crypto', 'BTCUSDT', ['BTCUSD']],
    ['crypto', 'ETH_USD', ['ETHUSD']],
    ['forex', 'EUR/USD', ['EURUSD']],
    ['forex', 'EURUSD=X', ['EURUSD']],
    ['forex', 'JPYUSD', ['USDJPY']],
    ['commodities', 'XAU/USD', ['XAUUSD']],
    ['commodities', 'CL-1', ['WTIUSD']],
    ['stocks', 'AAPL', ['US:AAPL']],
    ['stocks', 'aapl', ['US:AAPL']],
    ['stocks', 'US-AAPL', ['US:AAPL']],
    ['stocks', 'NASDAQ:AAPL', ['US:AAPL']],
    ['stocks', 'BRK-B', ['US:BRK.B']],
    ['stocks', 'SAP', ['US:SAP', 'DE:SAP']],
    ['stocks', 'APPL', ['US:AAPL']],
    ['stocks', 'US:APPL', ['US:AAPL']],
    ['indices', 'HK:HK50', ['HK50']],
    ['indices', 'DE30', ['DE40']],
    ['perpetuals', 'BTC-PERP', ['BTCUSDT']],
    ['perpetuals', 'BTCUSD', ['BTCUSDT']],
    ['perpetuals', 'btc-usdt', ['BTCUSDT']],
  ])('%s %s → %p', (cls, raw, want) => {
    expect(suggestSymbols(raw, of(cls))).toEqual(want);
  });

  test('bond tenors: missing colon, case, a tenor that does not exist', () => {
    expect(suggestSymbols('US10Y', bonds)).toEqual(['US:10Y']);
    expect(suggestSymbols('de-10y', bonds)).toEqual(['DE:10Y']);
    expect(suggestSymbols('US:11Y', bonds)).toEqual(['US:10Y', 'US:1Y']);
  });

  test('nothing close, nothing suggested; never more than the cap', () => {
    expect(suggestSymbols('NOPEUSD', of('crypto'))).toEqual([]);
    expect(suggestSymbols('ZZZZZZZZZZ', of('stocks'))).toEqual([]);
    expect(suggestSymbols('', of('crypto'))).toEqual([]);
    expect(suggestSymbols('-/-', of('crypto'))).toEqual([]);
    expect(suggestSymbols('X'.repeat(65), of('crypto'))).toEqual([]);
    const many = Array.from({ length: 20 }, (_, i) => ({ symbol: `AB${String.fromCharCode(65 + i)}` }));
    expect(suggestSymbols('ABZ', many)).toHaveLength(MAX_SUGGESTIONS);
  });

  test('editDistance counts an adjacent swap as one edit and stops past the bound', () => {
    expect(editDistance('APPL', 'AAPL', 2)).toBe(1);
    expect(editDistance('ABCD', 'ABCD', 0)).toBe(0);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('AAAAAA', 'BBBBBB', 2)).toBe(3);
  });
});
