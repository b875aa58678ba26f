// The symbol registry: reference data per class with stable numeric ids used in every storage
// key. Loaded into memory at open; lookups never touch LMDB.
import { registryKeyOf, type AssetClass } from '../domain/asset-classes.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { StoreDbs } from './env.ts';

export type NewSymbol = Omit<SymbolEntry, 'id'>;

export class Registry {
  private readonly bySymbol = new Map<string, SymbolEntry>();
  private readonly byId = new Map<number, SymbolEntry>();
  private readonly byClassKey = new Map<string, SymbolEntry>();
  private readonly sorted = new Map<AssetClass, SymbolEntry[]>();

  constructor(private readonly dbs: StoreDbs) {
    for (const { value } of dbs.symbols.getRange()) this.index(value as SymbolEntry);
  }

  /** Adds new symbols and refreshes reference data of known ones; ids never change. */
  upsert(entries: readonly NewSymbol[]): void {
    let nextId = (this.dbs.meta.get('nextSymbolId') as number | undefined) ?? 1;
    this.dbs.root.transactionSync(() => {
      for (const entry of entries) {
        const key = registryKeyOf(entry.assetClass, entry.symbol);
        const known = this.bySymbol.get(key);
        const full: SymbolEntry = { ...entry, id: known ? known.id : nextId++ };
        if (known && JSON.stringify(known) === JSON.stringify(full)) continue;
        this.dbs.symbols.putSync(key, full);
        this.index(full);
      }
      this.dbs.meta.putSync('nextSymbolId', nextId);
    });
    this.sorted.clear();
  }

  /** Looks a symbol (canonical or alias, already normalized) up within a class. */
  resolve(assetClass: AssetClass, symbol: string): SymbolEntry | undefined {
    return this.byClassKey.get(`${assetClass}|${symbol}`);
  }

  get(id: number): SymbolEntry | undefined {
    return this.byId.get(id);
  }

  /** A symbol by its name; the names of namespaced classes (overnight lines) are found with `resolve`. */
  bySymbolName(symbol: string): SymbolEntry | undefined {
    return this.bySymbol.get(symbol);
  }

  /** Every symbol of a class, listed or not, sorted by symbol. */
  all(assetClass: AssetClass): readonly SymbolEntry[] {
    let list = this.sorted.get(assetClass);
    if (!list) {
      list = [...this.bySymbol.values()].filter((e) => e.assetClass === assetClass).sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
      this.sorted.set(assetClass, list);
    }
    return list;
  }

  /** Indexes symbols another process added (an import with --create-symbols); returns how many were new. */
  refresh(): number {
    let added = 0;
    for (const { value } of this.dbs.symbols.getRange()) {
      const entry = value as SymbolEntry;
      if (this.byId.has(entry.id)) continue;
      this.index(entry);
      added++;
    }
    if (added > 0) this.sorted.clear();
    return added;
  }

  /** Every symbol's id. */
  ids(): number[] {
    return [...this.byId.keys()];
  }

  get size(): number {
    return this.byId.size;
  }

  private index(entry: SymbolEntry): void {
    const key = registryKeyOf(entry.assetClass, entry.symbol);
    const previous = this.bySymbol.get(key);
    if (previous) for (const alias of previous.aliases) this.byClassKey.delete(`${previous.assetClass}|${alias}`);
    this.bySymbol.set(key, entry);
    this.byId.set(entry.id, entry);
    this.byClassKey.set(`${entry.assetClass}|${entry.symbol}`, entry);
    for (const alias of entry.aliases) this.byClassKey.set(`${entry.assetClass}|${alias}`, entry);
  }
}
