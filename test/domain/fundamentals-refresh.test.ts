// The rules put together: what a raw record becomes as a served item, and how a new record
// refreshes a stored one (share structure as one set, as_of on real refreshes, monthly profile).
import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { FundamentalsItemSchema, type EncodedFundamentals } from '../../src/domain/fundamentals.ts';
import type { RawFundamentals } from '../../src/domain/fundamentals-input.ts';
import { applyFundamentals, missingFigures, validateShareStructure } from '../../src/domain/fundamentals-refresh.ts';

function raw(fields: Partial<RawFundamentals> = {}): RawFundamentals {
  return { symbol: 'US:ACME', market: 'US', baseSymbol: 'ACME', asOf: '2026-03-02', isDepositaryReceipt: false, ...fields };
}

/** An ordinary listing at $50 with 1,000 shares: a cap of 50,000 agrees. */
const CLEAN = { marketCap: 50_000, sharesTotal: 1_000, freeFloat: 800, shortInterest: 40, insiderOwnership: 0.1, adv10d: 20, adv90d: 25 };

function item(written: EncodedFundamentals | null): Record<string, unknown> {
  if (!written) throw new Error('expected a record');
  const parsed = JSON.parse(written.json);
  expect(Value.Check(FundamentalsItemSchema, parsed)).toBe(true);
  return parsed;
}

describe('validateShareStructure: ordinary listings', () => {
  test('clean figures are served with both ratios, consistent with the counts', () => {
    expect(validateShareStructure(raw(CLEAN), 50)).toEqual({ ...CLEAN, floatRatio: 0.8, shortFloatRatio: 0.05 });
  });

  test('a jointly contradicting count and cap are both withheld; the float goes with them', () => {
    const s = validateShareStructure(raw({ ...CLEAN, sharesTotal: 100, freeFloat: 80 }), 50);
    expect(s).toEqual({ shortInterest: 40, insiderOwnership: 0.1, adv10d: 20, adv90d: 25 });
  });

  test('a float exactly 5% over is rebuilt; the ratios follow the rebuilt float', () => {
    const s = validateShareStructure(raw({ ...CLEAN, freeFloat: 1_050 }), 50);
    expect(s.freeFloat).toBe(900);
    expect(s.floatRatio).toBe(0.9);
    expect(s.shortFloatRatio).toBe(40 / 900);
  });

  test('a float more than 5% over is left out, and both ratios with it', () => {
    const s = validateShareStructure(raw({ ...CLEAN, freeFloat: 1_051 }), 50);
    expect(s.freeFloat).toBeUndefined();
    expect(s.floatRatio).toBeUndefined();
    expect(s.shortFloatRatio).toBeUndefined();
    expect(s.freeFloatEst).toBeUndefined();
    expect(s.sharesTotal).toBe(1_000);
  });
});

describe('validateShareStructure: depositary receipts', () => {
  // 1,000 receipts at $50, each 5 ordinary shares; the vendor reports the 5,000 ordinary shares.
  const RECEIPT = { isDepositaryReceipt: true, marketCap: 50_000, sharesTotal: 5_000, insiderOwnership: 0.02, shortInterest: 10 };

  test('a contradicting count is withheld and replaced by shares_listed_est; never both', () => {
    const s = validateShareStructure(raw(RECEIPT), 50);
    expect(s.sharesTotal).toBeUndefined();
    expect(s.sharesListedEst).toBe(1_000);
    expect(s.marketCap).toBe(50_000);
  });

  test('with a float in listing units: free_float without shares_total and without float_ratio', () => {
    const s = validateShareStructure(raw({ ...RECEIPT, freeFloat: 950 }), 50);
    expect(s).toEqual({ marketCap: 50_000, sharesListedEst: 1_000, freeFloat: 950, shortInterest: 10, shortFloatRatio: 10 / 950, insiderOwnership: 0.02 });
  });

  test('with a float on the ordinary base: free_float_est applies its fraction, never with free_float', () => {
    const s = validateShareStructure(raw({ ...RECEIPT, freeFloat: 4_500 }), 50);
    expect(s.freeFloat).toBeUndefined();
    expect(s.freeFloatEst).toBe(900);
    expect(s.floatRatio).toBeUndefined();
    expect(s.shortFloatRatio).toBeUndefined();
  });

  test('with a float on neither base: listing count less insider ownership', () => {
    expect(validateShareStructure(raw({ ...RECEIPT, freeFloat: 6_000 }), 50).freeFloatEst).toBe(980);
  });

  test('without a reported float: neither float field', () => {
    const s = validateShareStructure(raw(RECEIPT), 50);
    expect(s.freeFloat).toBeUndefined();
    expect(s.freeFloatEst).toBeUndefined();
  });

  test('a receipt whose count agrees is served like an ordinary listing', () => {
    const s = validateShareStructure(raw({ ...RECEIPT, sharesTotal: 1_000, freeFloat: 900 }), 50);
    expect(s.sharesTotal).toBe(1_000);
    expect(s.sharesListedEst).toBeUndefined();
    expect(s.freeFloat).toBe(900);
    expect(s.floatRatio).toBe(0.9);
  });

  test('a receipt with an agreeing count and a float 8% over gets free_float_est from insider ownership', () => {
    const s = validateShareStructure(raw({ ...RECEIPT, sharesTotal: 1_000, freeFloat: 1_080 }), 50);
    expect(s.freeFloat).toBeUndefined();
    expect(s.freeFloatEst).toBe(980);
    expect(s.sharesTotal).toBe(1_000);
  });

  test('without a live price the count is withheld and nothing is estimated', () => {
    const s = validateShareStructure(raw({ ...RECEIPT, freeFloat: 950 }), null);
    expect(s).toEqual({ marketCap: 50_000, shortInterest: 10, insiderOwnership: 0.02 });
  });
});

describe('applyFundamentals', () => {
  const firstWritten = applyFundamentals(undefined, raw({ ...CLEAN, company: 'Acme Corp.', country: 'Germany', sector: 'Industrials' }), 50).written!;
  const first = firstWritten.record;

  test('identity fields are always present; unknown fields are left out, never null', () => {
    expect(item(firstWritten)).toEqual({
      symbol: 'US:ACME',
      base_symbol: 'ACME',
      market: 'US',
      company: 'Acme Corp.',
      country: 'Germany',
      country_code: 'DE',
      sector: 'Industrials',
      market_cap: 50_000,
      shares_total: 1_000,
      free_float: 800,
      float_ratio: 0.8,
      short_interest: 40,
      short_float_ratio: 0.05,
      insider_ownership: 0.1,
      adv_10d: 20,
      adv_90d: 25,
      as_of: '2026-03-02',
    });
    expect(firstWritten.json).not.toContain('null');
  });

  test('an unresolvable country leaves country_code out', () => {
    expect(item(applyFundamentals(undefined, raw({ country: 'European Union' }), 50).written)).toEqual({ symbol: 'US:ACME', base_symbol: 'ACME', market: 'US', country: 'European Union' });
  });

  test('a newer complete set is a real refresh: figures and as_of advance', () => {
    const r = applyFundamentals(first, raw({ ...CLEAN, shortInterest: 60, asOf: '2026-03-03' }), 50);
    expect(r.shares).toBe('refreshed');
    expect(item(r.written)).toMatchObject({ short_interest: 60, as_of: '2026-03-03' });
  });

  test('a restatement with a missing figure keeps the previous set and its as_of', () => {
    const { shortInterest: _, ...withoutShort } = CLEAN;
    const r = applyFundamentals(first, raw({ ...withoutShort, adv10d: 99, asOf: '2026-03-03' }), 50);
    expect(r.shares).toBe('kept');
    expect(r.missing).toEqual(['short_interest']);
    expect(r.written).toBeNull();
  });

  test('a restatement whose figure fails validation also keeps the previous set', () => {
    const r = applyFundamentals(first, raw({ ...CLEAN, sharesTotal: 100, asOf: '2026-03-03' }), 50);
    expect(r.shares).toBe('kept');
    expect(r.missing).toEqual(['market_cap', 'share count', 'free float']);
  });

  test('the same vintage again changes nothing; corrected figures of the same vintage keep as_of', () => {
    expect(applyFundamentals(first, raw(CLEAN), 50)).toMatchObject({ shares: 'unchanged', written: null });
    const r = applyFundamentals(first, raw({ ...CLEAN, adv10d: 21 }), 50);
    expect(r.shares).toBe('restated');
    expect(item(r.written)).toMatchObject({ adv_10d: 21, as_of: '2026-03-02' });
  });

  test('an older vintage is stale and ignored', () => {
    expect(applyFundamentals(first, raw({ ...CLEAN, adv10d: 1, asOf: '2026-03-01' }), 50)).toMatchObject({ shares: 'stale', written: null });
  });

  test('an estimate replacing a served count is not a missing figure', () => {
    expect(missingFigures({ sharesTotal: 1_000, freeFloat: 900 }, { sharesListedEst: 1_000, freeFloatEst: 880 })).toEqual([]);
    expect(missingFigures({ sharesTotal: 1_000, freeFloat: 900 }, { sharesListedEst: 1_000 })).toEqual(['free float']);
  });

  test('the profile refreshes at most once a calendar month; the share structure daily', () => {
    const sameMonth = applyFundamentals(first, raw({ ...CLEAN, company: 'Acme Renamed', asOf: '2026-03-31' }), 50);
    expect(sameMonth.profile).toBe('not-due');
    expect(item(sameMonth.written)).toMatchObject({ company: 'Acme Corp.', as_of: '2026-03-31' });
    const nextMonth = applyFundamentals(sameMonth.written!.record, raw({ company: 'Acme Renamed', country: 'France', asOf: '2026-04-01' }), 50);
    expect(nextMonth.profile).toBe('refreshed');
    expect(nextMonth.shares).toBe('absent');
    // fields the refresh does not carry keep their values; the share structure is untouched
    expect(item(nextMonth.written)).toMatchObject({ company: 'Acme Renamed', country: 'France', country_code: 'FR', sector: 'Industrials', as_of: '2026-03-31' });
  });

  test('a record with nothing but identity stores nothing', () => {
    expect(applyFundamentals(undefined, raw(), 50).written).toBeNull();
  });
});
