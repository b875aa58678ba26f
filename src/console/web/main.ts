// The console page: asks for a key, checks it with GET /account, then lays out the panels (feeds,
// market clock, watchlist, chart) and the header (stream state, key usage, theme). A key the
// server refuses, at start or later (revoked), brings the key form back with the server's words.
import './console.css';
import { ConsoleApi, describeError, MdsError, type Account } from './api.ts';
import { ChartPanel } from './chart.ts';
import { syncClock } from './clock.ts';
import { h, setText } from './dom.ts';
import { FeedsPanel } from './feeds.ts';
import { fmtDuration } from './format.ts';
import { askForKey, forgetKey, KeyPanel, storedKey, storeKey } from './key-panel.ts';
import { Live, type LiveState } from './live.ts';
import { MarketsPanel } from './markets.ts';
import { SymbolIndex } from './symbols.ts';
import { themeButton } from './theme.ts';
import { Watchlist } from './watchlist.ts';
import type { Market } from '../../../client/src/generated.ts';

const root = document.getElementById('app')!;
/** Everything the running console set up, undone when the key is refused. */
let teardown: (() => void) | null = null;

async function boot(problem: string | null): Promise<void> {
  teardown?.();
  teardown = null;
  root.replaceChildren();
  const key = (problem === null ? storedKey() : null) ?? (await askForKey(problem));
  const api = new ConsoleApi(key);
  let account: Account;
  let markets: Market[];
  try {
    [account, { markets }] = await Promise.all([api.account(), api.call((c) => c.listMarkets())]);
  } catch (err) {
    if (err instanceof MdsError && (err.status === 401 || err.status === 403 || err.status === 429)) {
      forgetKey();
      return boot(`The server refused this key: ${err.message}`);
    }
    return showFatal(`mds did not answer: ${describeError(err)}`);
  }
  storeKey(key);
  syncClock(account.as_of);
  start(api, account, markets);
}

function start(api: ConsoleApi, account: Account, markets: Market[]): void {
  const classes = new Set(account.classes);
  const live = new Live(api.stream());
  const keyPanel = new KeyPanel(() => {
    forgetKey();
    void boot('Enter the key to use.');
  });
  keyPanel.setAccount(account);
  api.onRate = (r) => keyPanel.setRate(r);
  const refused = (message: string) => {
    forgetKey();
    void boot(`The server refused this key: ${message}`);
  };
  api.onKeyRefused = refused;

  const streamState = h('span', { class: 'stream-state', id: 'stream-state', role: 'status' });
  const offState = live.onState((s) => {
    streamState.dataset.state = s.kind;
    setText(streamState, describeLive(s));
    if (s.kind === 'closed' && s.code === 4001) refused(s.reason);
  });

  const zones = new Map(markets.map((m) => [m.market, m.timezone]));
  const chart = new ChartPanel(api, live, zones);
  const index = new SymbolIndex(api, classes);
  const watchlist = new Watchlist(api, live, index, classes);
  const feeds = new FeedsPanel(api);
  const marketPanel = new MarketsPanel(api);
  const theme = themeButton(() => chart.applyTheme());

  const header = h(
    'header',
    { class: 'top' },
    h('span', { class: 'brand' }, h('strong', {}, 'mds'), ' console'),
    streamState,
    keyPanel.el,
    h('nav', { class: 'links', 'aria-label': 'service' }, h('a', { href: '/docs' }, 'API docs'), theme),
  );
  const main = h(
    'main',
    { class: 'layout' },
    h('div', { class: 'area-watch' }, watchlist.el),
    h('div', { class: 'area-chart' }, chart.el),
    h('div', { class: 'area-feeds' }, feeds.el),
    h('div', { class: 'area-markets' }, marketPanel.el),
  );
  root.replaceChildren(header, main);
  chart.mount();
  watchlist.onChoose = (pick) => chart.show(pick);

  feeds.start();
  void marketPanel.start(markets);
  void index.load();
  void watchlist.start().then(() => {
    const first = watchlist.picks()[0];
    if (first) chart.show(first);
  });

  teardown = () => {
    offState();
    feeds.stop();
    live.close();
    api.onKeyRefused = null;
  };
}

function describeLive(s: LiveState): string {
  switch (s.kind) {
    case 'connecting':
      return 'stream: connecting…';
    case 'live':
      return s.reconnects > 0 ? `stream: live (reconnected ${s.reconnects}×)` : 'stream: live';
    case 'waiting':
      return `stream: reconnecting in ${fmtDuration(s.retryInMs)} (${s.code}${s.reason ? ` ${s.reason}` : ''})`;
    case 'closed':
      return `stream: closed (${s.code}${s.reason ? ` ${s.reason}` : ''})`;
  }
}

function showFatal(message: string): void {
  root.replaceChildren(
    h('div', { class: 'fatal', role: 'alert' }, h('p', {}, message), h('button', { type: 'button', class: 'primary', onclick: () => void boot(null) }, 'Try again')),
  );
}

void boot(null);
