// What a key may receive on the stream: the same entitlement rules as REST, per channel × symbol
// pair. Checked on subscribe, again for every open connection when keys change, and for the
// channels the ready frame lists.
import { classAccessDenied, marketDenied, type Account } from '../domain/account.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import { CHANNELS, parseChannel, type Channel } from './protocol.ts';

export interface Pair {
  channel: Channel;
  entry: SymbolEntry | null; // null: the whole channel ('*')
}

/** Why the account may not receive this pair, or null. */
export function pairDenied(account: Account, channel: Channel, entry: SymbolEntry | null): string | null {
  const denied = classAccessDenied(account, channel.assetClass);
  if (denied) return denied;
  if (entry === null) {
    return channel.assetClass === 'stocks' && account.markets !== 'all' ? 'a whole stocks channel needs every market enabled: subscribe to symbols of your markets' : null;
  }
  return entry.assetClass === 'stocks' ? marketDenied(account, entry.market ?? '') : null;
}

/** The channels whose class the account may use (the ready frame's `channels`). */
export function channelsFor(account: Account): string[] {
  return CHANNELS.filter((name) => classAccessDenied(account, parseChannel(name)!.assetClass) === null);
}
