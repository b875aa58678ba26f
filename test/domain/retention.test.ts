// The --retain grammar over the defaults, and how a retention is shown.
import { describe, expect, test } from 'bun:test';
import { DEFAULT_RETENTION, formatRetention, parseRetention, retentionCutoffMs } from '../../src/domain/retention.ts';
import { DAY_MS } from '../../src/domain/timeframes.ts';

describe('retention', () => {
  test('named timeframes replace their default; the others keep it', () => {
    expect(parseRetention('1m=30d, 1h=12w,1d=2y,5m=forever')).toEqual({ ...DEFAULT_RETENTION, '1m': 30 * DAY_MS, '5m': null, '1h': 84 * DAY_MS, '1d': 730 * DAY_MS });
  });

  test('the defaults keep more than the simulator makes and than a range request may span', () => {
    expect(formatRetention(DEFAULT_RETENTION)).toBe('1m=90d,5m=1y,15m=2y,1h=5y,4h=10y,1d=forever');
    expect(parseRetention(formatRetention(DEFAULT_RETENTION))).toEqual(DEFAULT_RETENTION);
  });

  test.each([['1m=0d'], ['1m=-3d'], ['1m=3h'], ['1m=1.5d'], ['1m='], ['=3d'], ['']])('%p is refused with a message', (raw) => {
    expect(typeof parseRetention(raw)).toBe('string');
  });

  test('the cutoff is now minus the retention; for ever has none', () => {
    const retention = parseRetention('1m=2d,1d=forever');
    if (typeof retention === 'string') throw new Error(retention);
    expect(retentionCutoffMs(retention, '1m', 10 * DAY_MS)).toBe(8 * DAY_MS);
    expect(retentionCutoffMs(retention, '1d', 10 * DAY_MS)).toBeNull();
  });
});
