// Expands the input arguments of an import (paths and glob patterns) into the files to read:
// sorted, each once, and a pattern that matches nothing is an error naming it.
import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { InputFileError } from '../fundamentals-file.ts';

const GLOB_CHARS = /[*?[\]{}]/;

/** The literal directory a pattern starts in and the pattern below it. */
function splitPattern(pattern: string): { base: string; rest: string } {
  const parts = pattern.replace(/\\/g, '/').split('/');
  const first = parts.findIndex((part) => GLOB_CHARS.test(part));
  const baseParts = parts.slice(0, first);
  const base = baseParts.length === 0 ? '.' : baseParts.join('/') === '' ? '/' : baseParts.join('/');
  return { base, rest: parts.slice(first).join('/') };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Files named by paths and globs (`data/*.csv.gz`, `**` for any depth), sorted and deduplicated. */
export function expandInputs(patterns: string[]): string[] {
  const byResolved = new Map<string, string>();
  for (const pattern of patterns) {
    const matches: string[] = [];
    if (!GLOB_CHARS.test(pattern)) {
      if (isDirectory(pattern)) throw new InputFileError(`${pattern}: is a directory; name its files (e.g. ${join(pattern, '*.csv')})`);
      if (isFile(pattern)) matches.push(pattern);
    } else {
      const { base, rest } = splitPattern(pattern);
      let scanned: string[] = [];
      try {
        scanned = [...new Bun.Glob(rest).scanSync({ cwd: base, onlyFiles: true, dot: false })];
      } catch {
        scanned = []; // a base directory that does not exist matches nothing
      }
      for (const match of scanned) matches.push(base === '.' && !pattern.startsWith('./') ? match : join(base, match));
    }
    if (matches.length === 0) throw new InputFileError(`${pattern}: ${GLOB_CHARS.test(pattern) ? 'matches no file' : 'no such file'}`);
    for (const match of matches) {
      const key = isAbsolute(match) ? resolve(match) : resolve(process.cwd(), match);
      if (!byResolved.has(key)) byResolved.set(key, match);
    }
  }
  return [...byResolved.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
