// Each key's call counters, as the gate charges them (Authenticator.charge over a real store and a
// clock the test moves): the minute and the quota window each start over at their own boundary,
// a refused call counts nothing, a metered key's count is the store's, and a key whose plan
// changed, or a clock set back, gets its windows computed again.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import type { Account } from '../../src/domain/account.ts';
import type { Plan } from '../../src/domain/plans.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;
/** A key made at 10:00:30 UTC: its quota windows run from there, its minutes from :00. */
const CREATED = Date.UTC(2026, 2, 4, 10, 0, 30);
const base = { classes: ['crypto'], stream_connections: 1, stream_subscriptions: 10, stream_frames_per_10s: 100, stream_connects_per_minute: 10, addons: [] } as const;
const TINY: Plan = { ...base, name: 'tiny', description: '5 calls a day, 2 a minute', quota: 5, quota_window_days: 1, per_minute: 2 } as unknown as Plan;
const WIDE: Plan = { ...base, name: 'wide', description: '100 calls per 2 days, no minute limit', quota: 100, quota_window_days: 2, per_minute: null } as unknown as Plan;

let dir: TempDir;
let store: Store;
let clock: ManualClock;
let auth: Authenticator;

beforeEach(() => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  clock = new ManualClock(CREATED);
  auth = new Authenticator({ store, clock, plans: [TINY, WIDE], devKey: null, devPerMinute: 1000 });
});
afterEach(async () => {
  auth.stop();
  await store.close();
  dir[Symbol.dispose]();
});

function keyOn(plan: string): { id: string; account: Account } {
  const { record, secret } = store.accounts.create({ name: plan, plan, markets: [], addons: [] }, CREATED);
  const r = auth.authenticate(secret);
  if (!r.ok) throw new Error(`key refused: ${r.code}`);
  return { id: record.id, account: r.account };
}

describe('per-key counters', () => {
  test('the minute starts over at its boundary; a refused call counts nothing', () => {
    const { account } = keyOn('tiny');
    const minuteEnd = Date.UTC(2026, 2, 4, 10, 1);
    expect(auth.charge(account)).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: minuteEnd });
    expect(auth.charge(account)).toEqual({ allowed: true, limit: 2, remaining: 0, resetMs: minuteEnd });
    clock.set(minuteEnd - 1);
    expect(auth.charge(account)).toEqual({ allowed: false, limit: 2, remaining: 0, resetMs: minuteEnd });
    expect(auth.charge(account).allowed).toBe(false);
    clock.set(minuteEnd);
    // A new minute: two calls of the day are used, so the minute (2 left) and the day (3 left) ...
    expect(auth.charge(account)).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: minuteEnd + MINUTE });
    expect(auth.usage(account).quota).toMatchObject({ limit: 5, used: 3 });
  });

  test('the quota window starts over a window after the key was made; the store keeps each window\'s count', () => {
    const { id, account } = keyOn('tiny');
    for (let i = 0; i < 5; i++) {
      clock.set(CREATED + i * MINUTE);
      expect(auth.charge(account).allowed).toBe(true);
    }
    clock.set(CREATED + 10 * MINUTE);
    // The day's quota binds now: its limit and its end, not the minute's.
    expect(auth.charge(account)).toEqual({ allowed: false, limit: 5, remaining: 0, resetMs: CREATED + DAY });
    expect(auth.peek(account)).toEqual({ allowed: false, limit: 5, remaining: 0, resetMs: CREATED + DAY });
    expect(store.accounts.usageOf(id, CREATED)).toBe(5);

    clock.set(CREATED + DAY);
    expect(auth.charge(account)).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: CREATED + DAY - 30_000 + MINUTE });
    expect(store.accounts.usageOf(id, CREATED + DAY)).toBe(1);
    expect(store.accounts.usageOf(id, CREATED)).toBe(5);
  });

  test('peek counts nothing; keys do not share counters', () => {
    const a = keyOn('tiny');
    const b = keyOn('tiny');
    expect(auth.peek(a.account)).toMatchObject({ allowed: true, remaining: 2 });
    expect(auth.peek(a.account)).toMatchObject({ allowed: true, remaining: 2 });
    auth.charge(a.account);
    auth.charge(a.account);
    expect(auth.charge(a.account).allowed).toBe(false);
    expect(auth.charge(b.account)).toMatchObject({ allowed: true, remaining: 1 });
    expect(store.accounts.usageOf(a.id, CREATED)).toBe(2);
    expect(store.accounts.usageOf(b.id, CREATED)).toBe(1);
  });

  test('a key whose plan changed gets its new plan\'s windows; a clock set back moves them back too', () => {
    const { id, account } = keyOn('tiny');
    auth.charge(account);
    auth.charge(account);
    expect(auth.charge(account).allowed).toBe(false);
    // The same key on another plan (as `mds keys update` makes it): a new account object.
    const widened: Account = { ...account, plan: WIDE };
    expect(auth.charge(widened)).toEqual({ allowed: true, limit: 100, remaining: 97, resetMs: CREATED + 2 * DAY });

    // Two windows on, then the clock set back into the first: the first window's count again.
    clock.set(CREATED + 4 * DAY);
    expect(auth.charge(widened)).toEqual({ allowed: true, limit: 100, remaining: 99, resetMs: CREATED + 6 * DAY });
    clock.set(CREATED + DAY);
    expect(auth.charge(widened)).toEqual({ allowed: true, limit: 100, remaining: 96, resetMs: CREATED + 2 * DAY });
    expect(store.accounts.usageOf(id, CREATED)).toBe(4);
    expect(store.accounts.usageOf(id, CREATED + 4 * DAY)).toBe(1);
  });
});
