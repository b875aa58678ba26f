// One stream connection for the whole page (the typed client's MdsStream: it reconnects with
// backoff and resumes every pair with `since`), shared by the watchlist and the chart: each asks
// for the pairs it shows, and a pair stays subscribed while anyone still wants it.
import type { Channel } from '../../../client/src/generated.ts';
import type { MdsStream } from '../../../client/src/index.ts';
import type { QuoteMessage, StatusMessage, TradeMessage } from '../../../client/src/stream-types.ts';
import type { AssetClass } from './api.ts';

/** What a watcher of a pair is told: its ticks, and (on a quotes channel) its line's freshness changes. */
export type Tick = QuoteMessage | TradeMessage | StatusMessage;
type TickListener = (tick: Tick) => void;

export type LiveState =
  | { kind: 'connecting' }
  | { kind: 'live'; reconnects: number }
  | { kind: 'waiting'; code: number; reason: string; retryInMs: number }
  | { kind: 'closed'; code: number; reason: string };

const pairKey = (channel: string, symbol: string) => `${channel}|${symbol}`;

export class Live {
  private readonly listeners = new Map<string, Set<TickListener>>();
  private stateListeners = new Set<(s: LiveState) => void>();
  private current: LiveState = { kind: 'connecting' };

  constructor(private readonly stream: MdsStream) {
    stream.on('quote', (q) => this.dispatch(q));
    stream.on('trade', (t) => this.dispatch(t));
    stream.on('status', (s) => this.dispatch(s));
    stream.on('connected', () => this.setState({ kind: 'live', reconnects: stream.stats.reconnects }));
    stream.on('disconnected', (d) => {
      this.setState(d.reconnectInMs === null ? { kind: 'closed', code: d.code, reason: d.reason } : { kind: 'waiting', code: d.code, reason: d.reason, retryInMs: d.reconnectInMs });
    });
    stream.connect();
  }

  get state(): LiveState {
    return this.current;
  }

  onState(listener: (s: LiveState) => void): () => void {
    this.stateListeners.add(listener);
    listener(this.current);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Delivers the class's ticks of `symbol` (canonical) to `listener` until the returned function
   * is called. Rejects with the server's refusal (e.g. a class outside the key's plan).
   */
  async watch(cls: AssetClass, symbol: string, kinds: readonly ('quotes' | 'trades')[], listener: TickListener): Promise<() => void> {
    const channels = kinds.map((k) => `${cls}.${k}` as Channel);
    const fresh = channels.filter((c) => !this.listeners.get(pairKey(c, symbol))?.size);
    for (const c of channels) {
      const key = pairKey(c, symbol);
      let set = this.listeners.get(key);
      if (!set) this.listeners.set(key, (set = new Set()));
      set.add(listener);
    }
    const release = () => {
      const emptied: Channel[] = [];
      for (const c of channels) {
        const set = this.listeners.get(pairKey(c, symbol));
        set?.delete(listener);
        if (set && set.size === 0) {
          this.listeners.delete(pairKey(c, symbol));
          emptied.push(c);
        }
      }
      if (emptied.length > 0) this.stream.unsubscribe({ channels: emptied, symbols: [symbol] }).catch(() => {});
    };
    if (fresh.length > 0) {
      try {
        await this.stream.subscribe({ channels: fresh, symbols: [symbol] });
      } catch (err) {
        release();
        throw err;
      }
    }
    return release;
  }

  close(): void {
    this.stream.close();
  }

  private dispatch(tick: Tick): void {
    const set = this.listeners.get(pairKey(tick.channel, tick.symbol));
    if (set) for (const l of set) l(tick);
  }

  private setState(s: LiveState): void {
    this.current = s;
    for (const l of this.stateListeners) l(s);
  }
}
