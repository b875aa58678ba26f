// The date-holidays rules' answers for the places the calendars use, precomputed per year.
// Computing a year of Hong Kong or Taipei holidays means lunisolar astronomy (VSOP87 solar terms)
// and costs about a second of CPU on a small machine; every server start and every calendar test
// paid it for each year it touched. The table (rule-holidays.json, written by
// scripts/gen-rule-holidays.ts from the pinned date-holidays version) answers the same lists at
// once; years outside it still ask the rules. test/market/rule-holidays.test.ts holds the table
// to the rules so a new date-holidays version cannot drift from it unnoticed.
import Holidays from 'date-holidays';
import table from './calendars/rule-holidays.json' with { type: 'json' };

/** One holiday as the rules give it: first local date, name, date-holidays type, days spanned. */
export interface RuleHoliday {
  date: string;
  name: string;
  type: string;
  days: number;
}

/** The places the calendars ask the rules for (`CC` or `CC/state`), and the table's years. */
export const TABLE_PLACES = ['CL', 'HK', 'ID', 'JP', 'KR', 'MY/14', 'PH', 'SG', 'TH', 'TW', 'ZA'] as const;
export const TABLE_FIRST_YEAR = 2000;
export const TABLE_LAST_YEAR = 2050;

interface TableFile {
  generatedFrom: string;
  firstYear: number;
  lastYear: number;
  /**
   * place -> its holidays' "name\ttype\tdays" keys, and per year the rules' list in the rules'
   * order (same-date holidays keep it) as "key.MMDD" words.
   */
  places: Record<string, { keys: string[]; years: Record<string, string> }>;
}

const ruleSets = new Map<string, Holidays>();

function rulesOf(place: string): Holidays {
  let rules = ruleSets.get(place);
  if (!rules) {
    const [country = '', state] = place.split('/');
    rules = state === undefined ? new Holidays(country, { languages: ['en'] }) : new Holidays(country, state, { languages: ['en'] });
    ruleSets.set(place, rules);
  }
  return rules;
}

/** What the date-holidays rules say for a place and year, computed (slow for lunisolar places). */
export function computeRuleHolidays(place: string, year: number): RuleHoliday[] {
  return rulesOf(place)
    .getHolidays(year, 'en')
    .map((h) => ({
      date: h.date.slice(0, 10),
      name: h.name,
      type: h.type,
      days: Math.max(1, Math.round((h.end.getTime() - h.start.getTime()) / 86_400_000)),
    }));
}

// place -> year -> holidays, unpacked from the table on first use of a place.
const byPlaceYear = new Map<string, Map<number, RuleHoliday[]>>();

function unpack(place: string): Map<number, RuleHoliday[]> | undefined {
  const cached = byPlaceYear.get(place);
  if (cached) return cached;
  const entries = (table as TableFile).places[place];
  if (!entries) return undefined;
  const keys = entries.keys.map((key) => {
    const [name = '', type = '', days = '1'] = key.split('\t');
    return { name, type, days: Number(days) };
  });
  const years = new Map<number, RuleHoliday[]>();
  for (const [year, words] of Object.entries(entries.years)) {
    years.set(Number(year), words === '' ? [] : words.split(' ').map((word) => {
      const dot = word.indexOf('.');
      const key = keys[Number(word.slice(0, dot))]!;
      return { date: `${year}-${word.slice(dot + 1, dot + 3)}-${word.slice(dot + 3, dot + 5)}`, name: key.name, type: key.type, days: key.days };
    }));
  }
  byPlaceYear.set(place, years);
  return years;
}

/**
 * The rules' holidays of a place in a year, in the rules' order: from the table inside its years,
 * computed outside them. A year the table covers but where the place has no holiday is empty.
 */
export function ruleHolidays(place: string, year: number): RuleHoliday[] {
  const { firstYear, lastYear } = table as TableFile;
  if (year >= firstYear && year <= lastYear) {
    const years = unpack(place);
    if (years) return years.get(year) ?? [];
  }
  return computeRuleHolidays(place, year);
}
