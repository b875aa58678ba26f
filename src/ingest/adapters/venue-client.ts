// The shared venue client: runs one VenueProtocol over one WebSocket connection. It owns the
// connection's life (auth, batched subscriptions, pings, silence, reconnect with backoff) and the
// per-line bookkeeping (symbol mapping, sequence gaps, symbol errors); ticks go to a FeedSink.
import type { FeedHealth, FeedInstrument, FeedSink, FeedState } from '../../domain/feed.ts';
import type { VenueEvent, VenueFeedSettings, VenueParser, VenueProtocol } from './venue-protocol.ts';

export const DEFAULT_SILENT_MS = 30_000;
export const DEFAULT_BACKOFF_MIN_MS = 500;
export const DEFAULT_BACKOFF_MAX_MS = 30_000;
/** A parse error is logged at most this often; the rest are counted. */
export const PARSE_ERROR_LOG_EVERY_MS = 60_000;

/** Functions cannot cross into a worker: `nowMs` and `random` apply in-thread only; `log` lines cross as messages. */
export interface VenueClientOptions {
  log?: (line: string) => void;
  /** Epoch ms now (tests drive it); default Date.now. */
  nowMs?: () => number;
  /** 0..1, default Math.random: the backoff jitter. */
  random?: () => number;
}

/** Messages per second over the last few whole seconds. */
class RateMeter {
  private readonly buckets = new Float64Array(5);
  private second = 0;
  mark(nowMs: number): void {
    this.roll(nowMs);
    this.buckets[this.second % this.buckets.length]! += 1;
  }
  perSecond(nowMs: number): number {
    this.roll(nowMs);
    let sum = 0;
    // The current second is still filling: average over the full ones before it.
    for (let i = 1; i < this.buckets.length; i++) sum += this.buckets[(this.second - i + this.buckets.length * 2) % this.buckets.length]!;
    return sum / (this.buckets.length - 1);
  }
  private roll(nowMs: number): void {
    const s = Math.floor(nowMs / 1000);
    if (s === this.second) return;
    const steps = Math.min(s - this.second, this.buckets.length);
    for (let i = 1; i <= steps; i++) this.buckets[(s - steps + i) % this.buckets.length] = 0;
    this.second = s;
  }
}

export class VenueClient {
  readonly instruments: readonly FeedInstrument[];
  private readonly url: string;
  private readonly silentMs: number;
  private readonly backoffMinMs: number;
  private readonly backoffMaxMs: number;
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly indexOf = new Map<string, number>();
  /** Last sequence number per instrument and event kind (0 quote, 1 trade); NaN before the first. */
  private readonly lastSeq: Float64Array;

  private sink: FeedSink | null = null;
  private ws: WebSocket | null = null;
  private state: FeedState = 'stopped';
  private reason: string | null = null;
  private connectedSinceMs: number | null = null;
  private lastMessageMs: number | null = null;
  /** When the current connection attempt started or last heard from the venue (silence baseline). */
  private lastHeardMs = 0;
  private reconnects = 0;
  private parseErrors = 0;
  private sequenceGaps = 0;
  private lastParseLogMs = -Infinity;
  /** This connection's parser: a fresh one per connection where the venue keeps state between frames (book deltas). */
  private parse: VenueParser;
  private hadConnection = false;
  private attempt = 0;
  private requestId = 0;
  private readonly instrumentErrors: Record<string, string> = {};
  private readonly rate = new RateMeter();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private silenceTimer: ReturnType<typeof setInterval> | null = null;
  private sendQueue: string[] = [];
  private lastSendMs = -Infinity;
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  /** Called after every change of state, so a worker can report health at once. */
  onStateChange: (() => void) | null = null;

  constructor(
    readonly protocol: VenueProtocol,
    private readonly settings: VenueFeedSettings = {},
    options: VenueClientOptions = {},
  ) {
    this.instruments = settings.instruments ?? protocol.defaultInstruments;
    this.parse = protocol.parse;
    this.instruments.forEach((inst, i) => this.indexOf.set(inst.venueSymbol, i));
    this.url = settings.url ?? protocol.defaultUrl;
    this.silentMs = settings.silentMs ?? DEFAULT_SILENT_MS;
    this.backoffMinMs = settings.backoffMinMs ?? DEFAULT_BACKOFF_MIN_MS;
    this.backoffMaxMs = Math.max(this.backoffMinMs, settings.backoffMaxMs ?? DEFAULT_BACKOFF_MAX_MS);
    this.log = options.log ?? (() => {});
    this.now = options.nowMs ?? Date.now;
    this.random = options.random ?? Math.random;
    this.lastSeq = new Float64Array(this.instruments.length * 2).fill(NaN);
  }

  start(sink: FeedSink): void {
    if (this.sink !== null) return;
    this.sink = sink;
    this.connect();
  }

  stop(): void {
    this.setState('stopped', null);
    this.clearConnectionTimers();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.closeSocket();
  }

  health(): FeedHealth {
    const now = this.now();
    const h: FeedHealth = {
      id: this.protocol.id,
      state: this.state,
      connectedSinceMs: this.connectedSinceMs,
      lastMessageMs: this.lastMessageMs,
      messagesPerSecond: this.rate.perSecond(now),
      reconnects: this.reconnects,
      parseErrors: this.parseErrors,
      instruments: this.instruments.length,
      reason: this.reason,
    };
    if (this.sequenceGaps > 0) h.sequenceGaps = this.sequenceGaps;
    if (Object.keys(this.instrumentErrors).length > 0) h.instrumentErrors = { ...this.instrumentErrors };
    return h;
  }

  // --- connection ------------------------------------------------------------------------------

  private connect(): void {
    this.setState('connecting', this.reason);
    this.parse = this.protocol.createParser?.() ?? this.protocol.parse;
    const symbols = this.instruments.map((i) => i.venueSymbol);
    const url = this.protocol.connectUrl ? this.protocol.connectUrl(this.url, symbols) : this.url;
    this.lastHeardMs = this.now();
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch (err) {
      this.disconnected(`cannot connect to ${url}: ${(err as Error).message}`);
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.opened();
    ws.onmessage = (ev) => this.received(typeof ev.data === 'string' ? ev.data : new TextDecoder().decode(ev.data as ArrayBuffer));
    ws.onclose = (ev) => this.disconnected(`connection closed (code ${ev.code}${ev.reason ? `: ${ev.reason}` : ''})`);
    ws.onerror = () => {}; // a close follows every error; the close decides what happens next
    this.silenceTimer = setInterval(() => this.checkSilence(), Math.max(10, Math.min(1000, Math.floor(this.silentMs / 4))));
  }

  private opened(): void {
    if (this.hadConnection) this.reconnects++;
    this.hadConnection = true;
    this.connectedSinceMs = this.now();
    this.lastHeardMs = this.now();
    this.lastSeq.fill(NaN);
    const credentials = this.settings.credentials ?? {};
    for (const frame of this.protocol.authFrames?.(credentials) ?? []) this.send(frame);
    if (this.protocol.pingFrame && this.protocol.pingIntervalMs) {
      const frame = this.protocol.pingFrame();
      this.pingTimer = setInterval(() => this.send(frame), this.protocol.pingIntervalMs);
    }
    if (!this.protocol.awaitsAuth) this.subscribeAll();
  }

  private subscribeAll(): void {
    const symbols = this.instruments.map((i) => i.venueSymbol);
    const size = Math.max(1, this.protocol.maxSymbolsPerFrame);
    for (let i = 0; i < symbols.length; i += size) {
      for (const frame of this.protocol.subscribeFrames(symbols.slice(i, i + size), ++this.requestId)) this.send(frame);
    }
    this.setState('live', null);
  }

  /** Sends at most maxFramesPerSecond frames a second; the rest wait their turn. */
  private send(frame: string): void {
    this.sendQueue.push(frame);
    this.drain();
  }

  private drain(): void {
    if (this.sendTimer !== null) return;
    const spacingMs = 1000 / Math.max(1, this.protocol.maxFramesPerSecond);
    while (this.sendQueue.length > 0) {
      const wait = this.lastSendMs + spacingMs - performance.now();
      if (wait > 0) {
        this.sendTimer = setTimeout(() => {
          this.sendTimer = null;
          this.drain();
        }, Math.ceil(wait));
        return;
      }
      const ws = this.ws;
      if (ws === null || ws.readyState !== WebSocket.OPEN) {
        this.sendQueue = [];
        return;
      }
      ws.send(this.sendQueue.shift()!);
      this.lastSendMs = performance.now();
    }
  }

  private checkSilence(): void {
    const silentFor = this.now() - this.lastHeardMs;
    if (silentFor < this.silentMs) return;
    this.log(`feed ${this.protocol.id}: no message for ${silentFor} ms (limit ${this.silentMs} ms): lines stale, reconnecting`);
    this.setState('stale', `silent for ${silentFor} ms`);
    this.closeSocket();
    this.disconnected(`silent for ${silentFor} ms`);
  }

  /** The connection is gone (closed, failed to open, silent): lines go stale and a reconnect is scheduled. */
  private disconnected(reason: string): void {
    this.clearConnectionTimers();
    this.ws = null;
    this.connectedSinceMs = null;
    if (this.state === 'stopped' || this.state === 'failed') return;
    this.markAllStale();
    const delay = this.backoffDelayMs();
    this.attempt++;
    this.setState('backoff', `${reason}; reconnecting in ${delay} ms`);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.connect();
    }, delay);
    this.timers.add(t);
  }

  /** Exponential from backoffMinMs, capped at backoffMaxMs, with jitter in [half, full] of the step. */
  private backoffDelayMs(): number {
    const step = Math.min(this.backoffMaxMs, this.backoffMinMs * 2 ** Math.min(this.attempt, 30));
    return Math.round(step / 2 + (step / 2) * this.random());
  }

  private fail(reason: string): void {
    this.log(`feed ${this.protocol.id}: ${reason}; not reconnecting`);
    this.setState('failed', reason);
    this.clearConnectionTimers();
    this.markAllStale();
    this.closeSocket();
  }

  private closeSocket(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws === null) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close();
    } catch {
      // already closing
    }
  }

  private clearConnectionTimers(): void {
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    if (this.silenceTimer !== null) clearInterval(this.silenceTimer);
    if (this.sendTimer !== null) clearTimeout(this.sendTimer);
    this.pingTimer = this.silenceTimer = this.sendTimer = null;
    this.sendQueue = [];
  }

  private markAllStale(): void {
    for (let i = 0; i < this.instruments.length; i++) this.sink?.stale(i);
  }

  private setState(state: FeedState, reason: string | null): void {
    const changed = state !== this.state || reason !== this.reason;
    this.state = state;
    this.reason = reason;
    if (changed) this.onStateChange?.();
  }

  // --- frames ----------------------------------------------------------------------------------

  /** One text frame from the venue (public so in-thread tests and benches can drive parsing). */
  received(frame: string): void {
    const now = this.now();
    this.lastMessageMs = now;
    this.lastHeardMs = now;
    this.rate.mark(now);
    const out = this.parse(frame, now);
    if (!Array.isArray(out)) {
      this.parseErrors++;
      if (now - this.lastParseLogMs >= PARSE_ERROR_LOG_EVERY_MS) {
        this.lastParseLogMs = now;
        this.log(`feed ${this.protocol.id}: cannot parse a frame: ${out.message} (${this.parseErrors} so far; logged at most once a minute)`);
      }
      return;
    }
    for (const event of out) this.handle(event);
  }

  private handle(event: VenueEvent): void {
    const sink = this.sink;
    if (sink === null) return;
    switch (event.type) {
      case 'quote':
      case 'trade': {
        const i = this.indexOf.get(event.venueSymbol);
        if (i === undefined) return; // a symbol we did not ask for
        if (event.seq !== undefined && !this.inSequence(i, event.type === 'quote' ? 0 : 1, event.seq)) return;
        if (this.attempt > 0) this.attempt = 0; // a working connection resets the backoff
        if (event.type === 'quote') sink.quote(i, event.tsMs, event.bid, event.ask, event.bidSize, event.askSize);
        else sink.trade(i, event.tsMs, event.price, event.size);
        return;
      }
      case 'symbol-error': {
        const i = this.indexOf.get(event.venueSymbol);
        const symbol = i === undefined ? event.venueSymbol : this.instruments[i]!.symbol;
        this.instrumentErrors[symbol] = event.message;
        this.log(`feed ${this.protocol.id}: venue error for ${symbol}: ${event.message}`);
        if (i !== undefined) sink.stale(i);
        this.onStateChange?.();
        return;
      }
      case 'error':
        this.log(`feed ${this.protocol.id}: venue error: ${event.message}${event.fatal ? '; reconnecting' : ''}`);
        if (event.fatal) {
          this.closeSocket();
          this.disconnected(`venue error: ${event.message}`);
        }
        return;
      case 'auth':
        if (!event.ok) this.fail(`authentication failed: ${event.message}`);
        else if (this.protocol.awaitsAuth && this.state === 'connecting') this.subscribeAll();
        return;
      case 'ping':
        this.send(event.reply);
        return;
      case 'subscribed':
      case 'heartbeat':
        return;
    }
  }

  /** True if `seq` follows the last one; a gap marks the line stale until its next good update. */
  private inSequence(i: number, kind: 0 | 1, seq: number): boolean {
    const slot = i * 2 + kind;
    const last = this.lastSeq[slot]!;
    if (!Number.isNaN(last) && seq <= last) return false; // a repeat or an old message
    this.lastSeq[slot] = seq;
    if (Number.isNaN(last) || seq === last + 1) return true;
    this.sequenceGaps++;
    this.sink?.stale(i);
    return false;
  }
}
