// Instant-level questions: the session containing t, open/closed, next open and close, status,
// and how the continuous class markets (CRYPTO, FOREX, COMMODITIES) answer them.
import { describe, expect, test } from 'bun:test';
import {
  getMarket, holidaysBetween, isOpenAt, listMarkets, marketStatusAt, nextCloseAfter, nextOpenAfter, sessionAt,
  sessionsBetween, usRegularSessionAt,
} from '../../src/market/index.ts';

const t = (iso: string) => Date.parse(iso);

describe('market registry', () => {
  test('lists the 38 stock markets and the 6 class markets (the US overnight session among them)', () => {
    const markets = listMarkets();
    expect(markets.filter((m) => m.type === 'stocks')).toHaveLength(38);
    expect(markets.filter((m) => m.type !== 'stocks').map((m) => m.market).sort()).toEqual(
      ['COMMODITIES', 'CRYPTO', 'ETFS', 'FOREX', 'INDICES', 'OVERNIGHT'],
    );
  });

  test('getMarket answers by upper-case code and undefined for unknown codes', () => {
    expect(getMarket('US')).toEqual({ market: 'US', name: 'NYSE / Nasdaq', mic: 'XNYS', country: 'US', timezone: 'America/New_York', type: 'stocks' });
    expect(getMarket('us')).toBeUndefined();
  });

  test('unknown codes and malformed dates throw API errors', () => {
    expect(() => sessionAt('XX', 0)).toThrow('unknown market: XX');
    expect(() => sessionsBetween('US', '2025-02-30', '2025-03-01')).toThrow('YYYY-MM-DD');
  });
});

describe('sessionAt and isOpenAt', () => {
  test('the open instant belongs to the session and the close instant does not', () => {
    const session = sessionAt('US', t('2025-03-12T13:30:00Z'));
    expect(session?.date).toBe('2025-03-12');
    expect(sessionAt('US', t('2025-03-12T20:00:00Z'))).toBeNull();
    expect(isOpenAt('US', t('2025-03-12T19:59:59.999Z'))).toBe(true);
  });

  test('a lunch break still belongs to the session but the market is not open', () => {
    const inBreak = t('2025-03-12T03:00:00Z');
    expect(sessionAt('JP', inBreak)?.date).toBe('2025-03-12');
    expect(isOpenAt('JP', inBreak)).toBe(false);
  });

  test('repeated nearby calls give the same answers as fresh ones', () => {
    const base = t('2025-03-12T13:00:00Z');
    const answers = Array.from({ length: 200 }, (_, i) => isOpenAt('US', base + i * 60_000));
    expect(answers.indexOf(true)).toBe(30);
    expect(answers.slice(30).every(Boolean)).toBe(true);
  });

  test('usRegularSessionAt follows the US session including early closes', () => {
    expect(usRegularSessionAt(t('2025-11-28T17:59:00Z'))?.earlyClose).toBe(true);
    expect(usRegularSessionAt(t('2025-11-28T18:00:00Z'))).toBeNull();
  });

  test('a session of the next local year can open in the previous UTC year (Auckland)', () => {
    expect(sessionAt('NZ', t('2025-01-05T21:30:00Z'))?.date).toBe('2025-01-06');
    expect(sessionAt('AU', t('2024-12-31T23:30:00Z'))).toBeNull();
    expect(sessionAt('AU', t('2025-01-01T23:30:00Z'))?.date).toBe('2025-01-02');
  });
});

describe('nextOpenAfter and nextCloseAfter', () => {
  test('over a US holiday weekend the next open skips Good Friday', () => {
    expect(nextOpenAfter('US', t('2025-04-17T20:00:00Z'))).toBe(t('2025-04-21T13:30:00Z'));
    expect(nextCloseAfter('US', t('2025-04-17T20:00:00Z'))).toBe(t('2025-04-21T20:00:00Z'));
  });

  test('during a session the next close is today and the next open is tomorrow', () => {
    expect(nextCloseAfter('GB', t('2025-03-12T10:00:00Z'))).toBe(t('2025-03-12T16:30:00Z'));
    expect(nextOpenAfter('GB', t('2025-03-12T10:00:00Z'))).toBe(t('2025-03-13T08:00:00Z'));
  });
});

describe('continuous markets', () => {
  test('CRYPTO is always open, one session per UTC date, and never opens or closes', () => {
    expect(isOpenAt('CRYPTO', t('2025-12-25T12:00:00Z'))).toBe(true);
    expect(sessionsBetween('CRYPTO', '2025-03-01', '2025-03-07')).toHaveLength(7);
    expect(nextOpenAfter('CRYPTO', t('2025-03-01T00:00:00Z'))).toBeNull();
    expect(nextCloseAfter('CRYPTO', t('2025-03-01T00:00:00Z'))).toBeNull();
    expect(holidaysBetween('CRYPTO', '2025-01-01', '2025-12-31')).toEqual([]);
  });

  test('FOREX runs Sunday 17:00 to Friday 17:00 New York time as one run of touching sessions', () => {
    expect(isOpenAt('FOREX', t('2025-03-15T12:00:00Z'))).toBe(false);
    expect(nextOpenAfter('FOREX', t('2025-03-12T12:00:00Z'))).toBe(t('2025-03-16T21:00:00Z'));
    expect(nextCloseAfter('FOREX', t('2025-03-12T12:00:00Z'))).toBe(t('2025-03-14T21:00:00Z'));
    expect(sessionsBetween('FOREX', '2025-03-10', '2025-03-10')).toEqual([
      { date: '2025-03-10', openMs: t('2025-03-09T21:00:00Z'), closeMs: t('2025-03-10T21:00:00Z'), breakStartMs: null, breakEndMs: null, earlyClose: false },
    ]);
  });

  test('FOREX closes for Christmas Day from 17:00 on Christmas Eve', () => {
    expect(nextCloseAfter('FOREX', t('2025-12-22T12:00:00Z'))).toBe(t('2025-12-24T22:00:00Z'));
    expect(nextOpenAfter('FOREX', t('2025-12-24T22:00:00Z'))).toBe(t('2025-12-25T22:00:00Z'));
  });

  test('COMMODITIES pause for the 17:00-18:00 New York maintenance break every day', () => {
    expect(isOpenAt('COMMODITIES', t('2025-03-11T21:30:00Z'))).toBe(false);
    expect(isOpenAt('COMMODITIES', t('2025-03-11T22:00:00Z'))).toBe(true);
    expect(nextOpenAfter('COMMODITIES', t('2025-03-11T21:00:00Z'))).toBe(t('2025-03-11T22:00:00Z'));
  });

  test('INDICES report the US session and ETFS the US extended hours', () => {
    expect(sessionsBetween('INDICES', '2025-03-12', '2025-03-12')).toEqual(sessionsBetween('US', '2025-03-12', '2025-03-12'));
    const [etf] = sessionsBetween('ETFS', '2025-03-12', '2025-03-12');
    expect([etf?.openMs, etf?.closeMs]).toEqual([t('2025-03-12T08:00:00Z'), t('2025-03-13T00:00:00Z')]);
  });
});

describe('marketStatusAt', () => {
  test('open: the next close is the session close', () => {
    expect(marketStatusAt('US', t('2025-03-12T15:00:00Z'))).toEqual({
      market: 'US', isOpen: true, status: 'open',
      sessionOpenMs: t('2025-03-12T13:30:00Z'), sessionCloseMs: t('2025-03-12T20:00:00Z'),
      nextOpenMs: t('2025-03-13T13:30:00Z'), nextCloseMs: t('2025-03-12T20:00:00Z'), asOfMs: t('2025-03-12T15:00:00Z'),
    });
  });

  test('lunch: status break, reopening at the end of the break', () => {
    expect(marketStatusAt('HK', t('2025-03-12T04:30:00Z'))).toEqual(expect.objectContaining({
      isOpen: false, status: 'break', nextOpenMs: t('2025-03-12T05:00:00Z'), nextCloseMs: t('2025-03-12T08:00:00Z'),
    }));
  });

  test('morning before lunch: the next close is the start of the break', () => {
    expect(marketStatusAt('JP', t('2025-03-12T01:00:00Z')).nextCloseMs).toBe(t('2025-03-12T02:30:00Z'));
  });

  test('early-close day reports early_close while open', () => {
    expect(marketStatusAt('US', t('2025-11-28T15:00:00Z'))).toEqual(expect.objectContaining({
      isOpen: true, status: 'early_close', sessionCloseMs: t('2025-11-28T18:00:00Z'),
    }));
  });

  test('closed on a holiday: no session, next open after it', () => {
    expect(marketStatusAt('US', t('2025-12-25T15:00:00Z'))).toEqual({
      market: 'US', isOpen: false, status: 'closed', sessionOpenMs: null, sessionCloseMs: null,
      nextOpenMs: t('2025-12-26T14:30:00Z'), nextCloseMs: t('2025-12-26T21:00:00Z'), asOfMs: t('2025-12-25T15:00:00Z'),
    });
  });
});
