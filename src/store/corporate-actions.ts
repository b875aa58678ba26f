// Corporate actions keyed [symbol, kind, date] (ordered-binary; kind 'D' dividend, 'S' split): a
// symbol's actions are one range read in date order, and there is one action per symbol, kind and
// date by construction, so importing a file again replaces its actions with themselves. A counter
// in meta moves with every write that changed something, in the same transaction: a reader (the
// server's adjustment cache, another process than the import) compares it to know its cache is
// stale. Writes are one synchronous transaction: a file is applied whole or not at all.
import type { Dividend, Split, SymbolActions } from '../domain/corporate-actions.ts';
import type { StoreDbs } from './env.ts';

const VERSION_KEY = 'corporateActionsVersion';

type StoredSplit = { from: number; to: number };
type StoredDividend = Omit<Dividend, 'symbol' | 'exDate'>;

export interface ActionsWriteSummary {
  added: number;
  replaced: number;
  unchanged: number;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function splitValue(s: Split): StoredSplit {
  return { from: s.from, to: s.to };
}

function dividendValue(d: Dividend): StoredDividend {
  return { cash: d.cash, payDate: d.payDate, recordDate: d.recordDate, declarationDate: d.declarationDate, frequency: d.frequency, dividendType: d.dividendType };
}

export class CorporateActionStore {
  constructor(private readonly dbs: StoreDbs) {}

  /** Changes whenever a write changed an action (any process); 0 before the first. */
  version(): number {
    return (this.dbs.meta.get(VERSION_KEY) as number | undefined) ?? 0;
  }

  /** Stores splits and dividends in one transaction; an action of the same symbol, kind and date is replaced. */
  put(splits: readonly Split[], dividends: readonly Dividend[]): ActionsWriteSummary {
    const summary: ActionsWriteSummary = { added: 0, replaced: 0, unchanged: 0 };
    const rows: [string[], unknown][] = [...splits.map((s) => [[s.symbol, 'S', s.date], splitValue(s)] as [string[], unknown]), ...dividends.map((d) => [[d.symbol, 'D', d.exDate], dividendValue(d)] as [string[], unknown])];
    const seen = new Map<string, unknown>();
    this.dbs.root.transactionSync(() => {
      let changed = false;
      for (const [key, value] of rows) {
        const id = key.join('|');
        const before = seen.has(id) ? seen.get(id) : this.dbs.corporateActions.get(key);
        // A repeat inside one file counts as what it finally does: the later row wins.
        if (!seen.has(id)) {
          if (before === undefined) summary.added++;
          else if (sameValue(before, value)) summary.unchanged++;
          else summary.replaced++;
        }
        seen.set(id, value);
        if (before !== undefined && sameValue(before, value)) continue;
        this.dbs.corporateActions.putSync(key, value);
        changed = true;
      }
      if (changed) this.dbs.meta.putSync(VERSION_KEY, this.version() + 1);
    });
    return summary;
  }

  /** One symbol's splits and dividends, each in date order. */
  of(symbol: string): SymbolActions {
    const out: SymbolActions = { splits: [], dividends: [] };
    for (const { key, value } of this.dbs.corporateActions.getRange({ start: [symbol], end: [symbol, '\uffff'] })) {
      if (key[0] !== symbol) continue;
      this.push(out, key, value);
    }
    return out;
  }

  /** Every action of every symbol, by symbol then kind then date (the reference routes filter and page them). */
  all(): SymbolActions {
    const out: SymbolActions = { splits: [], dividends: [] };
    for (const { key, value } of this.dbs.corporateActions.getRange()) this.push(out, key, value);
    return out;
  }

  /** The symbols with at least one action. */
  symbols(): string[] {
    const out: string[] = [];
    for (const { key } of this.dbs.corporateActions.getRange()) if (out[out.length - 1] !== key[0]) out.push(key[0]!);
    return out;
  }

  private push(out: SymbolActions, key: string[], value: unknown): void {
    const [symbol, kind, date] = key as [string, string, string];
    if (kind === 'S') out.splits.push({ symbol, date, ...(value as StoredSplit) });
    else if (kind === 'D') out.dividends.push({ symbol, exDate: date, ...(value as StoredDividend) });
  }
}
