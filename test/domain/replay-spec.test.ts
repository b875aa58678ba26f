// The `--feed replay:PATH[:speed=N|max][:loop]` spec: options are trailing parts only, so a path
// may hold colons; a bad spec is a message, never a throw.
import { describe, expect, test } from 'bun:test';
import { isReplayFeed, parseReplaySpec } from '../../src/domain/replay-spec.ts';

describe('replay spec', () => {
  test.each([
    ['replay:./rec', { path: './rec', speed: 1, loop: false }],
    ['replay:./rec:speed=max', { path: './rec', speed: 'max', loop: false }],
    ['replay:/data/rec/2026-03-04/15.rec.zst:speed=2.5:loop', { path: '/data/rec/2026-03-04/15.rec.zst', speed: 2.5, loop: true }],
    ['replay:./rec:loop:speed=0.01', { path: './rec', speed: 0.01, loop: true }],
    ['replay:C:\\rec\\run 1:speed=max', { path: 'C:\\rec\\run 1', speed: 'max', loop: false }],
    ['replay:./a:b', { path: './a:b', speed: 1, loop: false }],
  ])('%s', (raw, spec) => {
    expect(parseReplaySpec(raw)).toEqual(spec as ReturnType<typeof parseReplaySpec>);
  });

  test.each([
    ['replay:', /^a replay needs the path/],
    ['replay:speed=max', /^a replay needs the path/],
    ['replay:./rec:speed=', /^replay speed takes a number from 0\.01 to 10000 .* or 'max'/],
    ['replay:./rec:speed=20000', /^replay speed takes/],
    ['replay:./rec:speed=-1', /^replay speed takes/],
    ['replay:./rec:fast=yes', /^unknown replay option "fast=yes"; the options are speed=N\|max and loop/],
  ])('%s is refused', (raw, message) => {
    expect(parseReplaySpec(raw)).toMatch(message);
  });

  test('isReplayFeed tells a replay from feed lists', () => {
    expect(['replay', 'replay:x'].map(isReplayFeed)).toEqual([true, true]);
    expect(['sim', 'replayer', 'none'].map(isReplayFeed)).toEqual([false, false, false]);
  });
});
