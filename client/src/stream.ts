// The stream client: one WebSocket to mds that reconnects with jittered exponential backoff,
// restores its subscriptions resuming each pair with `since` from the last seq it saw (dropping
// what it already had, reporting what the server can no longer replay as a gap), notices a silent
// socket from the heartbeat interval, and hands out events by async iterator or callback.
import { backoffDelayMs, type BackoffOptions } from './backoff.ts';
import { MdsError, StreamClosedError, StreamRequestError, type StreamErrorCode } from './errors.ts';
import { EventQueue } from './event-queue.ts';
import type { Channel } from './generated.ts';
import { errorOf, type FetchLike } from './http.ts';
import { ResumeState, type SubscribeFrame } from './resume-state.ts';
import type { ConflatedMessage, LagMessage, QuoteMessage, ReadyFrame, SlowPolicy, StreamEvent, StatusMessage, StreamEventType, StreamLimits, Subscription, SubscriptionAck, TradeMessage } from './stream-types.ts';

/** A WebSocket class with the standard interface: the global one, or `ws`'s on Node 18-21. */
export type WebSocketConstructor = new (url: string) => object;

/** The part of a WebSocket the client uses. */
interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface StreamOptions {
  /** The stream URL with the key, e.g. `ws://127.0.0.1:8080/?apiKey=KEY` (MdsClient.stream() builds it). */
  url: string;
  /** The key, for finding out why a connection is refused (the URL carries it to the server). */
  apiKey?: string;
  /** Default: the global WebSocket (Bun, browsers, Node 22+); on Node 18-21 pass `ws`'s. */
  WebSocket?: WebSocketConstructor;
  /** Send each pair's latest tick when first subscribed (default true). */
  snapshot?: boolean;
  /**
   * What the server does when this client reads too slowly (`?slow=` on the URL): `conflate` (what
   * MdsClient.stream() asks for) sends each line's newest quote once it catches up, with a
   * `conflated` message; `disconnect` (the server's default) closes with 4008 and the client
   * reconnects and resumes. Unset: the URL's own `slow`, if any.
   */
  slow?: SlowPolicy;
  /** Reconnect delays (full jitter between half and all of an exponential ceiling). */
  backoff?: BackoffOptions;
  /** Give up after this many failed connection attempts in a row (default: never). */
  maxAttempts?: number;
  /** A connection with no frame for this many heartbeat intervals is dead: closed and replaced (default 3). */
  heartbeatTimeoutFactor?: number;
  /** A connection without its ready frame this long after it was opened is replaced (default 10 000 ms). */
  connectTimeoutMs?: number;
  /** For asking the server why a connection failed before it was ready (default: the global fetch). */
  fetch?: FetchLike;
  /** Jitter source (tests). */
  random?: () => number;
}

/** Channels and symbols of one subscribe or unsubscribe (symbols of one asset class; `*` for all). */
export interface SubscriptionRequest {
  channels: Channel | readonly Channel[];
  symbols: string | readonly string[];
}

interface Pending {
  action: 'subscribe' | 'unsubscribe';
  channels: string[];
  symbols: string[];
  resolve: (ack: SubscriptionAck) => void;
  reject: (error: Error) => void;
}

type Listener<T extends StreamEventType> = (event: Extract<StreamEvent, { type: T }>) => void;

/** The client's own close code: no frame within the heartbeat timeout (or no ready frame in time). */
export const CLOSE_SILENT = 4000;
/** The server's close for a key that no longer works: reconnecting cannot help. */
const CLOSE_KEY_INVALID = 4001;

const list = <T>(v: T | readonly T[]): T[] => (Array.isArray(v) ? [...(v as readonly T[])] : [v as T]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export class MdsStream implements AsyncIterable<StreamEvent> {
  private readonly options: StreamOptions;
  private readonly resume = new ResumeState();
  private socket: SocketLike | null = null;
  private state: 'idle' | 'connecting' | 'ready' | 'waiting' | 'closed' = 'idle';
  /** Failed attempts since the last ready connection. */
  private attempt = 0;
  private everReady = false;
  private limitsSeen: StreamLimits | null = null;
  private lastFrameMs = 0;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  /** Requests not yet answered, in the order they were made (sent again after a reconnect). */
  private readonly pending = new Map<number, Pending>();
  /** Ids of the frames that restored subscriptions on the current connection. */
  private readonly restoring = new Set<number>();
  private readonly consumers = new Set<EventQueue<StreamEvent>>();
  private readonly listeners = new Map<StreamEventType, Set<(event: StreamEvent) => void>>();
  /** Events before the first iterator or listener (a subscribe's snapshots come before its ack). */
  private early: StreamEvent[] | null = [];
  /** Reconnects, ticks dropped as already seen, gaps reported. */
  /** `conflated`: quotes the server dropped for newer ones while this client was backed up; `lagWarnings`: `lag` messages received. */
  readonly stats = { reconnects: 0, duplicates: 0, gaps: 0, conflated: 0, lagWarnings: 0 };

  constructor(options: StreamOptions) {
    this.options = options;
  }

  /** The limits of the current (or last) connection's ready frame. */
  get limits(): StreamLimits | null {
    return this.limitsSeen;
  }

  /** The pairs the server confirmed, restored on every reconnect. */
  subscriptions(): Subscription[] {
    return this.resume.subscriptions();
  }

  /** Opens the connection (subscribe and iteration do it too). */
  connect(): void {
    if (this.state === 'idle') this.open();
  }

  /**
   * Subscribes to every channel × symbol pair; resolves with the server's ack (its `subscriptions`
   * is the whole active set), rejects with a StreamRequestError when refused. Made while
   * disconnected, it is sent once the connection is back.
   */
  subscribe(request: SubscriptionRequest): Promise<SubscriptionAck> {
    return this.request('subscribe', request);
  }

  unsubscribe(request: SubscriptionRequest): Promise<SubscriptionAck> {
    return this.request('unsubscribe', request);
  }

  /** Calls `listener` for each event of the type; returns the function that removes it. */
  on<T extends StreamEventType>(type: T, listener: Listener<T>): () => void {
    this.early = null;
    const set = this.listeners.get(type) ?? new Set();
    const fn = listener as (event: StreamEvent) => void;
    set.add(fn);
    this.listeners.set(type, set);
    return () => set.delete(fn);
  }

  /**
   * Every event from now on (the first iterator also gets those since the stream was made). Ends
   * when the stream is closed; throws the error that ended it for good (e.g. a revoked key).
   */
  [Symbol.asyncIterator](): AsyncIterableIterator<StreamEvent> {
    const queue: EventQueue<StreamEvent> = new EventQueue(() => this.consumers.delete(queue));
    if (this.state === 'closed') queue.end();
    else {
      for (const event of this.early ?? []) queue.push(event);
      this.early = null;
      this.consumers.add(queue);
      this.connect();
    }
    return queue;
  }

  /** Closes the connection for good: pending requests are rejected and iterators end. */
  close(): void {
    this.finish(1000, 'closed by the client', null);
  }

  private request(action: 'subscribe' | 'unsubscribe', req: SubscriptionRequest): Promise<SubscriptionAck> {
    if (this.state === 'closed') return Promise.reject(new StreamClosedError('the stream is closed'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { action, channels: list(req.channels), symbols: list(req.symbols), resolve, reject });
      if (this.state === 'ready') this.sendPending(id);
      else this.connect();
    });
  }

  private sendPending(id: number): void {
    const p = this.pending.get(id)!;
    const frame: SubscribeFrame =
      p.action === 'subscribe' ? this.resume.subscribeFrame(p.channels, p.symbols, id, this.options.snapshot !== false) : { action: 'unsubscribe', channels: p.channels, symbols: p.symbols, id };
    this.send(frame);
  }

  private send(frame: SubscribeFrame): void {
    this.socket?.send(JSON.stringify(frame));
  }

  private open(): void {
    const Ctor = this.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (Ctor === undefined) {
      this.finish(1000, 'no WebSocket', new TypeError('no global WebSocket (Node 18-21): pass the WebSocket option, e.g. the ws package\'s'));
      return;
    }
    let socket: SocketLike;
    try {
      socket = new Ctor(this.socketUrl()) as SocketLike;
    } catch (err) {
      this.finish(1000, 'bad URL', err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.socket = socket;
    this.state = 'connecting';
    socket.onmessage = (ev) => {
      if (this.socket === socket) this.onFrame(ev.data);
    };
    socket.onclose = (ev) => {
      if (this.socket === socket) this.lost(ev.code, ev.reason);
    };
    // An error is followed by a close, which says what happened.
    socket.onerror = () => {};
    this.lastFrameMs = Date.now();
    this.watch(this.options.connectTimeoutMs ?? 10_000, 'no ready frame');
  }

  /** Replaces the connection when no frame came for `timeoutMs`. */
  private watch(timeoutMs: number, what: string): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    const check = () => {
      const idleMs = Date.now() - this.lastFrameMs;
      if (idleMs < timeoutMs) {
        this.watchdog = setTimeout(check, timeoutMs - idleMs);
        return;
      }
      this.watchdog = null;
      const socket = this.socket;
      if (socket === null) return;
      // The old socket may never finish its close handshake: it is let go, not waited for.
      try {
        socket.close(CLOSE_SILENT, 'silent');
      } catch {
        // already closing
      }
      this.lost(CLOSE_SILENT, `${what} within ${timeoutMs} ms`);
    };
    this.watchdog = setTimeout(check, timeoutMs);
  }

  private onFrame(data: unknown): void {
    this.lastFrameMs = Date.now();
    const text = typeof data === 'string' ? data : data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? new TextDecoder().decode(data as ArrayBuffer) : String(data);
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (!isObject(frame)) return;
    switch (frame.type) {
      case 'quote':
      case 'trade':
        return this.onTick(frame as unknown as QuoteMessage | TradeMessage);
      case 'status':
        return this.emit(frame as unknown as StatusMessage);
      case 'conflated':
        this.resume.onConflated((frame as unknown as ConflatedMessage).quotes);
        this.stats.conflated += (frame as unknown as ConflatedMessage).dropped;
        return this.emit(frame as unknown as ConflatedMessage);
      case 'lag':
        this.stats.lagWarnings++;
        return this.emit(frame as unknown as LagMessage);
      case 'heartbeat':
        return;
      case 'ready':
        return this.onReady(frame as unknown as ReadyFrame);
      case 'subscribed':
      case 'unsubscribed':
        return this.onAck(frame);
      case 'error':
        return this.onError(frame);
    }
  }

  private onTick(m: QuoteMessage | TradeMessage): void {
    const { deliver, gap } = this.resume.onTick(m);
    if (gap) {
      this.stats.gaps++;
      this.emit(gap);
    }
    if (deliver) this.emit(m);
    else this.stats.duplicates = this.resume.duplicates;
  }

  private onReady(frame: ReadyFrame): void {
    this.state = 'ready';
    this.attempt = 0;
    this.resume.onConnected();
    this.limitsSeen = frame.limits;
    this.watch((this.options.heartbeatTimeoutFactor ?? 3) * frame.limits.heartbeat_ms, 'no frame (not even a heartbeat)');
    const reconnect = this.everReady;
    this.everReady = true;
    if (reconnect) this.stats.reconnects++;
    this.emit({ type: 'connected', sessionId: frame.session_id, reconnect });
    // Restored first, then the requests still unanswered, in order: the server answers in order.
    const perFrame = Math.max(1, Math.min(1000, frame.limits.max_subscriptions));
    for (const f of this.resume.restoreFrames(perFrame, this.options.snapshot !== false, () => this.nextId++)) {
      this.restoring.add(f.id);
      this.send(f);
    }
    for (const id of this.pending.keys()) this.sendPending(id);
  }

  private onAck(frame: Record<string, unknown>): void {
    const ack = frame as unknown as SubscriptionAck & { id?: unknown; reason?: string; dropped?: { channel: Channel; symbol: string; message: string }[] };
    const id = typeof ack.id === 'number' ? ack.id : -1;
    for (const gap of this.resume.onReplay(ack.replay)) {
      this.stats.gaps++;
      this.emit(gap);
    }
    if (this.restoring.delete(id)) return;
    const p = this.pending.get(id);
    if (p) {
      this.pending.delete(id);
      this.resume.confirm(ack.subscriptions);
      p.resolve(ack);
      return;
    }
    if (ack.type === 'unsubscribed' && ack.dropped) {
      this.resume.drop(ack.dropped);
      this.emit({ type: 'dropped', reason: ack.reason ?? '', dropped: ack.dropped });
    }
  }

  private onError(frame: Record<string, unknown>): void {
    const code = frame.code as StreamErrorCode;
    const message = typeof frame.message === 'string' ? frame.message : '';
    const id = typeof frame.id === 'number' ? frame.id : -1;
    const p = this.pending.get(id);
    if (p) {
      this.pending.delete(id);
      p.reject(new StreamRequestError(code, message));
      return;
    }
    this.restoring.delete(id);
    this.emit({ type: 'error', code, message });
  }

  /** The connection ended without close(): try again after a backoff, unless it never can work. */
  private lost(code: number, reason: string): void {
    const socket = this.socket;
    if (socket) {
      socket.onmessage = socket.onclose = socket.onerror = null;
      this.socket = null;
    }
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.restoring.clear();
    if (this.state === 'closed') return;
    const wasReady = this.state === 'ready';
    if (code === CLOSE_KEY_INVALID) {
      this.finish(code, reason, new MdsError({ status: 401, message: reason || 'API key refused', requestId: null, retryAfterSec: null, url: this.httpUrl(), body: null }));
      return;
    }
    if (!wasReady) this.attempt++;
    if (this.options.maxAttempts !== undefined && this.attempt >= this.options.maxAttempts) {
      this.finish(code, reason, new Error(`could not connect to the stream in ${this.attempt} attempts (last close ${code} ${reason})`));
      return;
    }
    this.state = 'waiting';
    const delay = backoffDelayMs(wasReady ? 0 : this.attempt - 1, this.options.backoff, this.options.random);
    if (wasReady) {
      this.retry(code, reason, delay);
      return;
    }
    // Refused before it was ready: ask the server why (a browser cannot read a refused upgrade).
    void this.whyRefused().then((refusal) => {
      if (this.state !== 'waiting') return;
      if (refusal !== null && (refusal.status === 401 || refusal.status === 403)) this.finish(code, reason, refusal);
      else this.retry(code, reason, Math.max(delay, (refusal?.retryAfterSec ?? 0) * 1000));
    });
  }

  private retry(code: number, reason: string, delayMs: number): void {
    this.emit({ type: 'disconnected', code, reason, reconnectInMs: delayMs });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.state === 'waiting') this.open();
    }, delayMs);
  }

  /** The stream URL with the slow-consumer policy asked for. */
  private socketUrl(): string {
    if (this.options.slow === undefined) return this.options.url;
    const url = new URL(this.options.url);
    url.searchParams.set('slow', this.options.slow);
    return url.toString();
  }

  /** The stream URL as HTTP, without the key. */
  private httpUrl(): string {
    const url = new URL(this.options.url);
    url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
    url.searchParams.delete('apiKey');
    return url.toString();
  }

  /** The server's refusal of the key (401, 403, 429) as the stream URL answers a plain GET; null when it says nothing useful. */
  private async whyRefused(): Promise<MdsError | null> {
    const f = this.options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    if (f === undefined || this.options.apiKey === undefined) return null;
    try {
      const url = this.httpUrl();
      const res = await f(url, { method: 'GET', headers: { 'x-api-key': this.options.apiKey } });
      return res.status === 401 || res.status === 403 || res.status === 429 ? await errorOf(res, url) : null;
    } catch {
      return null;
    }
  }

  /** Ends the stream: no more reconnects, requests rejected, iterators ended (with the error, if any). */
  private finish(code: number, reason: string, error: Error | null): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    for (const t of [this.watchdog, this.retryTimer]) if (t !== null) clearTimeout(t);
    this.watchdog = this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onmessage = socket.onclose = socket.onerror = null;
      try {
        socket.close(1000, reason.slice(0, 120));
      } catch {
        // already closed
      }
    }
    for (const p of this.pending.values()) p.reject(error ?? new StreamClosedError('the stream was closed before the server answered'));
    this.pending.clear();
    this.emit({ type: 'disconnected', code, reason, reconnectInMs: null });
    for (const q of this.consumers) q.end(error ? { error } : undefined);
    this.consumers.clear();
    this.early = null;
  }

  private emit(event: StreamEvent): void {
    for (const fn of this.listeners.get(event.type) ?? []) {
      try {
        fn(event);
      } catch (err) {
        // A failing listener must not stop the stream: its error surfaces on its own.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
    for (const q of this.consumers) q.push(event);
    this.early?.push(event);
  }
}
