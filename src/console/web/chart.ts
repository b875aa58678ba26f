// The chart: candlesticks and volume of one symbol and timeframe from the range route (the newest
// bars), the coverage report's gaps as whitespace slots with a shaded band, the opens of the
// market's sessions, and the bar in progress extended from the stream's ticks as they arrive.
// Stocks have a raw/adjusted switch: adjusted asks the range route for adjustment=all (splits and
// dividends); the choice is kept in local storage like the theme.
// Charting by TradingView's Lightweight Charts (its attribution logo stays on the chart).
import { now as serverNow } from './clock.ts';
import { CandlestickSeries, createChart, HistogramSeries, TickMarkType, type CandlestickData, type IChartApi, type ISeriesApi, type Time, type UTCTimestamp, type WhitespaceData } from 'lightweight-charts';
import type { Bar, Coverage, SessionList } from '../../../client/src/generated.ts';
import { describeError, HAS_TAPE, type AssetClass, type ConsoleApi, type Timespan } from './api.ts';
import { h, setText } from './dom.ts';
import { fmtVolume, fmtDateTime, fmtPrice, priceDigits, utcDate } from './format.ts';
import type { Live, Tick } from './live.ts';
import { cssColor } from './theme.ts';
import { TimeBands, type Band, type BandColors, type SessionLine } from './time-bands.ts';
import type { Pick } from './watchlist.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

interface Timeframe {
  id: '1m' | '5m' | '15m' | '1h' | '4h' | '1d';
  multiplier: number;
  timespan: Timespan;
  ms: number;
  /** UTC dates asked (within the range route's maximum span); the newest LIMIT bars of them are drawn. */
  days: number;
}

const TIMEFRAMES: Timeframe[] = [
  { id: '1m', multiplier: 1, timespan: 'minute', ms: MINUTE, days: 6 },
  { id: '5m', multiplier: 5, timespan: 'minute', ms: 5 * MINUTE, days: 20 },
  { id: '15m', multiplier: 15, timespan: 'minute', ms: 15 * MINUTE, days: 60 },
  { id: '1h', multiplier: 1, timespan: 'hour', ms: 60 * MINUTE, days: 180 },
  { id: '4h', multiplier: 4, timespan: 'hour', ms: 240 * MINUTE, days: 700 },
  { id: '1d', multiplier: 1, timespan: 'day', ms: DAY, days: 3650 },
];
const LIMIT = 1500;
/** Raw bars, or adjusted for splits and dividends (stocks only: only they have corporate actions). */
type Adjustment = 'raw' | 'all';
const ADJUSTMENT_KEY = 'mds.console.adjustment';
const ADJUSTMENT_LABELS: Record<Adjustment, string> = { raw: 'raw', all: 'adjusted' };

function savedAdjustment(): Adjustment {
  try {
    return localStorage.getItem(ADJUSTMENT_KEY) === 'all' ? 'all' : 'raw';
  } catch {
    return 'raw';
  }
}
/** Whitespace slots drawn for gaps at most (a long outage is still one band). */
const MAX_GAP_SLOTS = 3000;

/** The calendar whose sessions a class's bars follow; null: around the clock. */
function sessionMarket(cls: AssetClass, symbol: string): string | null {
  switch (cls) {
    case 'stocks':
      return symbol.slice(0, 2);
    case 'crypto':
    case 'perpetuals':
      return null;
    default:
      return cls.toUpperCase();
  }
}

interface LiveBar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

export class ChartPanel {
  readonly el: HTMLElement;
  private readonly host = h('div', { class: 'chart-host', id: 'chart', 'data-state': 'idle', role: 'img', 'aria-label': 'price chart' });
  private readonly title = h('h2', { id: 'chart-title' }, 'Chart');
  private readonly legend = h('div', { class: 'chart-legend', id: 'chart-legend', 'aria-live': 'off' });
  private readonly status = h('p', { class: 'panel-note', id: 'chart-status', role: 'status' });
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly adjustButtons = new Map<Adjustment, HTMLButtonElement>();
  private readonly adjustBar = h('div', { class: 'segmented', id: 'chart-adjustment', role: 'group', 'aria-label': 'price adjustment', hidden: true });
  private adjustment: Adjustment = savedAdjustment();
  private chart: IChartApi | null = null;
  private candles: ISeriesApi<'Candlestick'> | null = null;
  private volume: ISeriesApi<'Histogram'> | null = null;
  private bands: TimeBands | null = null;
  private pick: Pick | null = null;
  private tf: Timeframe = TIMEFRAMES[0]!;
  private timeZone = 'UTC';
  private bars: LiveBar[] = [];
  private times: number[] = [];
  private sessions: { open: number; close: number }[] = [];
  private release: (() => void) | null = null;
  private loadSeq = 0;
  private digits = 2;

  constructor(private readonly api: ConsoleApi, private readonly live: Live, private readonly zones: ReadonlyMap<string, string>) {
    const tfBar = h('div', { class: 'segmented', role: 'group', 'aria-label': 'timeframe' });
    for (const tf of TIMEFRAMES) {
      const b = h('button', { type: 'button', 'data-tf': tf.id, 'aria-pressed': 'false', onclick: () => this.setTimeframe(tf) }, tf.id);
      this.buttons.set(tf.id, b);
      tfBar.append(b);
    }
    for (const adj of ['raw', 'all'] as const) {
      const title = adj === 'raw' ? 'Prices as traded' : 'Prices and volumes adjusted for splits and dividends (adjustment=all)';
      const b = h('button', { type: 'button', 'data-adjustment': adj, 'aria-pressed': String(adj === this.adjustment), title, onclick: () => this.setAdjustment(adj) }, ADJUSTMENT_LABELS[adj]);
      this.adjustButtons.set(adj, b);
      this.adjustBar.append(b);
    }
    this.el = h(
      'section',
      { class: 'panel chart-panel', 'aria-labelledby': 'chart-title' },
      h('header', {}, this.title, h('div', { class: 'chart-controls' }, this.adjustBar, tfBar)),
      h('div', { class: 'chart-frame' }, this.host, this.legend),
      this.status,
      h('p', { class: 'attribution' }, 'Charts by ', h('a', { href: 'https://www.tradingview.com/', rel: 'noopener noreferrer', target: '_blank' }, 'TradingView Lightweight Charts™'), ', Copyright © TradingView, Inc.'),
    );
    live.onState((s) => {
      // After a reconnect the stream resumes its ticks, but the bar in progress was not extended
      // while away: read it again.
      if (s.kind === 'live' && s.reconnects > 0 && this.pick) void this.load();
    });
  }

  /** Creates the chart once the panel is in the document (it measures its container). */
  mount(): void {
    const colors = themeColors();
    this.chart = createChart(this.host, {
      autoSize: true,
      layout: { background: { color: colors.bg }, textColor: colors.text, fontFamily: 'system-ui, sans-serif', attributionLogo: true },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderColor: colors.grid },
      timeScale: { borderColor: colors.grid, timeVisible: true, secondsVisible: false, rightOffset: 4, tickMarkFormatter: (time: Time, type: TickMarkType) => this.tickLabel(time, type) },
      localization: { timeFormatter: (time: Time) => fmtDateTime((time as number) * 1000, this.timeZone), priceFormatter: (p: number) => fmtPrice(p, this.digits) },
      crosshair: { mode: 0 },
    });
    this.candles = this.chart.addSeries(CandlestickSeries, { upColor: colors.up, downColor: colors.down, borderVisible: false, wickUpColor: colors.up, wickDownColor: colors.down });
    this.volume = this.chart.addSeries(HistogramSeries, { priceScaleId: 'volume', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
    this.chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    this.candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
    this.bands = new TimeBands(bandColors(colors));
    this.candles.attachPrimitive(this.bands);
    this.chart.subscribeCrosshairMove((p) => {
      const bar = p.time === undefined ? undefined : this.bars.find((b) => b.t === (p.time as number) * 1000);
      this.drawLegend(bar ?? this.bars.at(-1));
    });
  }

  /** Colours follow the page's theme. */
  applyTheme(): void {
    if (!this.chart || !this.candles || !this.bands) return;
    const c = themeColors();
    this.chart.applyOptions({ layout: { background: { color: c.bg }, textColor: c.text }, grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } }, rightPriceScale: { borderColor: c.grid }, timeScale: { borderColor: c.grid } });
    this.candles.applyOptions({ upColor: c.up, downColor: c.down, wickUpColor: c.up, wickDownColor: c.down });
    this.bands.setColors(bandColors(c));
    this.setSeries();
  }

  show(pick: Pick): void {
    if (this.pick && this.pick.cls === pick.cls && this.pick.symbol === pick.symbol) return;
    this.pick = pick;
    const market = sessionMarket(pick.cls, pick.symbol);
    this.timeZone = (market && this.zones.get(market)) ?? 'UTC';
    void this.load();
  }

  private setTimeframe(tf: Timeframe): void {
    if (tf === this.tf) return;
    this.tf = tf;
    void this.load();
  }

  private setAdjustment(adj: Adjustment): void {
    if (adj === this.adjustment) return;
    this.adjustment = adj;
    try {
      localStorage.setItem(ADJUSTMENT_KEY, adj);
    } catch {
      // Storage refused (a private window's quota): the choice holds for this page only.
    }
    void this.load();
  }

  private async load(): Promise<void> {
    const pick = this.pick;
    if (!pick || !this.candles) return;
    const seq = ++this.loadSeq;
    const tf = this.tf;
    for (const [id, b] of this.buttons) b.setAttribute('aria-pressed', String(id === tf.id));
    const isStock = pick.cls === 'stocks';
    // Only stocks have corporate actions; every other class is drawn raw and shows no switch.
    const adjustment: Adjustment = isStock ? this.adjustment : 'raw';
    this.adjustBar.hidden = !isStock;
    for (const [adj, b] of this.adjustButtons) b.setAttribute('aria-pressed', String(adj === adjustment));
    setText(this.title, `${pick.symbol} · ${tf.id}${isStock ? ` · ${ADJUSTMENT_LABELS[adjustment]}` : ''}`);
    this.host.dataset.state = 'loading';
    this.host.dataset.symbol = pick.symbol;
    this.host.dataset.timeframe = tf.id;
    this.host.dataset.adjustment = adjustment;
    this.host.setAttribute('aria-label', `${pick.symbol} ${tf.id} candlestick chart`);
    setText(this.status, `Loading ${pick.symbol} ${tf.id} bars…`);
    this.release?.();
    this.release = null;
    const now = serverNow();
    const to = utcDate(now);
    const from = utcDate(now - (tf.days - 1) * DAY);
    const market = sessionMarket(pick.cls, pick.symbol);
    try {
      // Adjusted bars end at factor 1 (an action applies to the bars before its date), so the live
      // ticks extend the bar in progress as they do raw bars.
      const range = await this.api.range(pick.cls, { symbol: pick.symbol, multiplier: tf.multiplier, timespan: tf.timespan, from, to, limit: LIMIT, sort: 'desc', ...(adjustment !== 'raw' && { adjustment }) });
      if (seq !== this.loadSeq) return;
      const bars = range.results.filter(isFull).reverse();
      const firstT = bars[0]?.t ?? now;
      const [coverage, sessions] = await Promise.all([
        this.api.coverage(pick.cls, { symbol: pick.symbol, timeframe: tf.id, from: utcDate(firstT), to }).catch(() => null),
        market !== null && tf.id !== '1d' ? this.api.sessions(market, utcDate(Math.max(firstT, now - 365 * DAY)), to).catch(() => null) : Promise.resolve(null),
      ]);
      if (seq !== this.loadSeq) return;
      this.bars = bars.map((b) => ({ t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v ?? 0 }));
      this.digits = priceDigits(this.bars.at(-1)?.c ?? 1);
      this.sessions = sessions ? sessions.sessions.map((s) => ({ open: Date.parse(s.open), close: Date.parse(s.close) })) : [];
      const gaps = this.gapBands(coverage, firstT);
      this.setSeries(gaps, sessionLines(sessions, this.timeZone));
      this.chart!.timeScale().scrollToRealTime();
      this.host.dataset.state = 'ready';
      this.host.dataset.bars = String(this.bars.length);
      this.host.dataset.gaps = String(gaps.length);
      const gapSlots = gaps.reduce((n, g) => n + g.count, 0);
      const adjusted = !isStock ? '' : adjustment === 'raw' ? ' · raw prices' : ` · adjusted for splits and dividends${range.adjustment_version ? ` (version ${range.adjustment_version})` : ''}`;
      setText(
        this.status,
        this.bars.length === 0
          ? `No ${tf.id} bars of ${pick.symbol} in ${from} to ${to}.`
          : `${this.bars.length} bars from ${fmtDateTime(this.bars[0]!.t, this.timeZone)} (${this.timeZone})${adjusted} · ${coverage ? (gaps.length === 0 ? 'no gaps' : `${gaps.length} gap${gaps.length > 1 ? 's' : ''} (${gapSlots} slot${gapSlots > 1 ? 's' : ''}) shaded`) : 'coverage not available'}${market && sessions ? ` · session opens of ${market}` : ''} · live`,
      );
      this.drawLegend(this.bars.at(-1));
      this.release = await this.live.watch(pick.cls, pick.symbol, HAS_TAPE.has(pick.cls) ? ['trades'] : ['quotes'], (t) => this.onTick(t));
      if (seq !== this.loadSeq) this.release();
    } catch (err) {
      if (seq !== this.loadSeq) return;
      this.host.dataset.state = 'error';
      setText(this.status, `${pick.symbol} ${tf.id}: ${describeError(err)}`);
    }
  }

  /** The coverage report's gap ranges from the first bar on, and the whitespace slots that hold them. */
  private gapBands(coverage: Coverage | null, firstT: number): Band[] {
    if (!coverage) return [];
    const out: Band[] = [];
    let budget = MAX_GAP_SLOTS;
    const gapSlots: number[] = [];
    for (const r of coverage.ranges) {
      if (r.kind !== 'gap' || r.to <= firstT) continue;
      const from = Math.max(r.from, firstT);
      let count = 0;
      for (let t = from; t < r.to && budget > 0; t += this.tf.ms, budget--) {
        gapSlots.push(t);
        count++;
      }
      if (count > 0) out.push({ from, to: r.to, count });
    }
    this.gapSlots = gapSlots;
    return out;
  }

  private gapSlots: number[] = [];
  private gaps: Band[] = [];
  private lines: SessionLine[] = [];

  /** Writes candles, whitespace and volume to the chart, and the band layer's axis. */
  private setSeries(gaps: Band[] = this.gaps, lines: SessionLine[] = this.lines): void {
    if (!this.candles || !this.volume || !this.bands) return;
    this.gaps = gaps;
    this.lines = lines;
    const colors = themeColors();
    const points: (CandlestickData<Time> | WhitespaceData<Time>)[] = [];
    const seen = new Set<number>();
    const barTimes = new Set(this.bars.map((b) => b.t));
    const merged = [...this.bars.map((b) => ({ t: b.t, bar: b as LiveBar | null })), ...this.gapSlots.filter((t) => !barTimes.has(t)).map((t) => ({ t, bar: null }))].sort((a, b) => a.t - b.t);
    this.times = [];
    for (const { t, bar } of merged) {
      if (seen.has(t)) continue;
      seen.add(t);
      this.times.push(t);
      points.push(bar ? { time: (t / 1000) as UTCTimestamp, open: bar.o, high: bar.h, low: bar.l, close: bar.c } : { time: (t / 1000) as UTCTimestamp });
    }
    this.candles.setData(points);
    this.volume.setData(this.bars.map((b) => ({ time: (b.t / 1000) as UTCTimestamp, value: b.v, color: b.c >= b.o ? colors.upVol : colors.downVol })));
    this.bands.set(this.times, gaps, lines);
  }

  private onTick(t: Tick): void {
    // The latest tick before subscribing is already in the bars read; freshness is the watchlist's to show.
    if (t.snapshot || t.type === 'status') return;
    const price = t.type === 'trade' ? t.price : (t.bid + t.ask) / 2;
    const size = t.type === 'trade' ? (t.size ?? 0) : 0;
    // Series that trade in sessions: a tick outside them makes no bar (the server makes none).
    if (this.sessions.length > 0 && !this.sessions.some((s) => t.ts >= s.open && t.ts < s.close)) return;
    const last = this.bars.at(-1);
    const bucket = this.tf.id === '1d' ? Math.floor(t.ts / DAY) * DAY : last ? last.t + Math.floor((t.ts - last.t) / this.tf.ms) * this.tf.ms : Math.floor(t.ts / this.tf.ms) * this.tf.ms;
    if (last && bucket < last.t) return;
    let bar: LiveBar;
    if (last && last.t === bucket) {
      bar = last;
      bar.h = Math.max(bar.h, price);
      bar.l = Math.min(bar.l, price);
      bar.c = price;
      bar.v += size;
    } else {
      bar = { t: bucket, o: price, h: price, l: price, c: price, v: size };
      this.bars.push(bar);
      this.times.push(bucket);
      this.host.dataset.bars = String(this.bars.length);
    }
    const colors = themeColors();
    const time = (bar.t / 1000) as UTCTimestamp;
    this.candles?.update({ time, open: bar.o, high: bar.h, low: bar.l, close: bar.c });
    this.volume?.update({ time, value: bar.v, color: bar.c >= bar.o ? colors.upVol : colors.downVol });
    this.host.dataset.lastUpdate = String(t.ts);
    this.drawLegend(bar);
  }

  private drawLegend(bar: LiveBar | undefined): void {
    if (!bar || !this.pick) return setText(this.legend, '');
    const d = this.digits;
    setText(this.legend, `${this.pick.symbol} ${this.tf.id}  ${fmtDateTime(bar.t, this.timeZone)}  O ${fmtPrice(bar.o, d)}  H ${fmtPrice(bar.h, d)}  L ${fmtPrice(bar.l, d)}  C ${fmtPrice(bar.c, d)}  V ${fmtVolume(bar.v)}`);
  }

  private tickLabel(time: Time, type: TickMarkType): string {
    const ms = (time as number) * 1000;
    const opts: Intl.DateTimeFormatOptions =
      type === TickMarkType.Year ? { year: 'numeric' } : type === TickMarkType.Month ? { month: 'short' } : type === TickMarkType.DayOfMonth ? { day: 'numeric', month: 'short' } : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
    return new Intl.DateTimeFormat('en-GB', { timeZone: this.timeZone, ...opts }).format(ms);
  }
}

function isFull(b: Bar): b is Bar & { t: number; o: number; h: number; l: number; c: number } {
  return b.t !== null && b.o !== null && b.h !== null && b.l !== null && b.c !== null;
}

function sessionLines(list: SessionList | null, timeZone: string): SessionLine[] {
  if (!list) return [];
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric' });
  return list.sessions.map((s) => ({ at: Date.parse(s.open), label: day.format(Date.parse(s.open)) }));
}

interface ThemeColors {
  bg: string;
  text: string;
  grid: string;
  up: string;
  down: string;
  upVol: string;
  downVol: string;
  gap: string;
  gapEdge: string;
  session: string;
}

function themeColors(): ThemeColors {
  const v = cssColor;
  return { bg: v('--panel'), text: v('--muted'), grid: v('--grid'), up: v('--up'), down: v('--down'), upVol: v('--up-vol'), downVol: v('--down-vol'), gap: v('--gap'), gapEdge: v('--gap-edge'), session: v('--session') };
}

function bandColors(c: ThemeColors): BandColors {
  return { gap: c.gap, gapEdge: c.gapEdge, session: c.session, text: c.text };
}
