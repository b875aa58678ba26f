// What the stream client keeps across connections: the subscriptions the server confirmed and the
// last seq seen per channel × symbol pair. From it come the frames that restore a connection
// (`since` per pair, `snapshot` for pairs never seen), and the verdict on each tick: new,
// duplicate (seq ≤ last seen: a replay overlapping what arrived before the cut), or after a gap.
import type { Channel } from './generated.ts';
import type { GapEvent, QuoteMessage, ReplayReport, Subscription, TradeMessage } from './stream-types.ts';

/** A subscribe frame as the server reads it. */
export interface SubscribeFrame {
  action: 'subscribe' | 'unsubscribe';
  channels: string[];
  symbols: string[];
  id: number;
  since?: Record<string, Record<string, number>>;
  snapshot?: true;
}

const pairKey = (channel: string, symbol: string) => `${channel}|${symbol}`;
/** The server's canonical form of what a user typed, as far as the client can tell (aliases aside). */
const canonical = (symbol: string) => symbol.trim().toUpperCase();

export class ResumeState {
  /** The active set the server last confirmed (`channel|symbol` → pair). */
  private readonly confirmed = new Map<string, Subscription>();
  private readonly lastSeq = new Map<string, number>();
  duplicates = 0;
  /** Quotes still to come after a `conflated` frame: their seq jumps are conflation, not gaps. */
  private conflatedLeft = 0;

  subscriptions(): Subscription[] {
    return [...this.confirmed.values()];
  }

  /** The pair's last seq seen, if any. */
  last(channel: string, symbol: string): number | undefined {
    return this.lastSeq.get(pairKey(channel, symbol));
  }

  /** Whether to deliver a tick, and the gap before it when its seq jumps. */
  onTick(m: QuoteMessage | TradeMessage): { deliver: boolean; gap: GapEvent | null } {
    const k = pairKey(m.channel, m.symbol);
    const last = this.lastSeq.get(k);
    if (last !== undefined && m.seq <= last) {
      this.duplicates++;
      return { deliver: false, gap: null };
    }
    this.lastSeq.set(k, m.seq);
    if (m.type === 'quote' && this.conflatedLeft > 0) {
      this.conflatedLeft--;
      return { deliver: true, gap: null };
    }
    const gap = last !== undefined && m.seq > last + 1 ? { type: 'gap' as const, channel: m.channel, symbol: m.symbol, from: last + 1, to: m.seq - 1 } : null;
    return { deliver: true, gap };
  }

  /**
   * The gaps a subscribe ack's replay reports name that no tick has shown yet (a pair whose replay
   * came up short but sent nothing, or whose first tick has not come). Replayed ticks arrive
   * before the ack, so most gaps were already found by onTick; the rest are found here.
   */
  onReplay(reports: readonly ReplayReport[] | undefined): GapEvent[] {
    const gaps: GapEvent[] = [];
    for (const r of reports ?? []) {
      // Composites are not replayed (first_seq null): their next tick's seq tells what was missed.
      if (r.first_seq === null) continue;
      const k = pairKey(r.channel, r.symbol);
      const last = this.lastSeq.get(k) ?? r.since;
      // The server's counter is behind ours (its data dir was replaced): follow it from here.
      if (r.first_seq <= r.since) {
        this.lastSeq.set(k, r.first_seq - 1);
        continue;
      }
      if (last < r.first_seq - 1) {
        gaps.push({ type: 'gap', channel: r.channel, symbol: r.symbol, from: last + 1, to: r.first_seq - 1 });
        this.lastSeq.set(k, r.first_seq - 1);
      }
    }
    return gaps;
  }

  /** A `conflated` frame: the next `quotes` quotes are each line's newest, skipping what was dropped. */
  onConflated(quotes: number): void {
    this.conflatedLeft = quotes;
  }

  /** A new connection: a conflation the last one announced ends with it. */
  onConnected(): void {
    this.conflatedLeft = 0;
  }

  /** The server's whole active set after a change the client asked for. */
  confirm(subscriptions: readonly Subscription[]): void {
    this.confirmed.clear();
    for (const s of subscriptions) this.confirmed.set(pairKey(s.channel, s.symbol), s);
    // Pairs no longer subscribed start afresh (a snapshot, not a replay) if subscribed again.
    for (const k of this.lastSeq.keys()) {
      const channel = k.slice(0, k.indexOf('|'));
      if (!this.confirmed.has(k) && !this.confirmed.has(pairKey(channel, '*'))) this.lastSeq.delete(k);
    }
  }

  /** Pairs the server dropped on its own (entitlements changed). */
  drop(pairs: readonly { channel: string; symbol: string }[]): void {
    for (const p of pairs) {
      this.confirmed.delete(pairKey(p.channel, p.symbol));
      this.lastSeq.delete(pairKey(p.channel, p.symbol));
    }
  }

  /** The `since` table of the named pairs with a seq seen, and whether some pair has none. */
  private sinceOf(channels: readonly string[], symbols: readonly string[]): { since: Record<string, Record<string, number>> | null; unseen: boolean } {
    const since: Record<string, Record<string, number>> = {};
    let unseen = false;
    let any = false;
    for (const channel of channels) {
      for (const raw of symbols) {
        const symbol = canonical(raw);
        if (symbol === '*') continue;
        const seq = this.lastSeq.get(pairKey(channel, symbol));
        if (seq === undefined) unseen = true;
        else {
          (since[channel] ??= {})[symbol] = seq;
          any = true;
        }
      }
    }
    return { since: any ? since : null, unseen };
  }

  /** A subscribe frame that resumes the pairs already seen and snapshots the others (when asked). */
  subscribeFrame(channels: readonly string[], symbols: readonly string[], id: number, snapshot: boolean): SubscribeFrame {
    const { since, unseen } = this.sinceOf(channels, symbols);
    return { action: 'subscribe', channels: [...channels], symbols: [...symbols], id, ...(since && { since }), ...(snapshot && unseen && { snapshot: true as const }) };
  }

  /**
   * The frames that restore the confirmed set on a new connection: per channel, its named symbols
   * (at most `perFrame` a frame) with `since`, and `*` on its own (the server replays named pairs only).
   */
  restoreFrames(perFrame: number, snapshot: boolean, nextId: () => number): SubscribeFrame[] {
    const byChannel = new Map<Channel, string[]>();
    for (const s of this.confirmed.values()) {
      const list = byChannel.get(s.channel) ?? [];
      list.push(s.symbol);
      byChannel.set(s.channel, list);
    }
    const frames: SubscribeFrame[] = [];
    for (const [channel, symbols] of byChannel) {
      if (symbols.includes('*')) frames.push({ action: 'subscribe', channels: [channel], symbols: ['*'], id: nextId() });
      const named = symbols.filter((s) => s !== '*');
      for (let i = 0; i < named.length; i += perFrame) frames.push(this.subscribeFrame([channel], named.slice(i, i + perFrame), nextId(), snapshot));
    }
    return frames;
  }
}
