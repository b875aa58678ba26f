// Each validation rule of the fundamentals item on its own, at its thresholds.
import { describe, expect, test } from 'bun:test';
import { countryCodeOf } from '../../src/domain/country-code.ts';
import {
  CROSS_CHECK_TOLERANCE,
  crossCheckShareCount,
  estimateReceiptFloat,
  floatRatio,
  isWithinFloatOvershoot,
  reconcileFloat,
  resolveOrdinaryCounts,
  resolveReceiptCounts,
  shortFloatRatio,
  validateReceiptFloat,
} from '../../src/domain/fundamentals-rules.ts';

describe('crossCheckShareCount', () => {
  test('the tolerance is 25% either way', () => {
    expect(CROSS_CHECK_TOLERANCE).toBe(0.25);
  });

  test.each([
    // shares × price / cap: exactly 1.25 and exactly 1/1.25 still agree
    [125, 1, 100, 'consistent'],
    [100, 1, 125, 'consistent'],
    [100, 1, 100, 'consistent'],
    [126, 1, 100, 'contradicts'],
    [100, 1, 126, 'contradicts'],
    [5_000, 300, 300_000, 'contradicts'],
  ] as const)('%d shares × %d against a cap of %d: %s', (shares, price, cap, expected) => {
    expect(crossCheckShareCount(shares, cap, price)).toBe(expected);
  });

  test('unchecked when the count, the cap or the price is missing', () => {
    expect(crossCheckShareCount(undefined, 100, 1)).toBe('unchecked');
    expect(crossCheckShareCount(100, undefined, 1)).toBe('unchecked');
    expect(crossCheckShareCount(100, 100, null)).toBe('unchecked');
  });
});

describe('resolveOrdinaryCounts', () => {
  test('a consistent pair is served', () => {
    expect(resolveOrdinaryCounts(1_000, 50_000, 50)).toEqual({ sharesTotal: 1_000, marketCap: 50_000 });
  });

  test('a jointly contradicting pair is withheld whole, with no substitute', () => {
    expect(resolveOrdinaryCounts(100, 50_000, 50)).toEqual({});
  });

  test('an unchecked figure is served as reported', () => {
    expect(resolveOrdinaryCounts(1_000, undefined, 50)).toEqual({ sharesTotal: 1_000 });
    expect(resolveOrdinaryCounts(1_000, 50_000, null)).toEqual({ sharesTotal: 1_000, marketCap: 50_000 });
    expect(resolveOrdinaryCounts(undefined, 50_000, 50)).toEqual({ marketCap: 50_000 });
  });
});

describe('resolveReceiptCounts', () => {
  test('a count that agrees with cap and price is served', () => {
    expect(resolveReceiptCounts(1_000, 50_000, 50)).toEqual({ sharesTotal: 1_000, marketCap: 50_000 });
  });

  test('a contradicting count (ordinary shares, 5 per receipt) is replaced by cap over live price', () => {
    expect(resolveReceiptCounts(5_000, 50_000, 49)).toEqual({ marketCap: 50_000, sharesListedEst: 1_020 });
  });

  test('a count that cannot be checked is withheld, with no estimate', () => {
    expect(resolveReceiptCounts(5_000, undefined, 50)).toEqual({});
    expect(resolveReceiptCounts(5_000, 50_000, null)).toEqual({ marketCap: 50_000 });
  });
});

describe('float rules', () => {
  test('the 5% allowance is inclusive and exact', () => {
    expect(isWithinFloatOvershoot(1_050, 1_000)).toBe(true);
    expect(isWithinFloatOvershoot(1_051, 1_000)).toBe(false);
    // 1.05 is not exact in binary; integer arithmetic keeps large counts exact
    expect(isWithinFloatOvershoot(16_427_250_000, 15_645_000_000)).toBe(true);
    expect(isWithinFloatOvershoot(16_427_250_001, 15_645_000_000)).toBe(false);
  });

  test('a float within the count is kept', () => {
    expect(reconcileFloat(900, 1_000, 0.1)).toBe(900);
    expect(reconcileFloat(1_000, 1_000, undefined)).toBe(1_000);
  });

  test('exactly 5% over is rebuilt as shares_total minus insider holdings', () => {
    expect(reconcileFloat(1_050, 1_000, 0.04)).toBe(960);
  });

  test('just past 5% over is left out', () => {
    expect(reconcileFloat(1_051, 1_000, 0.04)).toBeNull();
  });

  test('over by less than 5% without insider ownership cannot be reconciled', () => {
    expect(reconcileFloat(1_020, 1_000, undefined)).toBeNull();
  });

  test("a receipt's float on its own holds up to 5% over the listing estimate", () => {
    expect(validateReceiptFloat(1_050, 1_000)).toBe(1_050);
    expect(validateReceiptFloat(1_051, 1_000)).toBeNull();
    expect(validateReceiptFloat(900, undefined)).toBeNull();
  });

  test('free_float_est: a float on the ordinary base gets its reported fraction applied', () => {
    // 4,500 of 5,000 ordinary shares float (90%); the listing has 1,000 receipts
    expect(estimateReceiptFloat(4_500, 5_000, 1_000, true, 0.02)).toBe(900);
  });

  test('free_float_est: otherwise the listing count less insider ownership', () => {
    // float above the reported count: not on the ordinary base
    expect(estimateReceiptFloat(6_000, 5_000, 1_000, true, 0.02)).toBe(980);
    // count served, float failed against it
    expect(estimateReceiptFloat(1_100, 1_000, 1_000, false, 0.1)).toBe(900);
    // no reported count at all
    expect(estimateReceiptFloat(4_500, undefined, 1_000, false, 0.25)).toBe(750);
  });

  test('free_float_est needs a listing count, and insider ownership when the fraction cannot apply', () => {
    expect(estimateReceiptFloat(4_500, 5_000, undefined, true, 0.02)).toBeUndefined();
    expect(estimateReceiptFloat(6_000, 5_000, 1_000, true, undefined)).toBeUndefined();
  });
});

describe('ratios', () => {
  test('float_ratio is free_float / shares_total when both are served and consistent', () => {
    expect(floatRatio(750, 1_000)).toBe(0.75);
    expect(floatRatio(1_000, 1_000)).toBe(1);
    expect(floatRatio(1_001, 1_000)).toBeUndefined();
    expect(floatRatio(undefined, 1_000)).toBeUndefined();
    expect(floatRatio(750, undefined)).toBeUndefined();
    expect(floatRatio(0, 0)).toBeUndefined();
  });

  test('short_float_ratio is short_interest / free_float under the same guarantee', () => {
    expect(shortFloatRatio(50, 1_000)).toBe(0.05);
    expect(shortFloatRatio(1_001, 1_000)).toBeUndefined();
    expect(shortFloatRatio(50, undefined)).toBeUndefined();
    expect(shortFloatRatio(undefined, 1_000)).toBeUndefined();
  });
});

describe('countryCodeOf', () => {
  test.each([
    ['United States', 'US'],
    ['United States of America', 'US'],
    ['Taiwan', 'TW'],
    ['Netherlands', 'NL'],
    ['the Netherlands', 'NL'],
    ['United Kingdom', 'GB'],
    ['South Korea', 'KR'],
    ['Deutschland', 'DE'],
    ['España', 'ES'],
    ['  japan ', 'JP'],
    ['DNK', 'DK'],
    ['CH', 'CH'],
  ])('%s → %s', (country, code) => {
    expect(countryCodeOf(country)).toBe(code);
  });

  test.each(['European Union', 'Atlantis', '', 'XX', 'ZZZ'])('%j resolves to nothing', (country) => {
    expect(countryCodeOf(country)).toBeUndefined();
  });

  test('no country, no code', () => {
    expect(countryCodeOf(undefined)).toBeUndefined();
  });
});
