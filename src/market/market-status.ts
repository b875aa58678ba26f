// The status answer for one market at one instant. next_close is the next instant isOpen flips to
// false (the start of a lunch break counts); next_open is the reopening after the break while in
// it, and otherwise the open of the next session that starts after the instant, so a market open in
// the morning reports tomorrow's open, not the end of today's lunch.
import { isOpenAt, nextCloseAfter, nextOpenAfter, sessionAt } from './session-query.ts';
import { requireDefinition } from './registry.ts';
import type { MarketStatus } from './types.ts';

export function marketStatusAt(code: string, tsMs: number): MarketStatus {
  requireDefinition(code);
  const session = sessionAt(code, tsMs);
  if (!session) {
    return {
      market: code, isOpen: false, status: 'closed', sessionOpenMs: null, sessionCloseMs: null,
      nextOpenMs: nextOpenAfter(code, tsMs), nextCloseMs: nextCloseAfter(code, tsMs), asOfMs: tsMs,
    };
  }
  const isOpen = isOpenAt(code, tsMs);
  const breakAhead = session.breakStartMs !== null && session.breakStartMs > tsMs;
  return {
    market: code,
    isOpen,
    status: !isOpen ? 'break' : session.earlyClose ? 'early_close' : 'open',
    sessionOpenMs: session.openMs,
    sessionCloseMs: session.closeMs,
    nextOpenMs: isOpen ? nextOpenAfter(code, tsMs) : session.breakEndMs,
    nextCloseMs: isOpen && breakAhead ? session.breakStartMs : nextCloseAfter(code, tsMs),
    asOfMs: tsMs,
  };
}
