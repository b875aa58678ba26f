// The shared venue client: runs one VenueProtocol over one WebSocket connection. It owns the
// connection's life (auth, batched subscriptions, keepalives, silence, reconnect with backoff) and
// the per-line bookkeeping (symbol mapping, sequence gaps, symbol errors); ticks go to a FeedSink.
//
// States (docs/feeds.md): connecting (dialing) → subscribing (open, nothing heard back yet) → live
// (the venue acknowledged a subscription or sent data); live → stale when nothing at all (data,
// heartbeat, ping, pong) came for silentMs although a sign of life was asked for at half of it:
// the connection is dead, so it is redialled, and the feed stays stale until a new connection is
// live. A connection that closes, or a dial that fails, is backoff until the next dial.
import type { FeedHealth, FeedInstrument, FeedSink, FeedState } from '../../domain/feed.ts';
import { RateMeter } from './rate-meter.ts';
import type { VenueEvent, VenueFeedSettings, VenueParser, VenueProtocol } from './venue-protocol.ts';
import { halves, SubscriptionBatches } from './venue-subscriptions.ts';

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

/** Why a socket that never opened failed: a refused upgrade names its HTTP status. */
export function dialFailure(url: string, errorMessage: string | null, code: number): string {
  const status = errorMessage?.match(/Expected 101 status code: (\d{3})/)?.[1];
  if (status !== undefined) return `the venue refused the WebSocket upgrade at ${url}: HTTP ${status}`;
  const detail = errorMessage?.replace(/^WebSocket connection to '[^']*' failed: /, '') ?? `code ${code}`;
  return `cannot connect to ${url}: ${detail}`;
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
  /** When the current dial started or the venue was last heard from (the silence baseline). */
  private lastHeardMs = 0;
  /** Whether a sign of life was asked for in the current quiet spell. */
  private probed = false;
  /** Whether the current socket has opened. */
  private isOpen = false;
  /** What the socket's error event said, for the close that follows it. */
  private socketError: string | null = null;
  /** Why the feed went stale, kept while it redials (the feed stays stale until live again). */
  private staleSince: string | null = null;
  private dials = 0;
  private parseErrors = 0;
  private sequenceGaps = 0;
  private lastParseLogMs = -Infinity;
  /** The last condition logged: each change of condition is logged once, not once per retry. */
  private lastLogged: string | null = null;
  /** This connection's parser: a fresh one per connection where the venue keeps state between frames (book deltas). */
  private parse: VenueParser;
  private attempt = 0;
  private requestId = 0;
  private readonly batches = new SubscriptionBatches();
  /** Refusals named by the frame being handled, acted on once the whole frame is read. */
  private readonly refusedNow = new Set<string>();
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
      // Every dial after the first, whether or not it opened.
      reconnects: Math.max(0, this.dials - 1),
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
    this.dials++;
    if (this.staleSince !== null) this.setState('stale', `${this.staleSince}; reconnecting`);
    else this.setState('connecting', this.dials > 1 ? this.reason?.replace(/; reconnecting in \d+ ms$/, '') ?? null : null);
    this.parse = this.protocol.createParser?.() ?? this.protocol.parse;
    const symbols = this.instruments.map((i) => i.venueSymbol);
    const url = this.protocol.connectUrl ? this.protocol.connectUrl(this.url, symbols) : this.url;
    this.lastHeardMs = this.now();
    this.probed = false;
    this.isOpen = false;
    this.socketError = null;
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
    ws.onerror = (ev) => {
      // A close follows every error; the close decides what happens next, with this message.
      this.socketError = (ev as ErrorEvent).message ?? null;
    };
    ws.onclose = (ev) => this.disconnected(this.isOpen ? `connection closed (code ${ev.code}${ev.reason ? `: ${ev.reason}` : ''})` : dialFailure(url, this.socketError, ev.code));
    // WebSocket pings (Binance pings every 20 s; the runtime answers) and pongs are signs of life.
    ws.addEventListener('ping', () => ws === this.ws && this.heard());
    ws.addEventListener('pong', () => ws === this.ws && this.heard());
    this.silenceTimer = setInterval(() => this.checkSilence(), Math.max(10, Math.min(1000, Math.floor(this.silentMs / 4))));
  }

  private opened(): void {
    this.isOpen = true;
    this.lastHeardMs = this.now();
    this.lastSeq.fill(NaN);
    this.batches.reset();
    if (this.staleSince === null) this.setState('subscribing', null);
    else this.setState('stale', `${this.staleSince}; connected again, waiting for the venue`);
    const credentials = this.settings.credentials ?? {};
    for (const frame of this.protocol.authFrames?.(credentials) ?? []) this.send(frame);
    if (this.protocol.pingFrame && this.protocol.pingIntervalMs) {
      const frame = this.protocol.pingFrame();
      this.pingTimer = setInterval(() => this.send(frame), this.protocol.pingIntervalMs);
    }
    if (!this.protocol.awaitsAuth) this.subscribeAll();
  }

  /** Batches of the venue's size; symbols the venue refused before go alone, so a refusal again costs nothing else. */
  private subscribeAll(): void {
    const symbols = this.instruments.map((i) => i.venueSymbol).filter((s) => !this.batches.refused.has(s));
    const size = Math.max(1, this.protocol.maxSymbolsPerFrame);
    for (let i = 0; i < symbols.length; i += size) this.subscribe(symbols.slice(i, i + size));
    for (const s of this.batches.refused) if (this.indexOf.has(s)) this.subscribe([s]);
  }

  private subscribe(venueSymbols: string[]): void {
    const id = ++this.requestId;
    this.batches.add(id, venueSymbols);
    for (const frame of this.protocol.subscribeFrames(venueSymbols, id)) this.send(frame);
  }

  /** The venue answered a subscription or sent data: the connection carries the feed. */
  private becameLive(): void {
    if (this.state === 'live' || !this.isOpen) return;
    this.attempt = 0; // a working connection resets the backoff
    this.staleSince = null;
    this.connectedSinceMs = this.now();
    this.note('live', `feed ${this.protocol.id}: live (${this.instruments.length} instruments)`);
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

  private heard(): void {
    const now = this.now();
    this.lastMessageMs = now;
    this.lastHeardMs = now;
    this.probed = false;
  }

  /**
   * Quiet for half the limit: ask for a sign of life (the venue's ping, else a WebSocket ping), so
   * a healthy quiet connection answers in time. Quiet for the whole limit: the connection is dead.
   */
  private checkSilence(): void {
    const silentFor = this.now() - this.lastHeardMs;
    if (silentFor >= this.silentMs) {
      if (!this.isOpen) {
        this.closeSocket();
        this.disconnected(`cannot connect to ${this.url}: no answer within ${this.silentMs} ms`);
        return;
      }
      this.wentSilent(silentFor);
      return;
    }
    if (this.isOpen && !this.probed && silentFor >= this.silentMs / 2) {
      this.probed = true;
      if (this.protocol.pingFrame) this.send(this.protocol.pingFrame());
      else {
        try {
          this.ws?.ping();
        } catch {
          // closing: the close event follows
        }
      }
    }
  }

  /** Nothing heard for the limit on an open connection: stale until a new connection is live. */
  private wentSilent(silentFor: number): void {
    this.note('stale', `feed ${this.protocol.id}: no message for ${silentFor} ms (limit ${this.silentMs} ms): lines stale, reconnecting`);
    this.staleSince = `silent for ${silentFor} ms`;
    this.closeSocket();
    this.dropConnection();
    this.redialLater((delay) => this.setState('stale', `${this.staleSince}; reconnecting in ${delay} ms`));
  }

  /** The connection is gone (closed, failed to open, no answer to the dial): backoff until the next dial. */
  private disconnected(reason: string): void {
    this.dropConnection();
    if (this.state === 'stopped' || this.state === 'failed') return;
    this.staleSince = null;
    this.note(`backoff: ${reason}`, `feed ${this.protocol.id}: ${reason}; reconnecting with backoff (logged again when this changes)`);
    this.redialLater((delay) => this.setState('backoff', `${reason}; reconnecting in ${delay} ms`));
  }

  private dropConnection(): void {
    this.clearConnectionTimers();
    this.ws = null;
    this.isOpen = false;
    this.connectedSinceMs = null;
    if (this.state !== 'stopped' && this.state !== 'failed') this.markAllStale();
  }

  private redialLater(announce: (delayMs: number) => void): void {
    const delay = this.backoffDelayMs();
    this.attempt++;
    announce(delay);
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
    this.note(`failed: ${reason}`, `feed ${this.protocol.id}: ${reason}; not reconnecting`);
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

  /** Logs a condition once: a retry that meets the same condition says nothing new. */
  private note(condition: string, line: string): void {
    if (condition === this.lastLogged) return;
    this.lastLogged = condition;
    this.log(line);
  }

  // --- frames ----------------------------------------------------------------------------------

  /** One text frame from the venue (public so in-thread tests and benches can drive parsing). */
  received(frame: string): void {
    this.heard();
    const now = this.lastHeardMs;
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
    if (this.refusedNow.size > 0) this.resubscribeAfterRefusals();
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
        this.becameLive();
        this.clearError(event.venueSymbol);
        if (event.type === 'quote') sink.quote(i, event.tsMs, event.bid, event.ask, event.bidSize, event.askSize);
        else sink.trade(i, event.tsMs, event.price, event.size);
        return;
      }
      case 'book-empty': {
        const i = this.indexOf.get(event.venueSymbol);
        if (i === undefined) return;
        this.becameLive();
        this.clearError(event.venueSymbol);
        sink.stale(i);
        return;
      }
      case 'subscribed':
        this.becameLive();
        for (const s of event.venueSymbols) this.clearError(s);
        return;
      case 'symbol-error':
        this.symbolError(event.venueSymbol, event.message);
        this.refusedNow.add(event.venueSymbol);
        return;
      case 'batch-refused':
        this.batchRefused(event.requestId, event.message);
        return;
      case 'error':
        this.log(`feed ${this.protocol.id}: venue error: ${event.message}${event.fatal ? '; reconnecting' : ''}`);
        if (event.fatal) {
          this.closeSocket();
          this.disconnected(`venue error: ${event.message}`);
        }
        return;
      case 'auth':
        if (!event.ok) this.fail(`authentication failed: ${event.message}`);
        else if (this.protocol.awaitsAuth && this.isOpen) this.subscribeAll();
        return;
      case 'ping':
        this.send(event.reply);
        return;
      case 'heartbeat':
        return;
    }
  }

  private symbolError(venueSymbol: string, message: string): void {
    const i = this.indexOf.get(venueSymbol);
    const symbol = i === undefined ? venueSymbol : this.instruments[i]!.symbol;
    if (this.instrumentErrors[symbol] !== message) this.log(`feed ${this.protocol.id}: venue error for ${symbol}: ${message}`);
    this.instrumentErrors[symbol] = message;
    if (i !== undefined) this.sink?.stale(i);
    this.onStateChange?.();
  }

  /** An error clears once its symbol is confirmed or ticks again. */
  private clearError(venueSymbol: string): void {
    this.batches.confirm(venueSymbol);
    const i = this.indexOf.get(venueSymbol);
    if (i === undefined) return;
    const symbol = this.instruments[i]!.symbol;
    if (!(symbol in this.instrumentErrors)) return;
    delete this.instrumentErrors[symbol];
    this.onStateChange?.();
  }

  /** One refusal costs only the refused symbols: the rest of their batches are subscribed again. */
  private resubscribeAfterRefusals(): void {
    const split = this.batches.refuse(this.refusedNow, this.protocol.refusesWholeBatch === true);
    this.refusedNow.clear();
    for (const rest of split.resubscribe) this.subscribe(rest);
  }

  /** A batch refused without a name: its halves are subscribed apart until the refused symbol stands alone. */
  private batchRefused(requestId: number, message: string): void {
    const batch = this.batches.take(requestId);
    if (batch === undefined) {
      this.log(`feed ${this.protocol.id}: venue error: ${message}`);
      return;
    }
    if (batch.length === 1) {
      this.symbolError(batch[0]!, message);
      this.batches.refuse(batch, false);
      return;
    }
    for (const half of halves(batch)) this.subscribe(half);
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
