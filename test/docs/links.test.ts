// Every relative link in README.md and docs/ reaches a file that exists, and a link with a
// #fragment reaches a heading of that page; every docs page opens with a title and is linked
// from the README, so a newcomer can reach it.
import { describe, expect, test } from 'bun:test';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT, anchors, docFiles, links, read } from './markdown.ts';

const EXTERNAL = /^(https?:|mailto:|data:)/;

describe('links in the docs', () => {
  for (const file of docFiles()) {
    test(`${file}: every relative link resolves`, () => {
      const text = read(file);
      const broken: string[] = [];
      for (const { target, line } of links(text)) {
        if (EXTERNAL.test(target)) continue;
        const [pathPart, fragment] = target.split('#') as [string, string | undefined];
        const resolved = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)));
        const absolute = join(ROOT, resolved);
        if (relative(ROOT, absolute).startsWith('..') || !existsSync(absolute)) {
          broken.push(`${file}:${line}: ${target}: no file ${resolved}`);
          continue;
        }
        if (fragment !== undefined && resolved.endsWith('.md') && statSync(absolute).isFile()) {
          if (!anchors(read(resolved)).has(fragment)) broken.push(`${file}:${line}: ${target}: ${resolved} has no heading #${fragment}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  test('the link checker sees a broken file and a broken anchor', () => {
    const sample = 'See [a](docs/no-such-page.md) and [b](docs/rest.md#no-such-heading), `[c](not-a-link.md)`.';
    expect(links(sample).map((l) => l.target)).toEqual(['docs/no-such-page.md', 'docs/rest.md#no-such-heading']);
    expect(existsSync(join(ROOT, 'docs/no-such-page.md'))).toBe(false);
    expect(anchors(read('docs/rest.md')).has('no-such-heading')).toBe(false);
    expect(anchors(read('docs/rest.md')).has('bars-in-a-range')).toBe(true);
  });

  test('every docs page opens with a # title and is linked from the README', () => {
    const readmeTargets = new Set(links(read('README.md')).map((l) => l.target.split('#')[0]));
    const problems: string[] = [];
    for (const file of docFiles().filter((f) => f !== 'README.md')) {
      if (!/^# \S/.test(read(file))) problems.push(`${file}: does not open with a "# " title`);
      if (!readmeTargets.has(file)) problems.push(`${file}: not linked from README.md`);
    }
    expect(problems).toEqual([]);
  });

  test('the README stays a front page of at most 400 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(400);
  });
});
