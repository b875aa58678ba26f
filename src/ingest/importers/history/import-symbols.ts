// Which registry symbol an imported row names: a file's own names (Binance `BTCUSDT`, a flat
// file's `AAPL`) are mapped to mds symbols as the live feeds map them, each name resolved once.
// Unknown symbols are refused, or with --create-symbols collected to be added once the file passed.
import { ASSET_CLASSES, registryKeyOf, type AssetClass } from '../../../domain/asset-classes.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import type { NewSymbol } from '../../../store/registry.ts';

export interface SymbolLookup {
  resolve(assetClass: AssetClass, symbol: string): SymbolEntry | undefined;
  bySymbolName(symbol: string): SymbolEntry | undefined;
}

/** A resolved series target: the registry entry, or a symbol the import will add. */
export interface ImportTarget {
  /** Registry key (`BTCUSD`, `overnight|US:AAPL`): what staged blocks are filed under. */
  key: string;
  assetClass: AssetClass;
  symbol: string;
  entry: SymbolEntry | null;
}

export interface ImportSymbolOptions {
  /** Class of rows whose file does not say (--class). */
  assetClass: AssetClass | null;
  /** Add unknown symbols to the registry (--create-symbols). */
  create: boolean;
}

export class ImportSymbols {
  private readonly cache = new Map<string, ImportTarget | string>();
  /** Symbols to add, by registry key, with the most price decimals seen. */
  readonly toCreate = new Map<string, NewSymbol>();

  constructor(
    private readonly registry: SymbolLookup,
    private readonly opts: ImportSymbolOptions,
  ) {}

  /** The target of a row's symbol, or the reason it has none (a message for the report). */
  private lastRaw: string | null = null;
  private lastHint: AssetClass | null = null;
  private last: ImportTarget | string = '';

  resolve(raw: string, hint: AssetClass | null): ImportTarget | string {
    // Files list a symbol's rows together: the same name as the row before is the common case.
    if (raw === this.lastRaw && hint === this.lastHint) return this.last;
    this.lastRaw = raw;
    this.lastHint = hint;
    const cacheKey = `${hint ?? ''}|${raw}`;
    let found = this.cache.get(cacheKey);
    if (found === undefined) this.cache.set(cacheKey, (found = this.lookUp(raw.trim().toUpperCase(), hint ?? this.opts.assetClass)));
    this.last = found;
    return found;
  }

  /** Notes a price of a symbol to be created, so its entry gets enough decimals. */
  notePrice(target: ImportTarget, price: number): void {
    const pending = this.toCreate.get(target.key);
    if (!pending || pending.decimals >= 8) return;
    const decimals = decimalsOf(price);
    if (decimals > pending.decimals) pending.decimals = decimals;
  }

  private lookUp(symbol: string, assetClass: AssetClass | null): ImportTarget | string {
    if (symbol.length === 0) return 'empty symbol';
    const classes = assetClass ? [assetClass] : ASSET_CLASSES.filter((c) => c !== 'overnight');
    for (const cls of classes) {
      for (const name of candidates(cls, symbol)) {
        const entry = this.registry.resolve(cls, name);
        if (entry) return { key: registryKeyOf(entry.assetClass, entry.symbol), assetClass: entry.assetClass, symbol: entry.symbol, entry };
      }
    }
    if (!assetClass) return `unknown symbol ${symbol}: not in any class; name the class with --class (and --create-symbols to add it)`;
    if (!this.opts.create) return `unknown ${assetClass} symbol ${symbol}: add --create-symbols to add it to the registry`;
    const name = candidates(assetClass, symbol)[0]!;
    const key = registryKeyOf(assetClass, name);
    if (!this.toCreate.has(key)) {
      const isStock = assetClass === 'stocks' || assetClass === 'overnight';
      const colon = name.indexOf(':');
      this.toCreate.set(key, {
        symbol: name,
        assetClass,
        name,
        market: isStock && colon > 0 ? name.slice(0, colon) : null,
        baseSymbol: isStock && colon > 0 ? name.slice(colon + 1) : null,
        aliases: [],
        listed: true,
        decimals: 0,
      });
    }
    return { key, assetClass, symbol: name, entry: null };
  }
}

/** The names a file's symbol may stand for in a class, the likeliest first. */
function candidates(assetClass: AssetClass, symbol: string): string[] {
  switch (assetClass) {
    case 'stocks':
    case 'overnight':
      // Flat files and most vendors name US stocks by ticker alone.
      return symbol.includes(':') ? [symbol] : [`US:${symbol}`, symbol];
    case 'crypto':
      // Binance and other USDT-quoted spot venues feed the USD pair (as the live Binance feed does).
      return symbol.endsWith('USDT') ? [symbol.slice(0, -1), symbol] : [symbol.replace(/[-/]/g, '')];
    case 'forex':
      return [symbol.replace(/[-/]/g, '')];
    default:
      return [symbol];
  }
}

function decimalsOf(price: number): number {
  let d = 0;
  let x = Math.abs(price);
  while (d < 8 && Math.abs(x - Math.round(x)) > 1e-9 * Math.max(1, x)) {
    x *= 10;
    d++;
  }
  return d;
}
