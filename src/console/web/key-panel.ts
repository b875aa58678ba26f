// The key: asked for once per browser session (kept in sessionStorage, never in the URL or local
// storage), and shown in the header: the plan, the quota used and left, the per-minute window.
// GET /account gives the plan and both windows when the page starts; every later answer's
// X-RateLimit-* headers keep the numbers current without spending calls to ask.
import { now as serverNow } from './clock.ts';
import type { Account, RateHeaders } from './api.ts';
import { h, replaceChildren, setText } from './dom.ts';
import { fmtDuration, fmtInt } from './format.ts';

const STORAGE_KEY = 'mds.console.key';

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);
export const storeKey = (key: string): void => sessionStorage.setItem(STORAGE_KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(STORAGE_KEY);

/**
 * The modal form that asks for the key. `problem` says why it is asked again (the server's refusal).
 * Resolves with the key entered.
 */
export function askForKey(problem: string | null): Promise<string> {
  return new Promise((resolve) => {
    const input = h('input', { id: 'key-input', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'key-help', placeholder: 'API key' });
    const form = h(
      'form',
      { class: 'key-form', 'aria-labelledby': 'key-title' },
      h('h1', { id: 'key-title' }, 'mds console'),
      h('p', { id: 'key-help' }, 'Enter an API key. The console calls the public REST routes and the stream with it, so it sees what the key may see and its calls count against the key\u2019s quota. The key stays in this browser tab (session storage) and is sent only to this server.'),
      problem ? h('p', { class: 'key-error', role: 'alert', id: 'key-error' }, problem) : null,
      h('label', { for: 'key-input' }, 'API key'),
      input,
      h('button', { type: 'submit', class: 'primary' }, 'Open console'),
      h('p', { class: 'hint' }, 'A fresh server prints its development key at start; `mds keys create` makes others.'),
    );
    const overlay = h('div', { class: 'overlay', role: 'dialog', 'aria-modal': 'true', id: 'key-dialog' }, form);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const key = input.value.trim();
      if (key === '') return;
      overlay.remove();
      resolve(key);
    });
    document.body.append(overlay);
    input.focus();
  });
}

interface Window {
  limit: number;
  remaining: number;
  resetMs: number;
}

/** The header's key summary. */
export class KeyPanel {
  readonly el: HTMLElement;
  private readonly planEl = h('span', { class: 'plan', id: 'key-plan' }, '…');
  private readonly quotaEl = h('span', { id: 'key-quota' }, '');
  private readonly minuteEl = h('span', { id: 'key-minute' }, '');
  private readonly meter = h('span', { class: 'meter', 'aria-hidden': 'true' }, h('span', { class: 'meter-fill' }));
  private quota: Window | null = null;
  private minute: Window | null = null;
  private unmetered = false;

  constructor(onChangeKey: () => void) {
    this.el = h(
      'div',
      { class: 'key-panel', id: 'key-panel', 'aria-label': 'API key' },
      this.planEl,
      h('span', { class: 'quota' }, this.meter, this.quotaEl),
      this.minuteEl,
      h('button', { type: 'button', class: 'link', onclick: onChangeKey, title: 'Forget this key and enter another' }, 'Change key'),
    );
    setInterval(() => this.render(), 1000);
  }

  setAccount(a: Account): void {
    replaceChildren(this.planEl, h('strong', {}, a.plan), ` · ${a.key_id}`);
    this.planEl.title = a.description ?? '';
    this.unmetered = a.quota === null;
    this.quota = a.quota && { limit: a.quota.limit, remaining: a.quota.remaining, resetMs: a.quota.resets_at };
    this.minute = a.per_minute && { limit: a.per_minute.limit, remaining: a.per_minute.remaining, resetMs: a.per_minute.resets_at };
    this.render();
  }

  /** An answer's headers: they describe whichever window binds, told apart by its limit and reset. */
  setRate(r: RateHeaders): void {
    if (this.minute && r.limit === this.minute.limit && r.resetMs <= this.minute.resetMs + 60_000 && (this.quota === null || r.limit !== this.quota.limit)) {
      this.minute = { ...r };
      if (this.quota && this.quota.remaining > 0) this.quota.remaining = Math.max(0, this.quota.remaining - 1);
    } else if (this.quota && r.limit === this.quota.limit) {
      this.quota = { ...r };
      if (this.minute && this.minute.resetMs > serverNow()) this.minute.remaining = Math.max(0, this.minute.remaining - 1);
    } else if (!this.quota && this.minute === null && !this.unmetered) {
      this.quota = { ...r };
    }
    this.render();
  }

  private render(): void {
    const now = serverNow();
    const fill = this.meter.firstElementChild as HTMLElement;
    if (this.quota) {
      const used = this.quota.limit - this.quota.remaining;
      setText(this.quotaEl, `quota ${fmtInt(used)} / ${fmtInt(this.quota.limit)} used, ${fmtInt(this.quota.remaining)} left, resets in ${fmtDuration(this.quota.resetMs - now)}`);
      const share = this.quota.limit > 0 ? used / this.quota.limit : 0;
      this.meter.hidden = false;
      fill.style.width = `${Math.min(100, share * 100).toFixed(1)}%`;
      this.meter.dataset.level = share > 0.9 ? 'high' : share > 0.7 ? 'mid' : 'low';
    } else {
      setText(this.quotaEl, this.unmetered ? 'quota: unmetered' : '');
      fill.style.width = '0%';
      this.meter.hidden = true;
    }
    if (this.minute) {
      const fresh = this.minute.resetMs > now;
      const left = fresh ? this.minute.remaining : this.minute.limit;
      setText(this.minuteEl, `per minute ${fmtInt(left)} / ${fmtInt(this.minute.limit)} left`);
    } else setText(this.minuteEl, '');
  }
}
