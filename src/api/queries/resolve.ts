// Path symbol → registry entry for a class, with the class's 400 and 404 rules.
import type { AssetClass } from '../../domain/asset-classes.ts';
import { ApiError } from '../../domain/errors.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { normalizeSymbol, UNKNOWN_SYMBOL_ERROR } from '../../domain/symbols.ts';
import type { Store } from '../../store/index.ts';

export function resolveSymbol(store: Store, assetClass: AssetClass, raw: string): SymbolEntry {
  const symbol = normalizeSymbol(assetClass, raw);
  const entry = store.registry.resolve(assetClass, symbol);
  if (!entry) throw new ApiError(UNKNOWN_SYMBOL_ERROR[assetClass]);
  return entry;
}
