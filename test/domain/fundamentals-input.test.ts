// Parsing one input row: a row parses whole or is refused with a message saying what is wrong.
import { describe, expect, test } from 'bun:test';
import { parseFundamentalsInput } from '../../src/domain/fundamentals-input.ts';

const LATEST = '2026-03-03';

function error(fields: Record<string, unknown>): string {
  const r = parseFundamentalsInput(fields, LATEST);
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

describe('parseFundamentalsInput', () => {
  test('CSV text and JSON values parse to the same record; empty and null mean unknown', () => {
    const fromCsv = parseFundamentalsInput({ symbol: ' us:acme ', as_of: '2026-03-02', depositary_receipt: 'yes', company: ' Acme ', shares_total: '1000', market_cap: '5e4', insider_ownership: '0.1', beta: '-0.3', sector: '', employees: '' }, LATEST);
    const fromJson = parseFundamentalsInput({ symbol: 'US:ACME', as_of: '2026-03-02', depositary_receipt: true, company: 'Acme', shares_total: 1000, market_cap: 50000, insider_ownership: 0.1, beta: -0.3, sector: null }, LATEST);
    const expected = { symbol: 'US:ACME', market: 'US', baseSymbol: 'ACME', asOf: '2026-03-02', isDepositaryReceipt: true, company: 'Acme', sharesTotal: 1000, marketCap: 50000, insiderOwnership: 0.1, beta: -0.3 };
    expect(fromCsv).toEqual({ ok: true, record: expected });
    expect(fromJson).toEqual({ ok: true, record: expected });
  });

  test.each([
    [{ as_of: '2026-03-02' }, 'symbol is missing'],
    [{ symbol: 'ACME', as_of: '2026-03-02' }, 'symbol "ACME" is not MARKET:BASE (e.g. US:AAPL)'],
    [{ symbol: 'GB:HSBA', as_of: '2026-03-02' }, 'symbol GB:HSBA: fundamentals cover the markets US, DE, ES, FR only'],
    [{ symbol: 'US:ACME', as_of: '2026-02-30' }, 'as_of must be a date YYYY-MM-DD, got "2026-02-30"'],
    [{ symbol: 'US:ACME' }, 'as_of must be a date YYYY-MM-DD, got nothing'],
    [{ symbol: 'US:ACME', as_of: '2026-03-04' }, 'as_of 2026-03-04 is in the future (the latest accepted is 2026-03-03)'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', shares_total: '1,000' }, 'shares_total must be a number, got "1,000"'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', shares_total: '10.5' }, 'shares_total must be a whole number of 0 or more, got "10.5"'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', free_float: -1 }, 'free_float must be a whole number of 0 or more, got -1'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', market_cap: '0' }, 'market_cap must be greater than 0, got "0"'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', insider_ownership: '12.5' }, 'insider_ownership must be a fraction from 0 to 1, got "12.5"'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', depositary_receipt: 'maybe' }, 'depositary_receipt must be true or false, got "maybe"'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', shares_totl: '1' }, 'unknown field "shares_totl"'],
    [{ symbol: 'US:ACME', as_of: '2026-03-02', company: 7 }, 'company must be text'],
  ])('%j is refused: %s', (fields, message) => {
    expect(error(fields)).toBe(message);
  });

  test('an as_of on the latest accepted date parses', () => {
    expect(parseFundamentalsInput({ symbol: 'US:ACME', as_of: LATEST }, LATEST)).toMatchObject({ ok: true, record: { asOf: LATEST } });
  });
});
