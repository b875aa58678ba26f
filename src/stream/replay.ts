// Resume with `since`: replays a pair's ticks after the client's last sequence number from the
// ticks ring, and reports per pair where the replay starts, so a client knows when ticks are
// missing for good (more than the cap, or older than the ring) and must fill them from REST bars.
import { COMPOSITE_CLASSES } from '../domain/asset-classes.ts';
import type { Store } from '../store/index.ts';
import type { Pair } from './access.ts';
import { quoteJson, tradeJson } from './messages.ts';
import type { Since } from './protocol.ts';

/** One pair's replay, as the `subscribed` ack reports it. */
export interface ReplayReport {
  channel: string;
  symbol: string;
  since: number;
  replayed: number;
  /** The seq of the first message the client gets after `since` (replayed or live); null: not known (composites). */
  first_seq: number | null;
  /** True when ticks after `since` will never arrive: seqs since+1 .. first_seq-1 (or all, when first_seq is null). */
  gap: boolean;
}

/** The client's last seq for a pair, or undefined when the frame gives none for it. */
export function sinceFor(since: Since, pair: Pair, rawSymbols: readonly string[]): number | undefined {
  const symbol = pair.entry!.symbol;
  const lookup = (table: Record<string, number> | undefined) => (table === undefined ? undefined : (table[symbol] ?? rawSymbols.map((r) => table[r]).find((v) => v !== undefined)));
  if (since.kind === 'all') return since.seq;
  if (since.kind === 'symbol') return lookup(since.seqs);
  return lookup(since.seqs[pair.channel.name]);
}

/** Sends the pair's ticks after `after` (the newest `max` of them) as JSON texts through `send`. */
export function replayPair(store: Store, pair: Pair, after: number, max: number, send: (text: string) => void): ReplayReport {
  const entry = pair.entry!;
  const { name } = pair.channel;
  const report = { channel: name, symbol: entry.symbol, since: after };
  // Composite frames carry a source count the ticks ring does not keep: those channels start live.
  if (COMPOSITE_CLASSES.has(entry.assetClass)) return { ...report, replayed: 0, first_seq: null, gap: true };
  const kind = pair.channel.kind === 'quotes' ? 'quote' : 'trade';
  const state = store.latest(entry.id);
  const lastSeq = state ? (kind === 'quote' ? state.quoteSeq : state.tradeSeq) : 0;
  const ticks = store.ticksSince(entry.id, kind, after, max);
  const nul = (v: number) => (Number.isNaN(v) ? null : v);
  for (const t of ticks) {
    send(
      kind === 'quote'
        ? quoteJson(name, entry.assetClass, entry.symbol, t[5]!, t[1]!, t[2]!, nul(t[3]!), nul(t[4]!), t[0]!)
        : tradeJson(name, entry.assetClass, entry.symbol, t[3]!, t[1]!, nul(t[2]!), t[0]!),
    );
  }
  // Nothing replayed: the next live message is the first the client gets.
  const firstSeq = ticks.length > 0 ? ticks[0]![kind === 'quote' ? 5 : 3]! : lastSeq + 1;
  return { ...report, replayed: ticks.length, first_seq: firstSeq, gap: firstSeq > after + 1 };
}

/**
 * Sends a pair's latest tick, marked `"snapshot":true`, through `send`; returns whether there was
 * one. Composite channels have none to send (their source count is not kept with the ticks).
 */
export function snapshotPair(store: Store, pair: Pair, send: (text: string) => void): boolean {
  const entry = pair.entry!;
  if (COMPOSITE_CLASSES.has(entry.assetClass)) return false;
  const state = store.latest(entry.id);
  const lastSeq = state ? (pair.channel.kind === 'quotes' ? state.quoteSeq : state.tradeSeq) : 0;
  if (lastSeq === 0) return false;
  let sent = false;
  replayPair(store, pair, lastSeq - 1, 1, (text) => {
    send(`${text.slice(0, -1)},"snapshot":true}`);
    sent = true;
  });
  return sent;
}
