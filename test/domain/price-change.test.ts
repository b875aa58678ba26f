// change and change_percent against the previous close: small moves keep their precision, float
// noise is removed, and the null rules hold (spec: Snapshot).
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { priceChange } from '../../src/domain/price-change.ts';

describe('priceChange', () => {
  test('a small index move keeps its digits (0.00919%, not 0.0092)', () => {
    expect(priceChange(6800.625, 6800, 2)).toEqual({ change: 0.625, changePercent: 0.00919118 });
  });

  test('float noise is gone: 0.1 + 0.2 style sums come out clean', () => {
    expect(priceChange(1.3, 1.2, 4)).toEqual({ change: 0.1, changePercent: 8.33333333 });
  });

  test('null rules: no close or no price gives nulls; a close of 0 gives a change but no percent', () => {
    expect(priceChange(null, 100, 2)).toEqual({ change: null, changePercent: null });
    expect(priceChange(100, null, 2)).toEqual({ change: null, changePercent: null });
    expect(priceChange(400.2, 0, 2)).toEqual({ change: 400.2, changePercent: null });
  });

  test('the percent agrees with change / prev_close to 8 decimals, whatever the prices', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.0001, max: 1e6, noNaN: true }), fc.double({ min: -0.2, max: 0.2, noNaN: true }), fc.integer({ min: 0, max: 6 }), (prev, move, decimals) => {
        const { change, changePercent } = priceChange(prev * (1 + move), prev, decimals);
        expect(Math.abs(changePercent! - (change! / prev) * 100)).toBeLessThanOrEqual(0.5e-8 + 1e-12 * Math.abs(changePercent!));
      }),
    );
  });
});
