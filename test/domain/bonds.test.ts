// Bond-yield rules: coverage per country, CC:TENOR normalisation (400 with the format, 404 for
// what is not covered), observation checks and the history parameters.
import { describe, expect, test } from 'bun:test';
import { BOND_SYMBOLS, BOND_TENORS, normalizeBondCountry, normalizeBondSymbol, observationProblem, tenorMonths } from '../../src/domain/bonds.ts';
import { parseBondDate, parseBondHistoryParams } from '../../src/domain/bonds-params.ts';
import { ApiError } from '../../src/domain/errors.ts';

function errorOf(f: () => unknown): [number, string] {
  try {
    f();
  } catch (err) {
    if (err instanceof ApiError) return [err.status, err.message];
    throw err;
  }
  throw new Error('no error');
}

describe('coverage', () => {
  test('US 1M to 30Y as the Treasury publishes; DE, FR, IT, ES, GB from 1Y to 30Y', () => {
    expect(BOND_TENORS.US).toEqual(['1M', '2M', '3M', '4M', '6M', '1Y', '2Y', '3Y', '5Y', '7Y', '10Y', '20Y', '30Y']);
    for (const cc of ['DE', 'FR', 'IT', 'ES', 'GB'] as const) {
      expect(BOND_TENORS[cc][0]).toBe('1Y');
      expect(BOND_TENORS[cc].at(-1)).toBe('30Y');
    }
  });

  test('tenors are listed shortest first, each once', () => {
    for (const tenors of Object.values(BOND_TENORS)) {
      const months = tenors.map(tenorMonths);
      expect(months).toEqual([...months].sort((a, b) => a - b));
      expect(new Set(months).size).toBe(months.length);
    }
    expect(new Set(BOND_SYMBOLS).size).toBe(BOND_SYMBOLS.length);
    expect([tenorMonths('1M'), tenorMonths('6M'), tenorMonths('1Y'), tenorMonths('30Y')]).toEqual([1, 6, 12, 360]);
  });
});

describe('normalizeBondSymbol', () => {
  test('trims and uppercases', () => {
    expect(normalizeBondSymbol(' us:10y ')).toBe('US:10Y');
    expect(normalizeBondSymbol('gb:25Y')).toBe('GB:25Y');
  });

  test.each(['US10Y', 'US:', ':10Y', 'US:10', 'US:10D', 'USA:10Y', 'US:100Y', 'US:10Y;', ''])('%p is a 400 stating the format', (raw) => {
    const [status, message] = errorOf(() => normalizeBondSymbol(raw));
    expect(status).toBe(400);
    expect(message).toContain('expected COUNTRY:TENOR');
  });

  test('a country without coverage is a 404 naming the countries covered', () => {
    expect(errorOf(() => normalizeBondSymbol('JP:10Y'))).toEqual([404, 'no bond yields for this country: bond yields cover US, DE, FR, IT, ES and GB']);
  });

  test("a tenor the country does not publish is a 404 unknown symbol listing the country's tenors", () => {
    expect(errorOf(() => normalizeBondSymbol('US:8Y'))).toEqual([404, 'unknown symbol: US yields are published for 1M, 2M, 3M, 4M, 6M, 1Y, 2Y, 3Y, 5Y, 7Y, 10Y, 20Y, 30Y']);
    expect(errorOf(() => normalizeBondSymbol('DE:3M'))[0]).toBe(404);
    expect(errorOf(() => normalizeBondSymbol('ES:20Y'))[0]).toBe(404);
  });
});

describe('normalizeBondCountry', () => {
  test('trims and uppercases; 400 unless two letters; 404 unless covered', () => {
    expect(normalizeBondCountry(' it ')).toBe('IT');
    expect(errorOf(() => normalizeBondCountry('USA'))[0]).toBe(400);
    expect(errorOf(() => normalizeBondCountry('1Y'))[0]).toBe(400);
    expect(errorOf(() => normalizeBondCountry('jp'))).toEqual([404, 'no bond yields for this country: bond yields cover US, DE, FR, IT, ES and GB']);
  });
});

describe('observationProblem', () => {
  const ok = { symbol: 'US:10Y', date: '2026-02-27', yieldPct: 4.33, source: 'US Treasury daily par yield curve' };

  test('a covered symbol with a yield in percent and a source is valid', () => {
    expect(observationProblem(ok)).toBeNull();
    expect(observationProblem({ ...ok, symbol: 'DE:2Y', yieldPct: -0.71 })).toBeNull();
  });

  test('names what is wrong', () => {
    expect(observationProblem({ ...ok, symbol: 'US:15Y' })).toBe('US has no 15Y tenor; its tenors are 1M, 2M, 3M, 4M, 6M, 1Y, 2Y, 3Y, 5Y, 7Y, 10Y, 20Y, 30Y');
    expect(observationProblem({ ...ok, symbol: 'JP:10Y' })).toBe('country "JP" is not covered; bond yields cover US, DE, FR, IT, ES and GB');
    expect(observationProblem({ ...ok, yieldPct: 433 })).toBe('yield 433 is outside -5 to 50 percent');
    expect(observationProblem({ ...ok, yieldPct: NaN })).toContain('outside');
    expect(observationProblem({ ...ok, source: '  ' })).toBe('source is empty: every observation names who published it');
  });
});

describe('history parameters', () => {
  test('defaults as the range route: limit 500, offset 0, newest first', () => {
    expect(parseBondHistoryParams({ from: '2026-01-01', to: '2026-02-27' })).toEqual({ from: '2026-01-01', to: '2026-02-27', limit: 500, offset: 0, sort: 'desc' });
    expect(parseBondHistoryParams({ from: '2026-01-01', to: '2026-01-01', limit: '5000', offset: '7', sort: 'ASC' })).toEqual({ from: '2026-01-01', to: '2026-01-01', limit: 5000, offset: 7, sort: 'asc' });
  });

  test('400s say what is allowed', () => {
    expect(errorOf(() => parseBondHistoryParams({ to: '2026-01-01' }))).toEqual([400, 'missing from: expected a calendar date YYYY-MM-DD']);
    expect(errorOf(() => parseBondHistoryParams({ from: '2026-02-30', to: '2026-03-01' }))).toEqual([400, 'invalid from date "2026-02-30": expected a calendar date YYYY-MM-DD from 1970 on']);
    expect(errorOf(() => parseBondHistoryParams({ from: '2026-02-02', to: '2026-02-01' }))).toEqual([400, 'invalid window: to (2026-02-01) must be on or after from (2026-02-02)']);
    expect(errorOf(() => parseBondHistoryParams({ from: '2026-01-01', to: '2026-02-01', limit: '0' }))).toEqual([400, 'invalid limit "0": expected an integer from 1 to 5000']);
    expect(errorOf(() => parseBondHistoryParams({ from: '2026-01-01', to: '2026-02-01', offset: '-1' }))[0]).toBe(400);
    expect(errorOf(() => parseBondHistoryParams({ from: '2026-01-01', to: '2026-02-01', sort: 'up' }))).toEqual([400, 'invalid sort "up": allowed values are asc, desc']);
    expect(errorOf(() => parseBondDate('date', '27/02/2026'))).toEqual([400, 'invalid date "27/02/2026": expected a calendar date YYYY-MM-DD from 1970 on']);
  });
});
