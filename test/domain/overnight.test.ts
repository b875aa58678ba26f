// The US overnight session's domain rules (issue 8): its symbol rule, the access it needs (stocks,
// market US and the overnight add-on, the first thing missing named), that it is no plan class,
// and that its registry names stay apart from the regular-session names they repeat.
import { describe, expect, test } from 'bun:test';
import { classAccessDenied, type Account } from '../../src/domain/account.ts';
import { registryKeyOf } from '../../src/domain/asset-classes.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { BUILT_IN_PLANS, parsePlans, type Plan } from '../../src/domain/plans.ts';
import { normalizeSymbol } from '../../src/domain/symbols.ts';

const plan = (name: string): Plan => BUILT_IN_PLANS.find((p) => p.name === name)!;
const account = (planName: string, markets: string[] | 'all', addons: string[]): Account => ({
  id: 'key_test',
  plan: plan(planName),
  markets: markets === 'all' ? 'all' : new Set(markets),
  addons: new Set(addons),
  createdMs: 0,
});

describe('overnight symbols', () => {
  test('US stocks as US:TICKER and ETF product codes, trimmed and uppercased', () => {
    expect(normalizeSymbol('overnight', ' us:aapl ')).toBe('US:AAPL');
    expect(normalizeSymbol('overnight', 'us:brk.b')).toBe('US:BRK.B');
    expect(normalizeSymbol('overnight', 'us500etf')).toBe('US500ETF');
  });

  test.each(['DE:SAP', 'US:', 'HK:700', 'US:AAPL:X', 'A'])('%s is the unknown-symbol 404: allowed characters, but no overnight line can be named so', (raw) => {
    let caught: unknown;
    try {
      normalizeSymbol('overnight', raw);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect([(caught as ApiError).status, (caught as ApiError).message]).toEqual([404, 'unknown symbol']);
  });

  test('characters no symbol can contain are a 400 saying what is expected', () => {
    expect(() => normalizeSymbol('overnight', 'US:AA$PL')).toThrow('expected a US stock as US:TICKER (such as US:AAPL) or a US ETF product code (such as US500ETF)');
  });
});

describe('overnight access', () => {
  const prefix = 'the US overnight session needs stocks with market US and the overnight add-on: ';
  test('stocks with market US and the add-on: allowed', () => {
    expect(classAccessDenied(account('starter', ['US'], ['overnight']), 'overnight')).toBeNull();
    expect(classAccessDenied(account('pro', 'all', ['overnight', 'bonds']), 'overnight')).toBeNull();
  });

  test('the first thing missing is named: the plan class, then the market, then the add-on', () => {
    expect(classAccessDenied(account('perpetuals', 'all', ['overnight']), 'overnight')).toBe(`${prefix}asset class stocks is not included in the perpetuals plan`);
    expect(classAccessDenied(account('starter', ['DE'], ['overnight']), 'overnight')).toBe(`${prefix}market US is not enabled for this account`);
    expect(classAccessDenied(account('free', ['US'], []), 'overnight')).toBe(`${prefix}the overnight add-on is not enabled for this account`);
  });

  test('other classes keep their plan rule', () => {
    expect(classAccessDenied(account('free', ['US'], []), 'stocks')).toBeNull();
    expect(classAccessDenied(account('free', ['US'], []), 'etfs')).toBe('asset class etfs is not included in the free plan');
  });

  test('overnight is no plan class: no built-in plan lists it and a plans file may not grant it', () => {
    for (const p of BUILT_IN_PLANS) expect(p.classes as string[]).not.toContain('overnight');
    const file = { plans: [{ ...plan('starter'), name: 'night', classes: ['stocks', 'overnight'] }] };
    expect('errors' in parsePlans(file)).toBe(true);
  });
});

describe('registry names', () => {
  test('overnight lines are namespaced; every other class keeps its symbol as its key', () => {
    expect(registryKeyOf('overnight', 'US:AAPL')).toBe('overnight|US:AAPL');
    expect(registryKeyOf('stocks', 'US:AAPL')).toBe('US:AAPL');
    expect(registryKeyOf('etfs', 'US500ETF')).toBe('US500ETF');
  });
});
