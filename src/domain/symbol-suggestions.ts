// "Did you mean": the known symbols a near-miss was probably meant to be. Pure: the caller passes
// the symbols the asker may see (a class's listed symbols, the bond tenors). REST 404/400 bodies
// carry the answer as `did_you_mean`, and the MCP tools repeat it in their error text, so an agent
// that asked for `BTC-USD` or `AAPL` learns `BTCUSD` or `US:AAPL` without a search.

/** A symbol the asker could have meant, with the other codes that resolve to it (commodity aliases). */
export interface SuggestionCandidate {
  symbol: string;
  aliases?: readonly string[];
}

/** Most suggestions one answer carries. */
export const MAX_SUGGESTIONS = 5;

/** Longest input considered: anything longer is not a typo of a symbol. */
const MAX_INPUT = 64;

/** Separators people write between parts of a symbol (`BTC-USD`, `XAU/USD`, `EUR_USD`, `US.AAPL`). */
const SEPARATORS = /[\s\-_/.:]+/g;
/** Suffixes of other vendors' spellings: Yahoo's `=X` (forex) and `=F` (futures). */
const VENDOR_SUFFIX = /(=X|=F)$/;

const compact = (s: string) => s.toUpperCase().replace(VENDOR_SUFFIX, '').replace(SEPARATORS, '');
/** The part after a market prefix (`US:AAPL` → `AAPL`); the whole symbol when it has none. */
const baseOf = (s: string) => (s.includes(':') ? s.slice(s.indexOf(':') + 1) : s);

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), or `max + 1` once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** How far a typo may be from a name of this length and still be suggested. */
const allowedDistance = (length: number) => (length < 9 ? 1 : 2);

/**
 * How close `name` (a symbol or alias) is to what was asked: 0 the same but for case and
 * separators, 1 the same but for a market prefix, a reversed pair or a missing quote currency,
 * 1 + the edit distance for typos; null when not close.
 */
function closeness(name: string, asked: string, askedBase: string): number | null {
  const n = compact(name);
  if (n === asked) return 0;
  const nBase = compact(baseOf(name));
  if (nBase === asked || nBase === askedBase || n === askedBase) return 1;
  if (asked.length === 6 && n === asked.slice(3) + asked.slice(0, 3)) return 1;
  if (n === `${asked}USD` || n === `${asked}USDT` || n === asked.replace(/PERP$/, 'USDT')) return 1;
  // A typo in the ticker of an unprefixed ask (`APPL`); a prefixed ask (`US:11Y`) keeps its prefix.
  const full = editDistance(n, asked, allowedDistance(n.length));
  const d = asked === askedBase ? Math.min(full, editDistance(nBase, asked, allowedDistance(nBase.length))) : full;
  return d <= allowedDistance(n.length) ? 1 + d : null;
}

/**
 * The known symbols closest to `raw`, best first (at most MAX_SUGGESTIONS): only those as close as
 * the closest, so `BTC-USD` suggests `BTCUSD` alone and not every pair a few letters away.
 */
export function suggestSymbols(raw: string, known: Iterable<SuggestionCandidate>): string[] {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_INPUT) return [];
  const asked = compact(trimmed);
  const askedBase = compact(baseOf(trimmed.toUpperCase()));
  if (asked.length === 0) return [];
  const best = new Map<string, number>();
  for (const candidate of known) {
    for (const name of [candidate.symbol, ...(candidate.aliases ?? [])]) {
      const score = closeness(name, asked, askedBase);
      if (score === null) continue;
      const had = best.get(candidate.symbol);
      if (had === undefined || score < had) best.set(candidate.symbol, score);
    }
  }
  if (best.size === 0) return [];
  const top = Math.min(...best.values());
  return [...best.entries()]
    .filter(([, score]) => score === top)
    .map(([symbol]) => symbol)
    .sort(byPreference)
    .slice(0, MAX_SUGGESTIONS);
}

/** US listings first (the market an unprefixed ticker most often means), then by symbol. */
function byPreference(a: string, b: string): number {
  const us = (s: string) => (s.startsWith('US:') ? 0 : 1);
  return us(a) - us(b) || (a < b ? -1 : a > b ? 1 : 0);
}
