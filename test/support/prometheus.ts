// A strict reader of the Prometheus text format (0.0.4) for /metrics tests: every line must be a
// HELP, a TYPE or a sample by the format's grammar; each family is declared once, before its
// samples; no series repeats; histogram buckets are cumulative and `+Inf` equals `_count`.
// (The npm parser tried first drops a histogram's labels, sum and count, so it could not check these.)
import { expect } from 'bun:test';

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Family {
  name: string;
  help: string;
  type: MetricType;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL_RE = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/y;
const SAMPLE_RE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? ([-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|NaN|[-+]Inf)(?: -?\\d+)?$`);
const HELP_RE = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE_RE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);

export interface Scrape {
  families: Family[];
  /** Every sample as `name{k="v",...}` (labels sorted; histograms as _bucket, _sum, _count) → value. */
  values: Map<string, number>;
  text: string;
}

/** `name{a="1",b="2"}` with labels sorted, as `Scrape.values` keys them. */
export function series(name: string, labels: Record<string, string> = {}): string {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? name : `${name}{${keys.map((k) => `${k}="${labels[k]}"`).join(',')}}`;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    LABEL_RE.lastIndex = at;
    const m = LABEL_RE.exec(text);
    if (!m) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    if (m[1]! in labels) throw new Error(`label ${m[1]} twice in ${JSON.stringify(line)}`);
    labels[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    at = LABEL_RE.lastIndex;
    if (at < text.length) {
      if (text[at] !== ',') throw new Error(`bad labels in ${JSON.stringify(line)}`);
      at++;
    }
  }
  return labels;
}

/** The family a sample name belongs to (a histogram's `_bucket`, `_sum`, `_count` belong to it). */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const own = families.get(name);
  if (own) return own;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  const base = m ? families.get(m[1]!) : undefined;
  return base && (base.type === 'histogram' || (base.type === 'summary' && m![2] !== 'bucket')) ? base : undefined;
}

export function parseScrape(text: string): Scrape {
  expect(text.endsWith('\n')).toBe(true);
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  const values = new Map<string, number>();
  const sampled = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const help = HELP_RE.exec(line);
    if (help) {
      if (helps.has(help[1]!)) throw new Error(`HELP of ${help[1]} twice`);
      helps.set(help[1]!, help[2]!);
      continue;
    }
    const type = TYPE_RE.exec(line);
    if (type) {
      if (families.has(type[1]!)) throw new Error(`TYPE of ${type[1]} twice`);
      if (sampled.has(type[1]!)) throw new Error(`TYPE of ${type[1]} after its samples`);
      families.set(type[1]!, { name: type[1]!, help: helps.get(type[1]!) ?? '', type: type[2] as MetricType });
      continue;
    }
    const sample = SAMPLE_RE.exec(line);
    if (!sample) throw new Error(`not a line of the text format: ${JSON.stringify(line)}`);
    const family = familyOf(sample[1]!, families);
    if (!family) throw new Error(`sample of an undeclared family: ${JSON.stringify(line)}`);
    sampled.add(family.name);
    const key = series(sample[1]!, parseLabels(sample[2] ?? '', line));
    if (values.has(key)) throw new Error(`series twice: ${key}`);
    values.set(key, Number(sample[3]!.replace('Inf', 'Infinity')));
  }
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f.name, values);
  return { families: [...families.values()], values, text };
}

/** Buckets never decrease with `le`, and `+Inf` is the count, for every label set. */
function checkHistogram(name: string, values: Map<string, number>): void {
  const bySet = new Map<string, [number, number][]>();
  for (const [key, value] of values) {
    if (!key.startsWith(`${name}_bucket{`)) continue;
    const le = /le="([^"]+)"/.exec(key)![1]!;
    const rest = key.slice(`${name}_bucket`.length).replace(/,?le="[^"]+"/, '').replace('{,', '{');
    const set = rest === '{}' ? '' : rest;
    bySet.set(set, [...(bySet.get(set) ?? []), [le === '+Inf' ? Infinity : Number(le), value]]);
  }
  for (const [set, buckets] of bySet) {
    buckets.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < buckets.length; i++) if (buckets[i]![1] < buckets[i - 1]![1]) throw new Error(`${name}${set}: buckets decrease`);
    const last = buckets[buckets.length - 1]!;
    expect(last[0]).toBe(Infinity);
    expect(values.get(`${name}_count${set}`)).toBe(last[1]);
  }
}

/** GETs and parses a metrics URL; fails unless it answers 200 in the text format. */
export async function scrape(url: string, init?: RequestInit): Promise<Scrape> {
  const res = await fetch(url, init);
  const text = await res.text();
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 200, type: 'text/plain; version=0.0.4; charset=utf-8' });
  return parseScrape(text);
}

/** How much a series moved from `before` to `after` (absent before: from 0). */
export function delta(before: Scrape, after: Scrape, key: string): number {
  return (after.values.get(key) ?? 0) - (before.values.get(key) ?? 0);
}
