// The market clock: every market of /markets (the 38 stock markets and the class markets) with its
// status now (open, closed, lunch break, early close), the next open or close counting down, its
// local time, and a world-time strip of its sessions from 4 hours ago to 20 hours ahead.
// /markets/status is asked again only when a market's next event has passed (and at most once a
// minute), so a day of watching costs the key a few dozen calls, not one per second.
import { now as serverNow } from './clock.ts';
import type { Market, MarketStatus } from '../../../client/src/generated.ts';
import { describeError, type ConsoleApi } from './api.ts';
import { h, setText } from './dom.ts';
import { fmtClock, fmtDateTime, fmtDuration } from './format.ts';

const HOUR = 3_600_000;
const STRIP_BEFORE = 4 * HOUR;
const STRIP_SPAN = 24 * HOUR;
const MIN_REFRESH_MS = 60_000;
/** The status is asked again at least this often (a calendar's next event may be days away). */
const MAX_REFRESH_MS = 15 * 60_000;

const STATUS_TEXT: Record<MarketStatus['status'], string> = { open: 'open', closed: 'closed', break: 'break', early_close: 'early close' };
const ms = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

interface Row {
  market: Market;
  el: HTMLTableRowElement;
  local: HTMLElement;
  pill: HTMLElement;
  next: HTMLElement;
  strip: HTMLElement;
  status: MarketStatus | null;
}

/** Minutes east of UTC of a time zone now (orders the stock markets east to west). */
function offsetMinutes(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at);
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

export class MarketsPanel {
  readonly el: HTMLElement;
  private readonly note = h('p', { class: 'panel-note', role: 'status', id: 'markets-note' }, 'Loading markets…');
  private readonly body = h('tbody');
  private readonly scale = h('div', { class: 'strip-scale', 'aria-hidden': 'true' });
  private rows: Row[] = [];
  private nextFetchAt = 0;
  private lastFetchAt = 0;
  private fetching = false;

  constructor(private readonly api: ConsoleApi) {
    this.el = h(
      'section',
      { class: 'panel markets', id: 'markets', 'aria-labelledby': 'markets-title' },
      h('header', {}, h('h2', { id: 'markets-title' }, 'Market clock')),
      this.note,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'grid market-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'market'), h('th', { scope: 'col' }, 'local'), h('th', { scope: 'col' }, 'status'), h('th', { scope: 'col' }, 'next'), h('th', { scope: 'col', class: 'strip-col' }, this.scale))),
          this.body,
        ),
      ),
    );
  }

  /** `markets`: the /markets list (read once by the page; the chart takes time zones from it too). */
  async start(markets: Market[]): Promise<void> {
    this.build(markets);
    await this.refresh();
    setInterval(() => this.tick(), 1000);
  }

  private build(markets: Market[]): void {
    const now = serverNow();
    const classMarkets = markets.filter((m) => m.type !== 'stocks');
    const stockMarkets = markets.filter((m) => m.type === 'stocks').sort((a, b) => offsetMinutes(b.timezone, now) - offsetMinutes(a.timezone, now) || a.market.localeCompare(b.market));
    this.rows = [...classMarkets, ...stockMarkets].map((market) => {
      const local = h('td', { class: 'num' });
      const pill = h('span', { class: 'pill' }, '…');
      const next = h('td', { class: 'next' });
      const strip = h('div', { class: 'strip' }, h('span', { class: 'now-line' }));
      const el = h(
        'tr',
        { 'data-market': market.market, 'data-type': market.type },
        h('th', { scope: 'row', title: `${market.name}${market.mic ? ` (${market.mic})` : ''} · ${market.timezone}` }, h('span', { class: 'code' }, market.market), h('span', { class: 'name' }, market.name)),
        local,
        h('td', {}, pill),
        next,
        h('td', { class: 'strip-col' }, strip),
      );
      this.body.append(el);
      return { market, el, local, pill, next, strip, status: null };
    });
    this.drawScale(now);
  }

  private async refresh(): Promise<void> {
    if (this.fetching) return;
    this.fetching = true;
    this.lastFetchAt = serverNow();
    try {
      const answer = await this.api.call((c) => c.listMarketStatus({}));
      const byCode = new Map(answer.markets.map((s) => [s.market, s]));
      let nextEvent = Infinity;
      for (const row of this.rows) {
        row.status = byCode.get(row.market.market) ?? null;
        const s = row.status;
        if (s) for (const t of [s.is_open ? ms(s.session_close) : ms(s.next_open), ms(s.next_close), ms(s.next_open)]) if (t !== null && t > this.lastFetchAt) nextEvent = Math.min(nextEvent, t);
      }
      this.nextFetchAt = Math.min(nextEvent + 1000, this.lastFetchAt + MAX_REFRESH_MS);
      const open = this.rows.filter((r) => r.status?.is_open).length;
      setText(this.note, `${this.rows.length} markets, ${open} open now · status as of ${fmtClock(Date.parse(answer.as_of), Intl.DateTimeFormat().resolvedOptions().timeZone, true)} (your time)`);
      this.note.dataset.status = 'ok';
    } catch (err) {
      this.note.dataset.status = 'unavailable';
      setText(this.note, `Market status unavailable: ${describeError(err)}`);
      this.nextFetchAt = this.lastFetchAt + MIN_REFRESH_MS;
    } finally {
      this.fetching = false;
    }
    this.tick();
  }

  private tick(): void {
    const now = serverNow();
    if (now >= this.nextFetchAt && now - this.lastFetchAt >= MIN_REFRESH_MS) void this.refresh();
    for (const row of this.rows) this.renderRow(row, now);
    if (Math.floor(now / 1000) % 30 === 0) this.drawScale(now);
  }

  private renderRow(row: Row, now: number): void {
    setText(row.local, fmtClock(now, row.market.timezone));
    const s = row.status;
    if (!s) return;
    row.pill.dataset.status = s.status;
    setText(row.pill, STATUS_TEXT[s.status]);
    const close = ms(s.session_close);
    const open = ms(s.next_open);
    let text = '';
    let at: number | null = null;
    if (s.is_open && s.next_open === null && s.next_close === null) {
      text = 'around the clock';
    } else if (s.is_open) {
      at = close !== null && close > now ? close : ms(s.next_close);
      text = at === null ? '' : `closes in ${fmtDuration(at - now)}`;
    } else if (open !== null) {
      at = open;
      text = open > now ? `opens in ${fmtDuration(open - now)}` : 'opening…';
    }
    setText(row.next, text);
    row.next.title = at === null ? '' : `${fmtDateTime(at, row.market.timezone)} local · ${fmtDateTime(at, 'UTC')} UTC`;
    this.drawStrip(row, s, now);
  }

  /** The sessions known from the status (current, next) as bars on a 24-hour strip. */
  private drawStrip(row: Row, s: MarketStatus, now: number): void {
    const start = now - STRIP_BEFORE;
    const end = start + STRIP_SPAN;
    const spans: [number, number, string][] = [];
    const sOpen = ms(s.session_open);
    const sClose = ms(s.session_close);
    const nOpen = ms(s.next_open);
    const nClose = ms(s.next_close);
    if (s.is_open && nOpen === null && nClose === null) spans.push([start, end, 'open']); // around the clock
    else {
      if (sOpen !== null && sClose !== null) spans.push([sOpen, sClose, s.status === 'break' ? 'break' : 'open']);
      if (nOpen !== null) {
        // The next session's close is known when the market is closed now; while open, the status
        // names only the current close, so the next session is drawn as long as this one.
        const nextEnd = !s.is_open && nClose !== null && nClose > nOpen ? nClose : sOpen !== null && sClose !== null ? nOpen + (sClose - sOpen) : nOpen + HOUR;
        spans.push([nOpen, nextEnd, 'next']);
      }
    }
    const key = spans.map((p) => p.join(':')).join('|') + `@${Math.floor(now / 60_000)}`;
    if (row.strip.dataset.key === key) return;
    row.strip.dataset.key = key;
    const pct = (t: number) => `${(((Math.min(end, Math.max(start, t)) - start) / STRIP_SPAN) * 100).toFixed(3)}%`;
    const nodes: HTMLElement[] = [h('span', { class: 'now-line' })];
    for (const [a, b, kind] of spans) {
      if (b <= start || a >= end) continue;
      const seg = h('span', { class: `seg seg-${kind}` });
      seg.style.left = pct(a);
      seg.style.width = `calc(${pct(b)} - ${pct(a)})`;
      nodes.push(seg);
    }
    row.strip.replaceChildren(...nodes);
  }

  /** Hour labels in UTC over the strip. */
  private drawScale(now: number): void {
    const start = now - STRIP_BEFORE;
    const nodes: HTMLElement[] = [];
    // Labels about 40 px apart: every 3, 6 or 12 hours as the strip's width allows.
    const width = this.scale.clientWidth || 320;
    const step = (width >= 320 ? 3 : width >= 160 ? 6 : 12) * HOUR;
    const first = Math.ceil(start / step) * step;
    for (let t = first; t < start + STRIP_SPAN; t += step) {
      const mark = h('span', { class: 'tick' }, fmtClock(t, 'UTC'));
      mark.style.left = `${(((t - start) / STRIP_SPAN) * 100).toFixed(3)}%`;
      nodes.push(mark);
    }
    nodes.push(h('span', { class: 'tick now' }, 'now'));
    (nodes.at(-1) as HTMLElement).style.left = `${((STRIP_BEFORE / STRIP_SPAN) * 100).toFixed(3)}%`;
    this.scale.replaceChildren(...nodes);
    this.scale.title = 'UTC, from 4 hours ago to 20 hours ahead';
  }
}
