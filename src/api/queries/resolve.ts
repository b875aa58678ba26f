// Path symbol → registry entry for a class, with the class's 400 and 404 rules and the account's
// stock markets (spec: a stocks market not enabled on the account returns 403).
import type { Account } from '../../domain/account.ts';
import { marketDenied } from '../../domain/account.ts';
import type { AssetClass } from '../../domain/asset-classes.ts';
import { ApiError } from '../../domain/errors.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { normalizeSymbol, UNKNOWN_SYMBOL_ERROR } from '../../domain/symbols.ts';
import type { Store } from '../../store/index.ts';

export function resolveSymbol(store: Store, assetClass: AssetClass, raw: string, account: Account): SymbolEntry {
  const symbol = normalizeSymbol(assetClass, raw);
  const entry = store.registry.resolve(assetClass, symbol);
  if (!entry) throw new ApiError(UNKNOWN_SYMBOL_ERROR[assetClass]);
  if (assetClass === 'stocks' && entry.market) {
    const denied = marketDenied(account, entry.market);
    if (denied) throw new ApiError('FORBIDDEN', denied);
  }
  return entry;
}
