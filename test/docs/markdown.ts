// Reading the project's own markdown: fenced blocks, headings, GitHub's heading anchors and
// relative links. Shared by the README-commands test and the link test.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dir, '../..');

export interface Block {
  /** The info string after the opening fence: `sh`, `json`, `text`, ... */
  info: string;
  lines: string[];
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced code blocks of a markdown text. */
export function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | null = null;
  text.split('\n').forEach((line, i) => {
    if (open === null) {
      const m = /^```(.*)$/.exec(line);
      if (m) open = { info: m[1]!.trim(), lines: [], line: i + 1 };
    } else if (line.startsWith('```')) {
      blocks.push(open);
      open = null;
    } else {
      open.lines.push(line);
    }
  });
  return blocks;
}

/** The lines of a text outside fenced blocks, with their 1-based numbers. */
export function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) out.push({ line: i + 1, text: line });
  });
  return out;
}

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown text has: its headings' slugs, repeats numbered as GitHub does. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text: line } of proseLines(text)) {
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

export interface Link {
  target: string;
  line: number;
}

/** The links and images of a markdown text outside code, as written. */
export function links(text: string): Link[] {
  const out: Link[] = [];
  for (const { line, text: raw } of proseLines(text)) {
    const withoutCode = raw.replace(/`[^`]*`/g, '');
    for (const m of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1]!, line });
  }
  return out;
}

/** README.md and every page of docs/ (docs/pending/ holds drafts for the docs, not docs). */
export function docFiles(): string[] {
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

export function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}
