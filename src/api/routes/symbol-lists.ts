// Symbol list bodies per class (spec: "Symbol list entries"), built once: the registry does not
// change while the server runs. Unlisted lines (forex `.RAW`) never appear.
import type { AssetClass } from '../../domain/asset-classes.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { classAccessDenied, isMarketEnabled, marketDenied, type Account } from '../../domain/account.ts';
import { quoteInput } from '../../domain/symbols.ts';
import type { Store } from '../../store/index.ts';

const cache = new WeakMap<Store, Map<string, string>>();

function cached(store: Store, key: string, build: () => string): string {
  let bodies = cache.get(store);
  if (!bodies) cache.set(store, (bodies = new Map()));
  let body = bodies.get(key);
  if (body === undefined) bodies.set(key, (body = build()));
  return body;
}

export function symbolListBody(store: Store, assetClass: AssetClass, account: Account, marketRaw?: string): string {
  const listed = () => store.registry.all(assetClass).filter((e) => e.listed);
  if (assetClass === 'stocks') {
    let market: string | null = null;
    if (marketRaw !== undefined) {
      market = marketRaw.trim().toUpperCase();
      if (!/^[A-Z]{2}$/.test(market)) throw badRequest(`invalid market ${quoteInput(marketRaw)}: expected a two-letter market code such as US or DE`);
      const denied = marketDenied(account, market);
      if (denied) throw new ApiError('FORBIDDEN', denied);
    }
    // Only the markets enabled on the account (spec: /stocks/symbols).
    const enabled = account.markets === 'all' ? '*' : [...account.markets].sort().join(',');
    return cached(store, `stocks|${market ?? '*'}|${enabled}`, () => {
      const rows = listed()
        .filter((e) => (market === null ? isMarketEnabled(account, e.market ?? '') : e.market === market))
        .sort((a, b) => cmp(a.market ?? '', b.market ?? '') || cmp(a.symbol, b.symbol))
        .map((e) => ({ symbol: e.symbol, base_symbol: e.baseSymbol ?? '', market: e.market ?? '', name: e.name }));
      return JSON.stringify({ symbols: rows });
    });
  }
  if (assetClass === 'overnight') {
    // US stocks (US:TICKER) and ETFs (product codes) in one list, told apart by `type`.
    return cached(store, 'overnight', () => JSON.stringify({ symbols: listed().map((e) => ({ symbol: e.symbol, name: e.name, type: e.symbol.startsWith('US:') ? 'stock' : 'etf' })) }));
  }
  if (assetClass === 'crypto') {
    return cached(store, 'crypto', () => {
      const data = listed().map((e) => ({ symbol: e.symbol, name: e.name, type: 'crypto' }));
      return JSON.stringify({ data, count: data.length });
    });
  }
  return cached(store, assetClass, () => JSON.stringify({ symbols: listed().map((e) => ({ symbol: e.symbol, name: e.name })) }));
}

/**
 * Legacy `GET /symbols` (shape ours): crypto, forex, commodities, ETFs and indices, no stocks; only
 * the classes the key's plan includes. One body per distinct set of classes.
 */
export function legacySymbolsBody(store: Store, account: Account): string {
  const classes = LEGACY_CLASSES.filter((cls) => classAccessDenied(account, cls) === null);
  return cached(store, `legacy|${classes.join(',')}`, () => {
    const symbols = classes.flatMap((cls) => store.registry.all(cls).filter((e) => e.listed).map((e) => ({ symbol: e.symbol, name: e.name, asset: cls })));
    return JSON.stringify({ symbols, count: symbols.length });
  });
}

const LEGACY_CLASSES: readonly AssetClass[] = ['commodities', 'crypto', 'etfs', 'forex', 'indices'];

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
