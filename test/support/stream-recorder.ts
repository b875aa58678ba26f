// Records a stream client's events and, on a plain WebSocket of its own, every tick the server
// sends for the same pairs: tests cut the client's connection and check that each seq per pair
// reached the client exactly once, with the server's own message.
import { expect } from 'bun:test';
import type { MdsStream, QuoteMessage, StreamEvent, TradeMessage } from '../../client/src/index.ts';
import { until } from './cli.ts';

type Tick = QuoteMessage | TradeMessage;
const pairOf = (m: { channel: string; symbol: string }) => `${m.channel}|${m.symbol}`;

/** Every event of a stream, read by its async iterator. */
export class Recorder {
  readonly events: StreamEvent[] = [];
  readonly ticks = new Map<string, Tick[]>();
  error: unknown = null;
  readonly done: Promise<void>;

  constructor(stream: MdsStream) {
    this.done = (async () => {
      try {
        for await (const e of stream) {
          this.events.push(e);
          if (e.type === 'quote' || e.type === 'trade') {
            const list = this.ticks.get(pairOf(e)) ?? [];
            list.push(e);
            this.ticks.set(pairOf(e), list);
          }
        }
      } catch (err) {
        this.error = err;
      }
    })();
  }

  of<T extends StreamEvent['type']>(type: T): Extract<StreamEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);
  }

  lastSeq(pair: string): number {
    return this.ticks.get(pair)?.at(-1)?.seq ?? 0;
  }

  tickCount(): number {
    let n = 0;
    for (const list of this.ticks.values()) n += list.length;
    return n;
  }
}

/** A direct connection that keeps every tick of the pairs it subscribes to: what the server sent. */
export class Watcher {
  readonly ticks = new Map<string, Tick[]>();
  /** How the server closed the watcher's own connection (it too can be found slow), or null. */
  closed: { code: number; reason: string } | null = null;
  private closing = false;
  private acks = 0;
  private onAck: () => void = () => {};

  private constructor(private readonly ws: WebSocket) {
    ws.onclose = (ev) => {
      if (!this.closing) this.closed = { code: ev.code, reason: ev.reason };
    };
    ws.onmessage = (ev) => {
      const m = JSON.parse(String(ev.data)) as Tick | { type: string };
      if (m.type === 'subscribed') {
        this.acks++;
        this.onAck();
      }
      if (m.type !== 'quote' && m.type !== 'trade') return;
      const t = m as Tick;
      const list = this.ticks.get(pairOf(t)) ?? [];
      list.push(t);
      this.ticks.set(pairOf(t), list);
    };
  }

  /** Connects and subscribes; resolves once every subscription is acknowledged. */
  static async open(url: string, subscriptions: { channels: string[]; symbols: string[] }[]): Promise<Watcher> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error('watcher could not connect'));
    });
    const watcher = new Watcher(ws);
    const acked = new Promise<void>((resolve) => (watcher.onAck = () => watcher.acks === subscriptions.length && resolve()));
    for (const s of subscriptions) ws.send(JSON.stringify({ action: 'subscribe', ...s }));
    await acked;
    return watcher;
  }

  lastSeq(pair: string): number {
    return this.ticks.get(pair)?.at(-1)?.seq ?? 0;
  }

  close(): void {
    this.closing = true;
    this.ws.close();
  }
}

/**
 * Every pair's seqs reached the client exactly once, in order, without a hole (from its first to
 * its last), and each message is the one the watcher got for that seq.
 */
export async function expectExactlyOnce(client: Recorder, watcher: Watcher): Promise<void> {
  const pairs = [...client.ticks.keys()];
  await until(async () => {
    if (watcher.closed !== null) throw new Error(`the watcher's own connection was closed: ${JSON.stringify(watcher.closed)}`);
    return pairs.every((p) => watcher.lastSeq(p) >= client.lastSeq(p));
  }, 'the watcher to catch up with the client', 30_000);
  for (const pair of pairs) {
    const got = client.ticks.get(pair)!;
    const seqs = got.map((t) => t.seq);
    const first = seqs[0]!;
    expect({ pair, seqs }).toEqual({ pair, seqs: Array.from({ length: seqs.at(-1)! - first + 1 }, (_, i) => first + i) });
    // The snapshot may predate the watcher's subscription: compare from the watcher's first seq.
    const sent = watcher.ticks.get(pair) ?? [];
    const from = Math.max(first, sent[0]?.seq ?? Infinity);
    const strip = ({ snapshot: _, ...t }: Tick) => t;
    expect(got.filter((t) => t.seq >= from).map(strip)).toEqual(sent.filter((t) => t.seq >= from && t.seq <= seqs.at(-1)!));
  }
}
