// Reads the reference session files (one CSV per market, see the README next to them) and compares
// them with the calendar's sessions, date by date, returning the disagreements by kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Session } from '../../src/market/index.ts';
import { exceptionOn, REFERENCE_EXCEPTIONS } from './reference-exceptions.ts';

/** The reference session files, kept with the tests (their README says where they come from). */
export const REFERENCE_DIR = join(import.meta.dir, '..', 'fixtures', 'reference-calendars');

/** Market code to the reference file's MIC (lower case is the file name). */
export const REFERENCE_FILES: Readonly<Record<string, string>> = {
  US: 'xnys', GB: 'xlon', DE: 'xetr', FR: 'xpar', NL: 'xams', BE: 'xbru', PT: 'xlis', IE: 'xdub', CH: 'xswx',
  ES: 'xmad', IT: 'xmil', SE: 'xsto', NO: 'xosl', DK: 'xcse', FI: 'xhel', AT: 'xwbo', PL: 'xwar', TR: 'xist',
  ZA: 'xjse', JP: 'xtks', HK: 'xhkg', CN: 'xshg', KR: 'xkrx', TW: 'xtai', SG: 'xses', IN: 'xbom', AU: 'xasx',
  NZ: 'xnze', CA: 'xtse', MX: 'xmex', BR: 'bvmf', CL: 'xsgo', SA: 'xsau', IL: 'xtae', TH: 'xbkk', MY: 'xkls',
  ID: 'xidx', PH: 'xphs',
};

/** Markets whose midday break the reference models; elsewhere its rows never carry one. */
const BREAKS_MODELLED = new Set(['JP', 'HK', 'CN']);
/** Markets with a real midday break the reference does not show (its README's known limits). */
const BREAKS_NOT_SHOWN = new Set(['TH', 'MY', 'ID', 'PH']);
/** Markets whose early closes the reference does not model (its README's known limits). */
const EARLY_CLOSES_NOT_MODELLED = new Set([
  'CH', 'IT', 'DK', 'FI', 'PL', 'ZA', 'MX', 'JP', 'CN', 'KR', 'TW', 'SG', 'IN', 'TH', 'ID', 'PH', 'BR', 'SA',
]);

export interface ReferenceRow {
  date: string;
  openMs: number;
  closeMs: number;
  breakStartMs: number | null;
  breakEndMs: number | null;
}

export interface ReferenceFile {
  market: string;
  first: string;
  last: string;
  rows: ReferenceRow[];
}

const ms = (text: string | undefined): number | null => (text === undefined || text === '' ? null : Date.parse(text));

export function readReference(market: string): ReferenceFile {
  const file = REFERENCE_FILES[market];
  if (!file) throw new Error(`no reference file for ${market}`);
  const lines = readFileSync(join(REFERENCE_DIR, `${file}.csv`), 'utf8').trim().split('\n').slice(1);
  const rows = lines.map((line): ReferenceRow => {
    const [label = '', open, close, breakStart, breakEnd] = line.trim().split(',');
    return { date: label.slice(0, 10), openMs: ms(open) ?? Number.NaN, closeMs: ms(close) ?? Number.NaN, breakStartMs: ms(breakStart), breakEndMs: ms(breakEnd) };
  });
  return { market, first: rows[0]?.date ?? '', last: rows.at(-1)?.date ?? '', rows };
}

export type DisagreementKind = 'closed' | 'extra' | 'open' | 'close' | 'break' | 'exception';

export interface Disagreement {
  date: string;
  kind: DisagreementKind;
  reference: string;
  ours: string;
}

const hhmm = (tsMs: number | null): string => (tsMs === null ? '-' : new Date(tsMs).toISOString().slice(11, 16));

export function sessionText(s: { openMs: number; closeMs: number; breakStartMs: number | null; breakEndMs: number | null } | undefined): string {
  return s ? `${hhmm(s.openMs)}-${hhmm(s.closeMs)}${s.breakStartMs === null ? '' : ` break ${hhmm(s.breakStartMs)}-${hhmm(s.breakEndMs)}`}Z` : 'closed';
}

/** Every local date from first to last of the reference, checked against the calendar's sessions over those dates. */
export function compareWithReference(ref: ReferenceFile, sessions: readonly Session[]): Disagreement[] {
  const ours = new Map<string, Session>();
  for (const s of sessions) if (s.date >= ref.first && s.date <= ref.last) ours.set(s.date, s);
  const out: Disagreement[] = [];
  const rows = new Map(ref.rows.map((row) => [row.date, row]));
  const dates = [...new Set([...rows.keys(), ...ours.keys()])].sort();
  for (const date of dates) {
    const row = rows.get(date);
    const session = ours.get(date);
    const exception = exceptionOn(ref.market, date);
    if (exception) {
      // The exception replaces the reference's answer on a date the reference or the calendar trades.
      const answer = session ? sessionText(session) : 'closed';
      if (answer !== exception.ours) out.push({ date, kind: 'exception', reference: exception.ours, ours: answer });
      continue;
    }
    if (!row) {
      if (session) out.push({ date, kind: 'extra', reference: 'closed', ours: sessionText(session) });
      continue;
    }
    if (!session) {
      out.push({ date, kind: 'closed', reference: sessionText(row), ours: 'closed' });
      continue;
    }
    const isLastKrxRow = ref.market === 'KR' && row.date === '2026-12-30';
    if (session.openMs !== row.openMs && !isLastKrxRow) out.push({ date, kind: 'open', reference: sessionText(row), ours: sessionText(session) });
    const earlyCloseNotModelled = EARLY_CLOSES_NOT_MODELLED.has(ref.market) && session.earlyClose && session.closeMs < row.closeMs;
    if (session.closeMs !== row.closeMs && !earlyCloseNotModelled) out.push({ date, kind: 'close', reference: sessionText(row), ours: sessionText(session) });
    const breakChecked = BREAKS_MODELLED.has(ref.market) || !BREAKS_NOT_SHOWN.has(ref.market);
    if (breakChecked && (session.breakStartMs !== row.breakStartMs || session.breakEndMs !== row.breakEndMs)) {
      out.push({ date, kind: 'break', reference: sessionText(row), ours: sessionText(session) });
    }
  }
  for (const exception of REFERENCE_EXCEPTIONS) {
    if (exception.market === ref.market && (exception.from < ref.first || exception.to > ref.last)) {
      out.push({ date: exception.from, kind: 'exception', reference: `inside ${ref.first}..${ref.last}`, ours: `${exception.from}..${exception.to}` });
    }
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** One line per kind: count, then the first few dates with both answers. */
export function summarize(market: string, disagreements: readonly Disagreement[]): string {
  const byKind = new Map<DisagreementKind, Disagreement[]>();
  for (const d of disagreements) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d]);
  const lines = [...byKind].map(([kind, list]) =>
    `  ${kind} ${list.length}: ${list.slice(0, 6).map((d) => `${d.date} ref ${d.reference} ours ${d.ours}`).join('; ')}${list.length > 6 ? ' ...' : ''}`);
  return `${market}: ${new Set(disagreements.map((d) => d.date)).size} disagreeing days\n${lines.join('\n')}`;
}
