// Freshness on subscribe: a client that subscribes to a line's quotes while the line has no live
// source is told at once with a `status` frame (marked `snapshot: true`), before the ack, so it
// never takes the silence that follows for a quiet market. Live lines send nothing: live is the
// state a subscriber assumes until told otherwise.
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Store } from '../store/index.ts';
import type { Pair } from './access.ts';
import { statusJson } from './messages.ts';

/** Sends the stale status of the pair's line (every stale line of the class for `*`); returns how many were sent. */
export function sendStaleStatus(store: Store, pair: Pair, send: (text: string) => void): number {
  if (pair.channel.kind !== 'quotes') return 0;
  const { name, assetClass } = pair.channel;
  const one = (entry: SymbolEntry): number => {
    const state = store.latest(entry.id);
    if (state === undefined || state.quote === null || !state.isStale) return 0;
    send(statusJson(name, assetClass, entry.symbol, true, 0, state.freshnessSinceMs, true));
    return 1;
  };
  if (pair.entry !== null) return one(pair.entry);
  let sent = 0;
  for (const entry of store.registry.all(assetClass)) sent += one(entry);
  return sent;
}
