import { describe, expect, test } from 'bun:test';
import { ApiError } from '../../src/domain/errors.ts';
import { normalizeSymbol } from '../../src/domain/symbols.ts';

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('normalizeSymbol', () => {
  test.each([
    ['crypto', ' btcusd ', 'BTCUSD'],
    ['forex', 'eurusd', 'EURUSD'],
    ['forex', 'eurusd.raw', 'EURUSD.RAW'],
    ['stocks', 'us:aapl', 'US:AAPL'],
    ['stocks', 'US:BRK.B', 'US:BRK.B'],
    ['indices', 'us500', 'US500'],
    ['etfs', 'us500etf', 'US500ETF'],
    ['commodities', 'cl1', 'CL1'],
  ] as const)('%s %p → %p', (cls, raw, expected) => {
    expect(normalizeSymbol(cls, raw)).toBe(expected);
  });

  test('a plain stock ticker is a 400 that says MARKET:BASE is expected', () => {
    const err = errorOf(() => normalizeSymbol('stocks', 'AAPL'));
    expect(err.status).toBe(400);
    expect(err.message).toContain('MARKET:BASE');
  });

  test('a prefixed index code is a 400 that says index codes are bare', () => {
    const err = errorOf(() => normalizeSymbol('indices', 'HK:HK50'));
    expect(err.status).toBe(400);
    expect(err.message).toContain('bare');
  });

  test.each(['BTC/USD', 'BTC USD', '€UR', '../etc', 'A'.repeat(33), 'BTC\u0000', '', '   '])('rejects unsafe input %p with a 400', (raw) => {
    const err = errorOf(() => normalizeSymbol('crypto', raw));
    expect(err.status).toBe(400);
    expect(err.message).not.toMatch(/[^\x20-\x7e…]/);
  });

  test('forex accepts only six letters with an optional .RAW; other names of allowed characters are unknown symbols (404)', () => {
    expect([errorOf(() => normalizeSymbol('forex', 'EURUSDX')).status, errorOf(() => normalizeSymbol('forex', 'EURUSDX')).message]).toEqual([404, 'unknown symbol']);
    expect(errorOf(() => normalizeSymbol('forex', 'EURUSD.FOO')).status).toBe(404);
  });

  test.each([
    ['crypto', 'BTC-USD', 'unknown symbol'],
    ['forex', 'EUR:USD', 'unknown symbol'],
    ['commodities', 'XAU-USD', 'commodity symbol not supported'],
    ['perpetuals', 'BTCUSD', 'unknown symbol'],
    ['indices', 'S&P', null],
  ] as const)('%s %s: allowed characters answer the class 404, others a 400', (cls, raw, message) => {
    const err = errorOf(() => normalizeSymbol(cls, raw));
    if (message === null) expect(err.status).toBe(400);
    else expect([err.status, err.message]).toEqual([404, message]);
  });
});
