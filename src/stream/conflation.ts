// Conflation for connections that chose `?slow=conflate`: while such a connection is backed up it
// leaves its quotes topics (Bun would otherwise queue every publish for it), and the hub keeps the
// newest quote (and line status) of each of its lines here instead; when it drains, it gets one
// `conflated` frame and those newest frames, and joins the topics again. Trades are never kept here.
import type { Format } from './hub.ts';

type Payload = string | Uint8Array;

/** One backed-up connection's newest frames per line, while it is backed up. */
export interface Backlog {
  format: Format;
  /** `channel|symbol` → the newest quote frame (insertion order: the order lines first moved). */
  quotes: Map<string, Payload>;
  /** `channel|symbol` → the newest status frame of the line. */
  statuses: Map<string, Payload>;
  /** Quote frames offered since the connection backed up (the newest of each line among them is sent). */
  offered: number;
  /** When it backed up (service clock, Unix ms). */
  sinceMs: number;
  /** Its unsent bytes then: the bound for its trades counts from here. */
  heldAtBytes: number;
  /** The `channel|symbol` keys it watches (`channel|*` for a whole channel). */
  watching: string[];
}

/** Encodes a frame once per format, only if some backlog of that format wants it. */
export interface Encoded {
  json(): string;
  msgpack(): Uint8Array;
}

export class Conflation {
  private readonly byKey = new Map<string, Set<Backlog>>();
  /** Backed-up connections now: while 0, a tick costs one comparison. */
  size = 0;
  /** Quote frames kept back and never sent (replaced by a newer one of the same line), since start. */
  dropped = 0;

  /** Starts keeping the newest frames of `watching` (keys `channel|symbol` or `channel|*`) for a connection. */
  hold(format: Format, watching: string[], nowMs: number, bufferedBytes: number): Backlog {
    const backlog: Backlog = { format, quotes: new Map(), statuses: new Map(), offered: 0, sinceMs: nowMs, heldAtBytes: bufferedBytes, watching };
    for (const key of watching) {
      let set = this.byKey.get(key);
      if (set === undefined) this.byKey.set(key, (set = new Set()));
      set.add(backlog);
    }
    this.size++;
    return backlog;
  }

  /** Stops keeping frames for it; returns how many quotes it missed (offered but not kept as a line's newest). */
  release(backlog: Backlog): number {
    for (const key of backlog.watching) {
      const set = this.byKey.get(key);
      if (set === undefined) continue;
      set.delete(backlog);
      if (set.size === 0) this.byKey.delete(key);
    }
    this.size--;
    const missed = backlog.offered - backlog.quotes.size;
    this.dropped += missed;
    return missed;
  }

  /** A quote published on the line's topics: the newest of the line for every backlog watching it. */
  offerQuote(channel: string, symbol: string, frame: Encoded): void {
    this.offer(channel, symbol, frame, true);
  }

  /** A line's status change: kept as the line's newest status (not counted as a missed quote). */
  offerStatus(channel: string, symbol: string, frame: Encoded): void {
    this.offer(channel, symbol, frame, false);
  }

  private offer(channel: string, symbol: string, frame: Encoded, isQuote: boolean): void {
    const line = `${channel}|${symbol}`;
    const one = this.byKey.get(line);
    const all = this.byKey.get(`${channel}|*`);
    if (one === undefined && all === undefined) return;
    let json: string | null = null;
    let msgpack: Uint8Array | null = null;
    const keep = (b: Backlog) => {
      const payload = b.format === 'json' ? (json ??= frame.json()) : (msgpack ??= frame.msgpack());
      if (isQuote) {
        b.offered++;
        b.quotes.set(line, payload);
      } else b.statuses.set(line, payload);
    };
    if (one !== undefined) for (const b of one) keep(b);
    // A connection holds either the whole channel or single symbols of it, never both.
    if (all !== undefined) for (const b of all) keep(b);
  }
}
