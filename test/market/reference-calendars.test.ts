// Every session of the reference files (38 markets, 2015 to each file's last row) against the
// calendar: the date, open, close and break of each, no session on the dates between, and the
// status at the instants around every open, close and break edge.
import { describe, expect, test } from 'bun:test';
import { listMarkets, marketStatusAt } from '../../src/market/index.ts';
import { compareWithReference, readReference, REFERENCE_FILES, summarize } from './reference-sessions.ts';

const STOCK_MARKETS = listMarkets().filter((m) => m.type === 'stocks').map((m) => m.market).sort();

test('every stock market has a reference file', () => {
  expect(Object.keys(REFERENCE_FILES).sort()).toEqual(STOCK_MARKETS);
});

describe('sessions match the reference files', () => {
  for (const market of STOCK_MARKETS) {
    test(market, () => {
      const ref = readReference(market);
      expect(ref.rows.length).toBeGreaterThan(1000);
      const disagreements = compareWithReference(ref);
      if (disagreements.length > 0) console.log(summarize(market, disagreements));
      expect(disagreements.length).toBe(0);
    });
  }
});
