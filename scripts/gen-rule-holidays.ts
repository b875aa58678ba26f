// Writes src/market/calendars/rule-holidays.json: the date-holidays rules' answers for the places
// the calendars use, for every year of the table, so no server start computes lunisolar
// astronomy. Run after upgrading date-holidays: bun scripts/gen-rule-holidays.ts (a test compares
// sample years of the table with the rules and fails when they drift).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TABLE_FIRST_YEAR, TABLE_LAST_YEAR, TABLE_PLACES, computeRuleHolidays } from '../src/market/rule-holidays.ts';
import pkg from '../node_modules/date-holidays/package.json' with { type: 'json' };

const places: Record<string, { keys: string[]; years: Record<string, string> }> = {};
for (const place of TABLE_PLACES) {
  const keys: string[] = [];
  const years: Record<string, string> = {};
  for (let year = TABLE_FIRST_YEAR; year <= TABLE_LAST_YEAR; year++) {
    years[year] = computeRuleHolidays(place, year)
      .map((h) => {
        if (!h.date.startsWith(`${year}-`)) throw new Error(`${place} ${year}: ${h.name} is dated ${h.date}, outside its year`);
        const key = `${h.name}\t${h.type}\t${h.days}`;
        let index = keys.indexOf(key);
        if (index < 0) index = keys.push(key) - 1;
        return `${index}.${h.date.slice(5, 7)}${h.date.slice(8, 10)}`;
      })
      .join(' ');
  }
  places[place] = { keys, years };
  process.stdout.write(`${place} `);
}
const path = join(import.meta.dir, '..', 'src', 'market', 'calendars', 'rule-holidays.json');
const file = { generatedFrom: `date-holidays ${pkg.version}`, firstYear: TABLE_FIRST_YEAR, lastYear: TABLE_LAST_YEAR, places };
writeFileSync(path, `${JSON.stringify(file)}\n`);
console.log(`\nwrote ${path}`);
