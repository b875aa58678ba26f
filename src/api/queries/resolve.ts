// Path symbol → registry entry for a class, with the class's 400 and 404 rules and the account's
// stock markets (spec: a stocks market not enabled on the account returns 403).
import type { Account } from '../../domain/account.ts';
import { marketDenied } from '../../domain/account.ts';
import { ASSET_CLASSES, type AssetClass } from '../../domain/asset-classes.ts';
import { ApiError } from '../../domain/errors.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { suggestSymbols } from '../../domain/symbol-suggestions.ts';
import { normalizeSymbol, UNKNOWN_SYMBOL_ERROR } from '../../domain/symbols.ts';
import type { Store } from '../../store/index.ts';

/** Path symbols already resolved, per store and class: the hot routes skip normalizing and the lookup. */
const resolved = new WeakMap<Store, Map<string, SymbolEntry>[]>();
/** Distinct spellings remembered per class before the memo starts over (spellings are unbounded, symbols are not). */
const MAX_REMEMBERED = 4096;

function memoFor(store: Store, assetClass: AssetClass): Map<string, SymbolEntry> {
  let perClass = resolved.get(store);
  if (!perClass) resolved.set(store, (perClass = ASSET_CLASSES.map(() => new Map())));
  return perClass[ASSET_CLASSES.indexOf(assetClass)]!;
}

export function resolveSymbol(store: Store, assetClass: AssetClass, raw: string, account: Account): SymbolEntry {
  const memo = memoFor(store, assetClass);
  let entry = memo.get(raw);
  if (!entry) {
    try {
      entry = store.registry.resolve(assetClass, normalizeSymbol(assetClass, raw));
      if (!entry) throw new ApiError(UNKNOWN_SYMBOL_ERROR[assetClass]);
    } catch (err) {
      if (err instanceof ApiError) err.didYouMean = symbolSuggestions(store, assetClass, raw, account);
      throw err;
    }
    if (memo.size >= MAX_REMEMBERED) memo.clear();
    memo.set(raw, entry);
  }
  if (assetClass === 'stocks' && entry.market) {
    const denied = marketDenied(account, entry.market);
    if (denied) throw new ApiError('FORBIDDEN', denied);
  }
  return entry;
}

/** The class's listed symbols near a symbol it does not know (stocks: of the account's markets only, as its list shows). */
export function symbolSuggestions(store: Store, assetClass: AssetClass, raw: string, account: Account): string[] {
  const visible = store.registry.all(assetClass).filter((e) => e.listed && !(assetClass === 'stocks' && e.market && marketDenied(account, e.market)));
  return suggestSymbols(raw, visible);
}
