// The watchlist: a live quote board. Each row starts from the class's snapshot route (its values,
// the previous close for the change, and the canonical symbol of an alias), then follows the
// stream's quotes and trades for the pair. Updates are drawn once per animation frame, and a cell
// whose value moved flashes green or red. A row whose line has no live source (the snapshot's
// `stale`, then the stream's status frames) is drawn stale: greyed, its age cell saying so.
// Symbols are added by search across the key's classes.
import { now as serverNow } from './clock.ts';
import { describeError, HAS_TAPE, type AssetClass, type ConsoleApi } from './api.ts';
import { h, setText } from './dom.ts';
import { fmtAgeShort, fmtPercent, fmtPrice, priceDigits } from './format.ts';
import type { Live, Tick } from './live.ts';
import type { SymbolEntry, SymbolIndex } from './symbols.ts';
import { cssColor } from './theme.ts';

const STORAGE_KEY = 'mds.console.watchlist';

export interface Pick {
  cls: AssetClass;
  symbol: string;
}

const DEFAULTS: Pick[] = [
  { cls: 'crypto', symbol: 'BTCUSD' },
  { cls: 'crypto', symbol: 'ETHUSD' },
  { cls: 'forex', symbol: 'EURUSD' },
  { cls: 'forex', symbol: 'USDJPY' },
  { cls: 'stocks', symbol: 'US:AAPL' },
  { cls: 'stocks', symbol: 'US:NVDA' },
  { cls: 'indices', symbol: 'US500' },
  { cls: 'commodities', symbol: 'XAUUSD' },
  { cls: 'etfs', symbol: 'US500ETF' },
];

interface Row {
  pick: Pick;
  name: string;
  el: HTMLTableRowElement;
  cells: { bid: HTMLElement; ask: HTMLElement; last: HTMLElement; change: HTMLElement; age: HTMLElement };
  bid: number | null;
  ask: number | null;
  last: number | null;
  prevClose: number | null;
  ts: number | null;
  /** No live source stands behind the line; since when (server time), when the stream said. */
  isStale: boolean;
  staleSinceMs: number | null;
  digits: number | null;
  dirty: boolean;
  release: (() => void) | null;
  problem: string | null;
}

export class Watchlist {
  readonly el: HTMLElement;
  private readonly body = h('tbody');
  private readonly rows: Row[] = [];
  private readonly input = h('input', { id: 'symbol-search', type: 'search', role: 'combobox', 'aria-expanded': 'false', 'aria-controls': 'search-results', 'aria-autocomplete': 'list', autocomplete: 'off', spellcheck: 'false', placeholder: 'Add symbol: BTC, EURUSD, AAPL, CL1…  ( / )' });
  private readonly results = h('ul', { id: 'search-results', role: 'listbox', class: 'search-results', hidden: true, 'aria-label': 'matching symbols' });
  private readonly message = h('p', { class: 'panel-note', role: 'status', id: 'watchlist-note' });
  private options: SymbolEntry[] = [];
  private active = -1;
  private frame = 0;
  /** Called when a row is chosen (click, Enter): the chart shows it. */
  onChoose: ((pick: Pick) => void) | null = null;

  constructor(private readonly api: ConsoleApi, private readonly live: Live, private readonly index: SymbolIndex, private readonly classes: ReadonlySet<string>) {
    this.el = h(
      'section',
      { class: 'panel watchlist', id: 'watchlist', 'aria-labelledby': 'watchlist-title' },
      h('header', {}, h('h2', { id: 'watchlist-title' }, 'Watchlist')),
      h('div', { class: 'search' }, h('label', { for: 'symbol-search', class: 'visually-hidden' }, 'Add a symbol to the watchlist'), this.input, this.results),
      this.message,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'grid board' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'symbol'), h('th', { scope: 'col', class: 'num' }, 'bid'), h('th', { scope: 'col', class: 'num' }, 'ask'), h('th', { scope: 'col', class: 'num' }, 'last'), h('th', { scope: 'col', class: 'num' }, 'chg'), h('th', { scope: 'col', class: 'num', title: 'since the last tick' }, 'age'))),
          this.body,
        ),
      ),
    );
    this.input.addEventListener('input', () => void this.suggest());
    this.input.addEventListener('keydown', (e) => this.onSearchKey(e));
    this.input.addEventListener('blur', () => setTimeout(() => this.closeResults(), 150));
    document.addEventListener('keydown', (e) => {
      if (e.key === '/' && !(e.target instanceof HTMLInputElement)) {
        e.preventDefault();
        this.input.focus();
      }
    });
    setInterval(() => this.renderAges(), 1000);
  }

  /** The saved list, or the defaults the key's classes allow. */
  async start(): Promise<void> {
    let saved: Pick[] | null = null;
    try {
      saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Pick[] | null;
    } catch {
      saved = null;
    }
    const picks = (saved ?? DEFAULTS).filter((p) => this.classes.has(p.cls));
    await Promise.all(picks.map((p) => this.add(p, false)));
  }

  picks(): Pick[] {
    return this.rows.map((r) => r.pick);
  }

  /** Adds a symbol (resolving it through its snapshot); false when the server refused it. */
  async add(pick: Pick, save = true): Promise<boolean> {
    if (this.rows.some((r) => r.pick.cls === pick.cls && r.pick.symbol === pick.symbol)) return true;
    const row = this.makeRow(pick, this.index.find(pick.cls, pick.symbol)?.name ?? '');
    this.rows.push(row);
    this.body.append(row.el);
    try {
      const snap = await this.api.snapshot(pick.cls, pick.symbol);
      if (snap.symbol && snap.symbol !== pick.symbol) {
        // An alias: the row takes the canonical symbol the server answered with.
        if (this.rows.some((r) => r !== row && r.pick.cls === pick.cls && r.pick.symbol === snap.symbol)) {
          this.remove(row);
          return true;
        }
        row.pick = { cls: pick.cls, symbol: snap.symbol };
        row.el.dataset.symbol = snap.symbol;
        setText(row.el.querySelector('.sym')!, snap.symbol);
      }
      row.bid = snap.bid;
      row.ask = snap.ask;
      row.last = snap.last_price ?? mid(snap.bid, snap.ask);
      row.prevClose = snap.prev_close;
      row.ts = snap.last_timestamp;
      row.isStale = snap.stale;
      row.dirty = true;
      this.schedule();
    } catch (err) {
      // No snapshot yet (a quiet symbol) still streams; a refused class or market does not.
      row.problem = describeError(err);
      if (/^(401|403|404): (?!no )/.test(row.problem) || /unknown symbol|not supported/.test(row.problem)) {
        this.markRefused(row, row.problem);
        if (save) this.save();
        return false;
      }
    }
    try {
      const kinds = HAS_TAPE.has(row.pick.cls) ? (['quotes', 'trades'] as const) : (['quotes'] as const);
      row.release = await this.live.watch(row.pick.cls, row.pick.symbol, kinds, (t) => this.onTick(row, t));
    } catch (err) {
      this.markRefused(row, describeError(err));
      if (save) this.save();
      return false;
    }
    if (save) this.save();
    return true;
  }

  private makeRow(pick: Pick, name: string): Row {
    const cell = () => h('td', { class: 'num' }, '—');
    const cells = { bid: cell(), ask: cell(), last: cell(), change: cell(), age: cell() };
    const el = h(
      'tr',
      { tabindex: 0, 'data-symbol': pick.symbol, 'data-class': pick.cls, 'aria-label': `${pick.symbol}: Enter shows its chart, Delete removes it` },
      h('th', { scope: 'row', title: name }, h('span', { class: 'sym' }, pick.symbol), h('span', { class: 'sub' }, h('span', { class: 'cls' }, pick.cls), h('button', { type: 'button', class: 'icon', title: `Remove ${pick.symbol}`, 'aria-label': `Remove ${pick.symbol}`, tabindex: -1 }, '×'))),
      cells.bid,
      cells.ask,
      cells.last,
      cells.change,
      cells.age,
    );
    const row: Row = { pick, name, el, cells, bid: null, ask: null, last: null, prevClose: null, ts: null, isStale: false, staleSinceMs: null, digits: null, dirty: false, release: null, problem: null };
    el.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('button')) this.remove(row);
      else this.onChoose?.(row.pick);
    });
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        this.onChoose?.(row.pick);
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        const next = (el.nextElementSibling ?? el.previousElementSibling) as HTMLElement | null;
        this.remove(row);
        next?.focus();
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        ((e.key === 'ArrowDown' ? el.nextElementSibling : el.previousElementSibling) as HTMLElement | null)?.focus();
      }
    });
    return row;
  }

  private markRefused(row: Row, message: string): void {
    row.el.classList.add('refused');
    row.el.title = message;
    const cell = h('td', { colspan: 5, class: 'refusal' }, message);
    for (const c of Object.values(row.cells)) c.remove();
    row.el.append(cell);
  }

  private remove(row: Row): void {
    row.release?.();
    row.el.remove();
    this.rows.splice(this.rows.indexOf(row), 1);
    this.save();
  }

  private save(): void {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(this.rows.filter((r) => !r.el.classList.contains('refused')).map((r) => r.pick)));
  }

  private onTick(row: Row, t: Tick): void {
    if (t.type === 'status') {
      row.isStale = t.status === 'stale';
      row.staleSinceMs = row.isStale ? t.since : null;
      row.dirty = true;
      return this.schedule();
    }
    if (t.type === 'quote') {
      row.bid = t.bid;
      row.ask = t.ask;
      if (!HAS_TAPE.has(row.pick.cls)) row.last = mid(t.bid, t.ask);
    } else row.last = t.price;
    row.ts = t.ts;
    row.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.frame === 0) this.frame = requestAnimationFrame(() => this.render());
  }

  private render(): void {
    this.frame = 0;
    for (const row of this.rows) {
      if (!row.dirty) continue;
      row.dirty = false;
      const ref = row.last ?? row.bid;
      if (row.digits === null && ref !== null) row.digits = priceDigits(ref);
      const d = row.digits ?? undefined;
      this.update(row.cells.bid, fmtPrice(row.bid, d));
      this.update(row.cells.ask, fmtPrice(row.ask, d));
      this.update(row.cells.last, fmtPrice(row.last, d));
      const change = row.last !== null && row.prevClose ? ((row.last - row.prevClose) / row.prevClose) * 100 : null;
      setText(row.cells.change, fmtPercent(change));
      this.renderAge(row, serverNow());
      this.renderFreshness(row);
      row.cells.change.dataset.sign = change === null ? '' : change > 0 ? 'up' : change < 0 ? 'down' : '';
    }
  }

  /** Writes a price and flashes the cell green when it rose, red when it fell. */
  private update(cell: HTMLElement, text: string): void {
    const before = cell.textContent ?? '';
    if (before === text) return;
    cell.textContent = text;
    const a = Number(before.replace(/,/g, ''));
    const b = Number(text.replace(/,/g, ''));
    if (!Number.isFinite(a) || !Number.isFinite(b) || a === b || typeof cell.animate !== 'function') return;
    cell.animate([{ backgroundColor: cssColor(b > a ? '--flash-up' : '--flash-down') }, { backgroundColor: 'transparent' }], { duration: 700, easing: 'ease-out' });
  }

  private renderAges(): void {
    const now = serverNow();
    for (const row of this.rows) this.renderAge(row, now);
  }

  /** The age of the last tick; a stale row says so instead, with the age in its title. */
  private renderAge(row: Row, now: number): void {
    if (row.isStale) setText(row.cells.age, 'stale');
    else if (row.ts !== null) setText(row.cells.age, fmtAgeShort(now - row.ts));
  }

  private renderFreshness(row: Row): void {
    if (row.el.dataset.stale === String(row.isStale)) return;
    row.el.classList.toggle('stale', row.isStale);
    row.el.dataset.stale = String(row.isStale);
    const since = row.staleSinceMs === null ? '' : ` since ${new Date(row.staleSinceMs).toISOString().slice(11, 19)} UTC`;
    row.cells.age.title = row.isStale ? `no live source${since}: the values are the last known` : 'since the last tick';
    row.el.setAttribute('aria-label', `${row.pick.symbol}${row.isStale ? ' (stale: no live source)' : ''}: Enter shows its chart, Delete removes it`);
  }

  // --- search -------------------------------------------------------------------------------

  private async suggest(): Promise<void> {
    const q = this.input.value;
    await this.index.load();
    if (q !== this.input.value) return;
    this.options = this.index.search(q);
    this.active = this.options.length > 0 ? 0 : -1;
    this.drawResults();
  }

  private drawResults(): void {
    const q = this.input.value.trim();
    if (q === '') return this.closeResults();
    const items = this.options.map((e, i) =>
      h(
        'li',
        { id: `search-option-${i}`, role: 'option', 'aria-selected': i === this.active ? 'true' : 'false', 'data-symbol': e.symbol, onmousedown: (ev: Event) => (ev.preventDefault(), void this.choose(e)) },
        h('span', { class: 'sym' }, e.symbol),
        h('span', { class: 'cls' }, e.cls),
        h('span', { class: 'name' }, e.name),
      ),
    );
    if (items.length === 0) items.push(h('li', { class: 'empty', role: 'option', 'aria-disabled': 'true' }, `Enter: look up ${q.toUpperCase()} (aliases such as CL1, CC:TICKER, PAIR.RAW)`));
    this.results.replaceChildren(...items);
    this.results.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    if (this.active >= 0) this.input.setAttribute('aria-activedescendant', `search-option-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  private closeResults(): void {
    this.results.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  private onSearchKey(e: KeyboardEvent): void {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (this.options.length === 0) return;
      e.preventDefault();
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : -1) + this.options.length) % this.options.length;
      this.drawResults();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = this.options[this.active];
      if (chosen) void this.choose(chosen);
      else if (this.input.value.trim() !== '') void this.lookUp(this.input.value);
    } else if (e.key === 'Escape') {
      this.closeResults();
    }
  }

  private async lookUp(query: string): Promise<void> {
    setText(this.message, `Looking up ${query.trim().toUpperCase()}…`);
    try {
      await this.choose(await this.index.resolve(query));
    } catch (err) {
      this.message.dataset.status = 'error';
      setText(this.message, describeError(err));
    }
  }

  private async choose(entry: SymbolEntry): Promise<void> {
    this.input.value = '';
    this.closeResults();
    this.message.dataset.status = '';
    const added = await this.add({ cls: entry.cls, symbol: entry.symbol });
    setText(this.message, added ? '' : `${entry.symbol} cannot be shown with this key.`);
    if (added) this.onChoose?.({ cls: entry.cls, symbol: entry.symbol });
  }
}

function mid(bid: number | null, ask: number | null): number | null {
  return bid !== null && ask !== null ? (bid + ask) / 2 : (bid ?? ask);
}
