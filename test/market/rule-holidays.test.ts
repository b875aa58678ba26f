// The precomputed date-holidays table answers what the rules answer: sample years of every place
// are recomputed from the rules (slow for the lunisolar places, so only a few years) and compared
// entry by entry. A date-holidays upgrade that changes a date fails here until the table is
// regenerated with scripts/gen-rule-holidays.ts.
import { describe, expect, test } from 'bun:test';
import table from '../../src/market/calendars/rule-holidays.json' with { type: 'json' };
import { TABLE_FIRST_YEAR, TABLE_LAST_YEAR, TABLE_PLACES, computeRuleHolidays, ruleHolidays } from '../../src/market/rule-holidays.ts';
import pkg from '../../node_modules/date-holidays/package.json' with { type: 'json' };

describe('the rule holiday table', () => {
  test('was written from the installed date-holidays version, for the places and years the code names', () => {
    expect(table.generatedFrom).toBe(`date-holidays ${pkg.version}`);
    expect([table.firstYear, table.lastYear]).toEqual([TABLE_FIRST_YEAR, TABLE_LAST_YEAR]);
    expect(Object.keys(table.places).sort()).toEqual([...TABLE_PLACES].sort());
  });

  for (const year of [TABLE_FIRST_YEAR, 2026, TABLE_LAST_YEAR]) {
    test(`${year}: every place's holidays equal the rules' answer`, () => {
      for (const place of TABLE_PLACES) expect({ place, list: ruleHolidays(place, year) }).toEqual({ place, list: computeRuleHolidays(place, year) });
    });
  }

  test('Hong Kong 2026 from the table: the lunar new year days and the day after Ching Ming', () => {
    const names = ruleHolidays('HK', 2026).filter((h) => h.type === 'public').map((h) => `${h.date} ${h.name}`);
    expect(names).toContain('2026-02-17 Lunar New Year\u2019s Day');
    expect(names).toContain('2026-02-19 The third day of Lunar New Year');
    expect(names).toContain('2026-04-06 The day following Ching Ming Festival');
  });

  test('a year outside the table is computed from the rules', () => {
    expect(ruleHolidays('ZA', TABLE_FIRST_YEAR - 1)).toEqual(computeRuleHolidays('ZA', TABLE_FIRST_YEAR - 1));
    expect(ruleHolidays('ZA', TABLE_FIRST_YEAR - 1).length).toBeGreaterThan(5);
  });
});
