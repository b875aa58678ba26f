// Expanding import arguments: globs (relative, absolute, `**`, braces) and plain paths, sorted and
// each file once; a pattern that matches nothing is an error that names it.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandInputs, InputFileError } from '../../../src/ingest/importers/history/index.ts';
import { tempDir } from '../../support/temp-dir.ts';

function layout(root: string): void {
  for (const rel of ['2024/02/b.csv.gz', '2024/01/a.csv.gz', '2024/01/a.csv', '2024/01/notes.txt', 'BTCUSDT-1m-2024-02.csv', 'BTCUSDT-1m-2024-01.csv']) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), 'x');
  }
}

describe('expandInputs', () => {
  test('absolute globs and paths: sorted, deduplicated', () => {
    using dir = tempDir();
    layout(dir.path);
    const d = dir.path;
    expect(expandInputs([`${d}/BTCUSDT-1m-*.csv`, `${d}/BTCUSDT-1m-2024-01.csv`])).toEqual([`${d}/BTCUSDT-1m-2024-01.csv`, `${d}/BTCUSDT-1m-2024-02.csv`]);
    expect(expandInputs([`${d}/**/*.csv.gz`])).toEqual([`${d}/2024/01/a.csv.gz`, `${d}/2024/02/b.csv.gz`]);
    expect(expandInputs([`${d}/2024/01/a.{csv,csv.gz}`, `${d}/2024/0?/*.gz`])).toEqual([`${d}/2024/01/a.csv`, `${d}/2024/01/a.csv.gz`, `${d}/2024/02/b.csv.gz`]);
  });

  test('relative patterns stay relative to the working directory', () => {
    using dir = tempDir();
    layout(dir.path);
    const cwd = process.cwd();
    process.chdir(dir.path);
    try {
      expect(expandInputs(['2024/*/*.gz', './2024/01/a.csv', '2024/01/a.csv.gz'])).toEqual(['./2024/01/a.csv', '2024/01/a.csv.gz', '2024/02/b.csv.gz']);
    } finally {
      process.chdir(cwd);
    }
  });

  test('a pattern or path that matches nothing is an error naming it; a directory is not a file', () => {
    using dir = tempDir();
    layout(dir.path);
    expect(() => expandInputs([`${dir.path}/*.csv`, `${dir.path}/*.parquet`])).toThrow(new InputFileError(`${dir.path}/*.parquet: matches no file`));
    expect(() => expandInputs([`${dir.path}/missing.csv`])).toThrow(`${dir.path}/missing.csv: no such file`);
    expect(() => expandInputs([`${dir.path}/nowhere/*.csv`])).toThrow('matches no file');
    expect(() => expandInputs([`${dir.path}/2024`])).toThrow(`${dir.path}/2024: is a directory; name its files (e.g. ${dir.path}/2024/*.csv)`);
  });
});
