// Feeds: every feed of /health with its state, last-message age, message rate and reconnects,
// refreshed every two seconds (/health is open: it costs the key nothing).
import type { Health } from '../../../client/src/generated.ts';
import { describeError, type ConsoleApi } from './api.ts';
import { h, replaceChildren, setText } from './dom.ts';
import { fmtAge, fmtBytes, fmtInt } from './format.ts';

const REFRESH_MS = 2000;

export class FeedsPanel {
  readonly el: HTMLElement;
  private readonly summary = h('p', { class: 'panel-note', id: 'health-summary', role: 'status' }, 'Loading /health…');
  private readonly body = h('tbody');
  private readonly rows = new Map<string, HTMLTableRowElement>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly api: ConsoleApi) {
    this.el = h(
      'section',
      { class: 'panel feeds', id: 'feeds', 'aria-labelledby': 'feeds-title' },
      h('header', {}, h('h2', { id: 'feeds-title' }, 'Feeds')),
      this.summary,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'grid' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'feed'), h('th', { scope: 'col' }, 'state'), h('th', { scope: 'col', class: 'num', title: 'age of the last message' }, 'last msg'), h('th', { scope: 'col', class: 'num', title: 'messages per second' }, 'msg/s'), h('th', { scope: 'col', class: 'num', title: 'reconnects since start' }, 'reconn.'), h('th', { scope: 'col', class: 'num', title: 'instruments the feed supplies' }, 'instr.'))),
          this.body,
        ),
      ),
    );
  }

  start(): void {
    const tick = async () => {
      try {
        this.render(await this.api.health());
      } catch (err) {
        this.summary.dataset.status = 'unavailable';
        setText(this.summary, `mds is not answering /health: ${describeError(err)}`);
      }
      this.timer = setTimeout(tick, REFRESH_MS);
    };
    void tick();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private render(health: Health): void {
    this.summary.dataset.status = health.status;
    const disk = health.disk.free_bytes === null ? '' : ` · disk ${fmtBytes(health.disk.free_bytes)} free${health.disk.writes === 'failing' ? ', writes failing' : ''}`;
    setText(this.summary, `mds ${health.version} · ${health.status}${health.reason ? `: ${health.reason}` : ''} · ${fmtInt(health.symbols)} symbols · up ${fmtAge(health.uptime_s * 1000)}${disk}`);
    const seen = new Set<string>();
    for (const f of health.feeds) {
      seen.add(f.id);
      let row = this.rows.get(f.id);
      if (!row) {
        row = h('tr', { 'data-feed': f.id }, h('th', { scope: 'row' }, f.id), h('td', {}, h('span', { class: 'pill' })), h('td', { class: 'num' }), h('td', { class: 'num' }), h('td', { class: 'num' }), h('td', { class: 'num' }));
        this.rows.set(f.id, row);
        this.body.append(row);
      }
      const [, stateCell, age, rate, reconnects, instruments] = row.cells;
      const pill = stateCell!.firstElementChild as HTMLElement;
      pill.dataset.state = f.state;
      setText(pill, f.state);
      const problems = [f.reason, ...Object.entries(f.instrument_errors).map(([s, m]) => `${s}: ${m}`)].filter(Boolean);
      pill.title = problems.join('\n');
      setText(age!, fmtAge(f.last_message_age_ms));
      setText(rate!, fmtInt(f.messages_per_second));
      setText(reconnects!, fmtInt(f.reconnects));
      setText(instruments!, fmtInt(f.instruments));
    }
    for (const [id, row] of this.rows) {
      if (!seen.has(id)) {
        row.remove();
        this.rows.delete(id);
      }
    }
    if (health.feeds.length === 0 && this.body.childElementCount === 0) replaceChildren(this.body, h('tr', {}, h('td', { colspan: 6, class: 'empty' }, 'No feed runs (--feed none): serving what is stored.')));
    else this.body.querySelector('td.empty')?.closest('tr')?.remove();
  }
}
