import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { parseIsoMs } from '../../../src/ingest/adapters/parse-iso-ms.ts';

describe('parseIsoMs', () => {
  test('agrees with Date for any millisecond time, with extra fraction digits truncated', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2200, 0, 1) }), fc.integer({ min: 0, max: 999_999 }), (ms, subMs) => {
        const iso = new Date(ms).toISOString(); // 2026-11-23T21:30:37.167Z
        expect(parseIsoMs(iso)).toBe(ms);
        expect(parseIsoMs(`${iso.slice(0, -1)}${String(subMs).padStart(6, '0')}Z`)).toBe(ms);
      }),
      { numRuns: 500 },
    );
  });

  test('reads the venues’ forms: nanoseconds, no fraction, offsets, a space for T', () => {
    expect(parseIsoMs('2023-02-09T20:30:37.167359596Z')).toBe(Date.UTC(2023, 1, 9, 20, 30, 37, 167));
    expect(parseIsoMs('2023-02-09T20:30:37Z')).toBe(Date.UTC(2023, 1, 9, 20, 30, 37));
    expect(parseIsoMs('2023-02-09T22:30:37.5+02:00')).toBe(Date.UTC(2023, 1, 9, 20, 30, 37, 500));
    expect(parseIsoMs('2023-02-09T18:00:37.5-02:30')).toBe(Date.UTC(2023, 1, 9, 20, 30, 37, 500));
    expect(parseIsoMs('2023-02-09 20:30:37.000001Z')).toBe(Date.UTC(2023, 1, 9, 20, 30, 37));
  });

  test('is NaN for anything else', () => {
    for (const bad of [undefined, null, 42, '', '2023-02-09', '2023-02-09T20:30:37', '2023-02-09T20:30:37.Z', '2023-13-09T20:30:37Z', '2023-02-09T20:30:37Zjunk', '2023-02-09T2x:30:37Z', '2023-02-09T20:30:37+0200']) {
      expect(parseIsoMs(bad)).toBeNaN();
    }
  });
});
