// The simulator's economic calendar: the recurring releases of the covered countries (payrolls,
// CPI, central-bank decisions, GDP, PMI) on their usual days and local times, from 60 days back to
// 60 days ahead. A forecast is known in advance; the actual arrives when the clock passes the
// release time (an update of the same id); `previous` is the prior period's actual. Values depend
// only on the seed and the period. Events an import wrote are left alone.
import type { EconomicEvent, Importance } from '../../domain/economic-calendar.ts';
import { addDays, isoWeekday, lastWeekday, nthWeekday, ymd } from '../../market/civil-date.ts';
import { localMinutesToMs } from '../../market/zoned-time.ts';
import type { Clock } from '../../clock.ts';
import type { Store, StoredEvent } from '../../store/index.ts';
import { seedFor } from './random.ts';

/** Days back and ahead the calendar covers, moving with the clock. */
export const SIM_CALENDAR_DAYS_BACK = 60;
export const SIM_CALENDAR_DAYS_AHEAD = 60;
const CHECK_EVERY_MS = 60_000;

type DayRule = { nth: number; weekday: number } | { last: number } | 'first-business-day' | 'last-business-day';

interface Series {
  key: string;
  country: string;
  event: string;
  category: string;
  importance: Importance;
  unit: string | null;
  zone: string;
  time: string;
  /** Months it is released in (1-12); every month when left out. */
  months?: number[];
  day: DayRule;
  /** Level, swing and noise of the figure; `step` rounds decisions to a quarter point. */
  level: number;
  swing: number;
  noise: number;
  decimals: number;
  step?: number;
}

const QUARTERLY = [1, 4, 7, 10];
const FRIDAY = 5;
const WEDNESDAY = 3;
const THURSDAY = 4;

const SERIES: Series[] = [
  { key: 'US-NFP', country: 'US', event: 'Nonfarm Payrolls', category: 'employment', importance: 'high', unit: 'K', zone: 'America/New_York', time: '08:30', day: { nth: 1, weekday: FRIDAY }, level: 160, swing: 60, noise: 45, decimals: 0 },
  { key: 'US-CPI', country: 'US', event: 'CPI (YoY)', category: 'inflation', importance: 'high', unit: '%', zone: 'America/New_York', time: '08:30', day: { nth: 2, weekday: WEDNESDAY }, level: 2.8, swing: 0.5, noise: 0.1, decimals: 1 },
  { key: 'US-ISM', country: 'US', event: 'ISM Manufacturing PMI', category: 'business survey', importance: 'medium', unit: 'index', zone: 'America/New_York', time: '10:00', day: 'first-business-day', level: 49.5, swing: 2.5, noise: 0.8, decimals: 1 },
  { key: 'US-GDP', country: 'US', event: 'GDP Growth Rate (QoQ, annualized, advance)', category: 'growth', importance: 'high', unit: '%', zone: 'America/New_York', time: '08:30', months: QUARTERLY, day: { last: THURSDAY }, level: 2.2, swing: 1.2, noise: 0.6, decimals: 1 },
  { key: 'US-FED', country: 'US', event: 'Fed Interest Rate Decision', category: 'central bank', importance: 'high', unit: '%', zone: 'America/New_York', time: '14:00', months: [1, 3, 5, 6, 7, 9, 10, 12], day: { nth: 3, weekday: WEDNESDAY }, level: 4.0, swing: 1, noise: 0, decimals: 2, step: 0.25 },
  { key: 'EU-ECB', country: 'EU', event: 'ECB Deposit Facility Rate Decision', category: 'central bank', importance: 'high', unit: '%', zone: 'Europe/Berlin', time: '14:15', months: [1, 3, 4, 6, 7, 9, 10, 12], day: { nth: 2, weekday: THURSDAY }, level: 2.25, swing: 0.75, noise: 0, decimals: 2, step: 0.25 },
  { key: 'GB-BOE', country: 'GB', event: 'BoE Interest Rate Decision', category: 'central bank', importance: 'high', unit: '%', zone: 'Europe/London', time: '12:00', months: [2, 3, 5, 6, 8, 9, 11, 12], day: { nth: 1, weekday: THURSDAY }, level: 4.0, swing: 0.75, noise: 0, decimals: 2, step: 0.25 },
  { key: 'GB-CPI', country: 'GB', event: 'CPI (YoY)', category: 'inflation', importance: 'high', unit: '%', zone: 'Europe/London', time: '07:00', day: { nth: 3, weekday: WEDNESDAY }, level: 3.0, swing: 0.6, noise: 0.1, decimals: 1 },
  { key: 'GB-GDP', country: 'GB', event: 'GDP Growth Rate (QoQ, first estimate)', category: 'growth', importance: 'high', unit: '%', zone: 'Europe/London', time: '07:00', months: [2, 5, 8, 11], day: { nth: 2, weekday: THURSDAY }, level: 0.3, swing: 0.3, noise: 0.15, decimals: 1 },
  { key: 'GB-PMI', country: 'GB', event: 'S&P Global Manufacturing PMI', category: 'business survey', importance: 'medium', unit: 'index', zone: 'Europe/London', time: '09:30', day: 'first-business-day', level: 48.5, swing: 2, noise: 0.7, decimals: 1 },
  ...(
    [
      ['DE', 'Europe/Berlin', '14:00', '09:55', 'high', 2.3],
      ['FR', 'Europe/Paris', '08:45', '09:50', 'medium', 1.6],
      ['IT', 'Europe/Rome', '11:00', '09:45', 'medium', 1.8],
      ['ES', 'Europe/Madrid', '09:00', '09:15', 'medium', 2.6],
    ] as const
  ).flatMap(([cc, zone, cpiTime, pmiTime, cpiImportance, cpiLevel]): Series[] => [
    { key: `${cc}-CPI`, country: cc, event: 'CPI (YoY, flash)', category: 'inflation', importance: cpiImportance, unit: '%', zone, time: cpiTime, day: 'last-business-day', level: cpiLevel, swing: 0.5, noise: 0.1, decimals: 1 },
    { key: `${cc}-PMI`, country: cc, event: 'HCOB Manufacturing PMI', category: 'business survey', importance: 'medium', unit: 'index', zone, time: pmiTime, day: 'first-business-day', level: 47.5, swing: 2.5, noise: 0.8, decimals: 1 },
    { key: `${cc}-GDP`, country: cc, event: 'GDP Growth Rate (QoQ, flash)', category: 'growth', importance: cc === 'DE' ? 'high' : 'medium', unit: '%', zone, time: '10:00', months: QUARTERLY, day: { last: THURSDAY }, level: 0.2, swing: 0.3, noise: 0.15, decimals: 1 },
  ]),
];

function releaseDate(year: number, month: number, rule: DayRule): string {
  if (rule === 'first-business-day') {
    let d = ymd(year, month, 1);
    while (isoWeekday(d) >= 6) d = addDays(d, 1);
    return d;
  }
  if (rule === 'last-business-day') {
    let d = addDays(ymd(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1), -1);
    while (isoWeekday(d) >= 6) d = addDays(d, -1);
    return d;
  }
  return 'nth' in rule ? nthWeekday(year, month, rule.weekday, rule.nth) : lastWeekday(year, month, rule.last);
}

/** A uniform draw in [-1, 1) fixed by seed and name. */
function draw(seed: number, name: string): number {
  return (seedFor(seed, name) / 2 ** 32) * 2 - 1;
}

function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

/** The figure of a series for a release period (months since year 0). */
function figureOf(s: Series, seed: number, period: number): number {
  const phase = draw(seed, `${s.key}:phase`) * Math.PI;
  const wave = s.level + s.swing * Math.sin(period / 7 + phase);
  if (s.step) return round(Math.round(wave / s.step) * s.step, s.decimals);
  return round(wave + s.noise * draw(seed, `${s.key}:${period}`), s.decimals);
}

/** The events of every series released between two dates (inclusive), as known at `nowMs`. */
export function simulatedEvents(seed: number, fromDate: string, toDate: string, nowMs: number): EconomicEvent[] {
  const out: EconomicEvent[] = [];
  const [fy, fm] = [Number(fromDate.slice(0, 4)), Number(fromDate.slice(5, 7))];
  const [ty, tm] = [Number(toDate.slice(0, 4)), Number(toDate.slice(5, 7))];
  for (let period = fy * 12 + fm - 1; period <= ty * 12 + tm - 1; period++) {
    const year = Math.floor(period / 12);
    const month = (period % 12) + 1;
    for (const s of SERIES) {
      if (s.months && !s.months.includes(month)) continue;
      const date = releaseDate(year, month, s.day);
      if (date < fromDate || date > toDate) continue;
      const scheduledAtMs = localMinutesToMs(date, Number(s.time.slice(0, 2)) * 60 + Number(s.time.slice(3, 5)), s.zone);
      // The previous release of a series with fixed months is its previous listed month.
      let prior = period - 1;
      while (s.months && !s.months.includes((((prior % 12) + 12) % 12) + 1)) prior--;
      const actual = figureOf(s, seed, period);
      const forecast = s.step ? actual : round(actual + s.noise * 0.8 * draw(seed, `${s.key}:${period}:forecast`), s.decimals);
      out.push({
        id: `${s.key}-${date}`,
        country: s.country,
        event: s.event,
        category: s.category,
        importance: s.importance,
        scheduledAtMs,
        actual: nowMs >= scheduledAtMs ? actual : null,
        forecast,
        previous: figureOf(s, seed, prior),
        unit: s.unit,
      });
    }
  }
  return out.sort((a, b) => a.scheduledAtMs - b.scheduledAtMs || (a.id < b.id ? -1 : 1));
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class SimulatedCalendar {
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Told of a failed step; SimFeed sends it to the service log. */
  onError: (err: unknown) => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly seed: number,
  ) {}

  /** Writes the window's events as known now; imported events stay as imported. Returns how many changed. */
  publish(): number {
    const nowMs = this.clock.nowMs();
    const today = isoDate(nowMs);
    const events = simulatedEvents(this.seed, addDays(today, -SIM_CALENDAR_DAYS_BACK), addDays(today, SIM_CALENDAR_DAYS_AHEAD), nowMs);
    const summary = this.store.calendar.upsert(
      events.map((e): StoredEvent => ({ ...e, origin: 'sim' })),
      (stored) => stored.origin === 'import',
    );
    // For an ingest node to publish to its edges (store/history-changes.ts).
    if (summary.added + summary.updated > 0) this.store.historyChanges.note({ kind: 'calendar', ids: events.map((e) => e.id) }).catch(this.onError);
    return summary.added + summary.updated;
  }

  start(): void {
    const publish = () => {
      try {
        this.publish();
      } catch (err) {
        this.onError(err);
      }
    };
    publish();
    this.timer ??= setInterval(publish, CHECK_EVERY_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
