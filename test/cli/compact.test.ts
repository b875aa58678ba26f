// `mds compact` usage: its help, and a data dir without a store is a usage error (exit 2). Compacting
// a real store after retention is in test/retention.test.ts.
import { describe, expect, test } from 'bun:test';
import { runMds } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('mds compact', () => {
  test('--help says what it does and that no server may run', async () => {
    const r = await runMds('compact', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toStartWith('Usage: mds compact [options]');
    expect(r.out).toContain('No server may run on the data dir.');
  });

  test('a data dir without a store exits 2 naming it', async () => {
    using dir = tempDir();
    const r = await runMds('compact', '--data-dir', dir.path);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`mds: no store in ${dir.path}: give the data dir to compact with --data-dir\n`);
  });

  test('an unknown option exits 2 pointing at the help', async () => {
    const r = await runMds('compact', '--to', 'x');
    expect(r.code).toBe(2);
    expect(r.err).toContain("Run 'mds compact --help' for the options.");
  });
});
