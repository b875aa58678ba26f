// The status answer for one market at one instant. Unlike nextOpenAfter/nextCloseAfter (session
// level), its next open/close are the next instants isOpen flips, so a lunch break counts.
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
    // Before or in the lunch break the market next opens when the break ends.
    nextOpenMs: isOpen && !breakAhead ? nextOpenAfter(code, tsMs) : session.breakEndMs,
    nextCloseMs: isOpen && breakAhead ? session.breakStartMs : nextCloseAfter(code, tsMs),
    asOfMs: tsMs,
  };
}
