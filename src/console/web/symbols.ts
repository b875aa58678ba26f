// Symbol search across the classes the key may use: the symbol lists (/symbols for crypto, forex,
// commodities, ETFs and indices; /stocks/symbols for the key's markets; /perpetuals/symbols), loaded
// once, matched by symbol, base ticker and name. A name that is in no list (a commodity alias such
// as CL1, a forex .RAW line) is resolved by the class's own snapshot route, which answers with the
// canonical symbol.
import { describeError, isAssetClass, type AssetClass, type ConsoleApi } from './api.ts';

export interface SymbolEntry {
  cls: AssetClass;
  symbol: string;
  name: string;
  /** Extra text a query may match: a stock's bare ticker. */
  alt?: string;
}

export class SymbolIndex {
  private entries: SymbolEntry[] = [];
  private loading: Promise<void> | null = null;

  constructor(private readonly api: ConsoleApi, private readonly classes: ReadonlySet<string>) {}

  load(): Promise<void> {
    return (this.loading ??= this.fetchAll());
  }

  private async fetchAll(): Promise<void> {
    const jobs: Promise<SymbolEntry[]>[] = [];
    if (['crypto', 'forex', 'commodities', 'etfs', 'indices'].some((c) => this.classes.has(c))) {
      jobs.push(this.api.call((c) => c.listAllSymbols()).then((r) => r.symbols.filter((s) => isAssetClass(s.asset)).map((s) => ({ cls: s.asset as AssetClass, symbol: s.symbol, name: s.name }))));
    }
    if (this.classes.has('stocks')) {
      jobs.push(this.api.call((c) => c.listStocksSymbols({})).then((r) => r.symbols.map((s) => ({ cls: 'stocks' as const, symbol: s.symbol, name: s.name, alt: s.base_symbol }))));
    }
    if (this.classes.has('perpetuals')) {
      jobs.push(this.api.call((c) => c.listPerpetualsSymbols()).then((r) => r.symbols.map((s) => ({ cls: 'perpetuals' as const, symbol: s.symbol, name: s.name }))));
    }
    const lists = await Promise.allSettled(jobs);
    this.entries = lists.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  }

  /** Entries whose symbol starts with the query first, then ticker, then name matches; at most `max`. */
  search(query: string, max = 12): SymbolEntry[] {
    const q = query.trim().toUpperCase();
    if (q === '') return [];
    const scored: [number, SymbolEntry][] = [];
    for (const e of this.entries) {
      const sym = e.symbol.toUpperCase();
      let score = -1;
      if (sym === q || e.alt?.toUpperCase() === q) score = 0;
      else if (sym.startsWith(q) || e.alt?.toUpperCase().startsWith(q)) score = 1;
      else if (sym.includes(q)) score = 2;
      else if (e.name.toUpperCase().includes(q)) score = 3;
      if (score >= 0) scored.push([score, e]);
    }
    scored.sort((a, b) => a[0] - b[0] || a[1].symbol.length - b[1].symbol.length || a[1].symbol.localeCompare(b[1].symbol));
    return scored.slice(0, max).map(([, e]) => e);
  }

  find(cls: AssetClass, symbol: string): SymbolEntry | undefined {
    return this.entries.find((e) => e.cls === cls && e.symbol === symbol);
  }

  /**
   * A name no list holds, resolved by the classes its shape suggests: `CC:X` a stock, `.RAW` a
   * forex line, anything else a commodity alias. Resolves with the canonical entry, or rejects
   * with what the server said.
   */
  async resolve(query: string): Promise<SymbolEntry> {
    const q = query.trim().toUpperCase();
    const candidates: AssetClass[] = /^[A-Z]{2}:/.test(q) ? ['stocks'] : q.endsWith('.RAW') ? ['forex'] : ['commodities', 'crypto', 'forex', 'indices', 'etfs'];
    let last: unknown = new Error(`no symbol ${q}`);
    for (const cls of candidates.filter((c) => this.classes.has(c))) {
      try {
        const snap = await this.api.snapshot(cls, q);
        const symbol = snap.symbol ?? q;
        return this.find(cls, symbol) ?? { cls, symbol, name: symbol === q ? '' : `${q} → ${symbol}` };
      } catch (err) {
        last = err;
      }
    }
    throw new Error(`${q}: ${describeError(last)}`);
  }
}
