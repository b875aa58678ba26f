// Where a market's calendar comes from, as one string a client can cache by: `calendar_version`.
// Each market's dated data (hours eras, weekend eras, dated tables of closures and special
// sessions with their sources) is recorded here as the calendar modules load; the version is the
// newest date in that data, a digest of all of it, and the build. Editing or adding one dated line
// changes the digest (and usually the date); a change to rule code changes the build part in a
// built binary (its commit), and the interface version in any case when released.
import { createHash } from 'node:crypto';
import { COMMIT, VERSION } from '../version.ts';
import type { HolidayEntry } from './types.ts';

interface MarketData {
  newest: string;
  lines: string[];
}

const data = new Map<string, MarketData>();
const versions = new Map<string, string>();

function dataOf(market: string): MarketData {
  let found = data.get(market);
  if (!found) {
    found = { newest: '0000-00-00', lines: [] };
    data.set(market, found);
  }
  return found;
}

function record(markets: string | readonly string[], dates: readonly string[], line: string): void {
  for (const market of typeof markets === 'string' ? [markets] : markets) {
    const entry = dataOf(market);
    for (const date of dates) if (date > entry.newest && date.length === 10) entry.newest = date;
    entry.lines.push(line);
    versions.delete(market);
  }
}

/** A dated table's entries become part of these markets' version. */
export function recordDated(markets: string | readonly string[], table: ReadonlyMap<number, readonly HolidayEntry[]>): void {
  for (const entries of table.values()) {
    for (const e of entries) {
      record(markets, [e.date], [e.date, e.name, e.openMin ?? '', e.closeMin ?? '', e.source ?? ''].join('\t'));
    }
  }
}

/** A market's regular-hours and weekend eras, and dated weekend sessions. */
export function recordRules(market: string, dates: readonly string[], description: unknown): void {
  record(market, dates, JSON.stringify(description));
}

/**
 * `<newest dated rule or event>.<digest of the market's dated data>+<mds version>-<build commit>`,
 * e.g. `2026-12-25.3f9a2c1b+1.0.0-dev`: deterministic for one build and one data set.
 */
export function calendarVersion(market: string): string {
  const cached = versions.get(market);
  if (cached !== undefined) return cached;
  const entry = dataOf(market);
  const digest = createHash('sha256').update([...entry.lines].sort().join('\n')).digest('hex').slice(0, 8);
  const version = `${entry.newest}.${digest}+${VERSION}-${COMMIT}`;
  versions.set(market, version);
  return version;
}
