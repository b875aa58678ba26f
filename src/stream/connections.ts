// WebSocket connections: the upgrade (key, format, per-key connection limit), the ready frame,
// subscribe/unsubscribe with acknowledgements and error frames, replay from the ticks ring, flood
// and slow-consumer protection, heartbeats.
import type { Server, ServerWebSocket, WebSocketHandler } from 'bun';
import type { Clock } from '../clock.ts';
import type { AuthResult } from '../auth/authenticator.ts';
import { classAccessDenied, marketDenied, type Account } from '../domain/account.ts';
import { COMPOSITE_CLASSES } from '../domain/asset-classes.ts';
import { ApiError } from '../domain/errors.ts';
import { normalizeSymbol } from '../domain/symbols.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Store } from '../store/index.ts';
import { VERSION } from '../version.ts';
import { HEARTBEAT_TOPIC, topicOf, type Format, type StreamHub } from './hub.ts';
import { packObject, quoteJson, tradeJson } from './messages.ts';
import { CHANNELS, errorFrame, parseChannel, parseClientFrame, type Channel, type ErrorCode, type SubscribeRequest } from './protocol.ts';

export interface StreamLimits {
  maxSubscriptions: number;
  maxConnectionsPerKey: number;
  /** Client frames allowed per 10 seconds before the connection is closed as abuse. */
  maxFramesPer10s: number;
  /** Unsent bytes after which a connection is closed as a slow consumer. */
  slowConsumerBytes: number;
  heartbeatMs: number;
  /** Ticks replayed per channel and symbol at most. */
  maxReplay: number;
}

export const DEFAULT_LIMITS: StreamLimits = {
  maxSubscriptions: 1000,
  maxConnectionsPerKey: 2000,
  maxFramesPer10s: 100,
  slowConsumerBytes: 1 << 20,
  heartbeatMs: 15_000,
  maxReplay: 5000,
};

export const CLOSE_SLOW_CONSUMER = 4008;
export const CLOSE_FLOOD = 4029;

interface Pair {
  channel: Channel;
  entry: SymbolEntry | null; // null: the whole channel ('*')
}

export interface ConnData {
  id: string;
  account: Account;
  format: Format;
  /** Active subscriptions: `channel|symbol` → pair. */
  subs: Map<string, Pair>;
  frames: number;
  windowStartMs: number;
}

export interface StreamDeps {
  store: Store;
  clock: Clock;
  hub: StreamHub;
  authenticate(key: string): AuthResult;
  limits?: Partial<StreamLimits>;
}

export function createStream(deps: StreamDeps) {
  const limits: StreamLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const open = new Set<ServerWebSocket<ConnData>>();
  const perKey = new Map<string, number>();
  let counter = 0;
  let timers: ReturnType<typeof setInterval>[] = [];

  const send = (ws: ServerWebSocket<ConnData>, frame: Record<string, unknown>) => {
    ws.send(ws.data.format === 'json' ? JSON.stringify(frame) : packObject(frame));
  };
  const fail = (ws: ServerWebSocket<ConnData>, code: ErrorCode, message: string, id: string | number | null) => send(ws, errorFrame(code, message, id));

  function refuse(status: number, message: string): Response {
    return new Response(JSON.stringify({ status, error: message, request_id: `ws-${++counter}` }), { status, headers: { 'content-type': 'application/json' } });
  }

  /** Upgrades `GET /?apiKey=KEY[&format=msgpack]`; answers a JSON error when it cannot. */
  function upgrade(req: Request, server: Server<ConnData>): Response | undefined {
    const url = new URL(req.url);
    const key = url.searchParams.get('apiKey') ?? req.headers.get('x-api-key');
    if (!key) return refuse(401, 'missing API key: connect to /?apiKey=<API_KEY>');
    const auth = deps.authenticate(key);
    if (!auth.ok) return refuse(401, auth.code === 'REVOKED_KEY' ? 'API key revoked' : 'invalid API key');
    const account = auth.account;
    const formatRaw = url.searchParams.get('format') ?? 'json';
    if (formatRaw !== 'json' && formatRaw !== 'msgpack') return refuse(400, `invalid format ${JSON.stringify(formatRaw.slice(0, 20))}: allowed values are json, msgpack`);
    const maxConnections = connectionLimit(account);
    if ((perKey.get(account.id) ?? 0) >= maxConnections) return refuse(429, `too many connections: at most ${maxConnections} per key`);
    const data: ConnData = { id: `s${(++counter).toString(36)}`, account, format: formatRaw, subs: new Map(), frames: 0, windowStartMs: deps.clock.nowMs() };
    if (server.upgrade(req, { data })) return undefined;
    return refuse(400, 'WebSocket upgrade failed: send a WebSocket handshake to this URL');
  }

  const connectionLimit = (account: Account) => Math.min(limits.maxConnectionsPerKey, account.plan.stream_connections);
  const subscriptionLimit = (account: Account) => Math.min(limits.maxSubscriptions, account.plan.stream_subscriptions);

  function active(ws: ServerWebSocket<ConnData>) {
    return [...ws.data.subs.values()].map((p) => ({ channel: p.channel.name, symbol: p.entry ? p.entry.symbol : '*' }));
  }

  /** Resolves every channel × symbol of a request, or says what is wrong (nothing changes then). */
  function resolvePairs(req: SubscribeRequest, account: Account): { pairs: Pair[] } | { code: ErrorCode; message: string } {
    const channels: Channel[] = [];
    for (const name of req.channels) {
      const channel = parseChannel(name);
      if (!channel) return { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(name.slice(0, 40))}: channels are ${CHANNELS.join(', ')}` };
      const denied = req.action === 'subscribe' ? classAccessDenied(account, channel.assetClass) : null;
      if (denied) return { code: 'forbidden', message: denied };
      channels.push(channel);
    }
    const pairs: Pair[] = [];
    for (const channel of channels) {
      for (const raw of req.symbols) {
        if (raw.trim() === '*') {
          if (req.action === 'subscribe' && channel.assetClass === 'stocks' && account.markets !== 'all') {
            return { code: 'forbidden', message: 'a whole stocks channel needs every market enabled: subscribe to symbols of your markets' };
          }
          pairs.push({ channel, entry: null });
          continue;
        }
        let symbol: string;
        try {
          symbol = normalizeSymbol(channel.assetClass, raw);
        } catch (err) {
          return { code: 'invalid_symbol', message: `${channel.name}: ${err instanceof ApiError ? err.message : 'invalid symbol'}` };
        }
        const entry = deps.store.registry.resolve(channel.assetClass, symbol);
        if (!entry) return { code: 'unknown_symbol', message: `unknown symbol ${JSON.stringify(symbol)} for ${channel.name} (send one frame per asset class)` };
        const denied = req.action === 'subscribe' && entry.assetClass === 'stocks' ? marketDenied(account, entry.market ?? '') : null;
        if (denied) return { code: 'forbidden', message: denied };
        pairs.push({ channel, entry });
      }
    }
    return { pairs };
  }

  function replay(ws: ServerWebSocket<ConnData>, pair: Pair, since: SubscribeRequest['since'], rawSymbols: string[]): number {
    const entry = pair.entry;
    // Composite frames carry a source count the ticks ring does not keep: those channels start live.
    if (since === null || !entry || COMPOSITE_CLASSES.has(entry.assetClass)) return 0;
    let after: number | undefined;
    if (typeof since === 'number') after = since;
    else after = since[entry.symbol] ?? rawSymbols.map((r) => since[r]).find((v) => v !== undefined);
    if (after === undefined) return 0;
    const kind = pair.channel.kind === 'quotes' ? 'quote' : 'trade';
    const ticks = deps.store.ticksSince(entry.id, kind, after, limits.maxReplay);
    const { name } = pair.channel;
    for (const t of ticks) {
      const nul = (v: number) => (Number.isNaN(v) ? null : v);
      const text =
        kind === 'quote'
          ? quoteJson(name, entry.assetClass, entry.symbol, t[5]!, t[1]!, t[2]!, nul(t[3]!), nul(t[4]!), t[0]!)
          : tradeJson(name, entry.assetClass, entry.symbol, t[3]!, t[1]!, nul(t[2]!), t[0]!);
      ws.send(ws.data.format === 'json' ? text : packObject(JSON.parse(text)));
    }
    return ticks.length;
  }

  function onRequest(ws: ServerWebSocket<ConnData>, req: SubscribeRequest): void {
    const resolved = resolvePairs(req, ws.data.account);
    if ('code' in resolved) return fail(ws, resolved.code, resolved.message, req.id);
    const subs = ws.data.subs;
    const fmt = ws.data.format;
    const keyOf = (p: Pair) => `${p.channel.name}|${p.entry ? p.entry.symbol : '*'}`;
    if (req.action === 'unsubscribe') {
      for (const pair of resolved.pairs) {
        if (subs.delete(keyOf(pair))) ws.unsubscribe(topicOf(fmt, pair.channel.name, pair.entry ? pair.entry.symbol : '*'));
      }
      return send(ws, { type: 'unsubscribed', ...(req.id !== null && { id: req.id }), subscriptions: active(ws) });
    }
    const fresh = resolved.pairs.filter((p) => !subs.has(keyOf(p)) && !(p.entry && subs.has(`${p.channel.name}|*`)));
    const unique = new Map(fresh.map((p) => [keyOf(p), p]));
    const maxSubscriptions = subscriptionLimit(ws.data.account);
    if (subs.size + unique.size > maxSubscriptions) {
      return fail(ws, 'too_many_subscriptions', `too many subscriptions: at most ${maxSubscriptions} channel × symbol pairs per connection (${subs.size} active)`, req.id);
    }
    let replayed = 0;
    for (const [key, pair] of unique) {
      if (!pair.entry) {
        // A whole channel replaces its single-symbol subscriptions (no duplicate deliveries).
        for (const [k, p] of subs) {
          if (p.channel.name === pair.channel.name) {
            subs.delete(k);
            ws.unsubscribe(topicOf(fmt, p.channel.name, p.entry!.symbol));
          }
        }
      }
      replayed += replay(ws, pair, req.since, req.symbols);
      subs.set(key, pair);
      ws.subscribe(topicOf(fmt, pair.channel.name, pair.entry ? pair.entry.symbol : '*'));
    }
    send(ws, { type: 'subscribed', ...(req.id !== null && { id: req.id }), replayed, subscriptions: active(ws) });
  }

  const websocket: WebSocketHandler<ConnData> = {
    idleTimeout: 60,
    sendPings: true,
    maxPayloadLength: 64 * 1024,
    backpressureLimit: 4 * limits.slowConsumerBytes,
    closeOnBackpressureLimit: true,
    open(ws) {
      open.add(ws);
      perKey.set(ws.data.account.id, (perKey.get(ws.data.account.id) ?? 0) + 1);
      ws.subscribe(HEARTBEAT_TOPIC[ws.data.format]);
      send(ws, {
        type: 'ready',
        session_id: ws.data.id,
        server_time: deps.clock.nowMs(),
        version: VERSION,
        format: ws.data.format,
        channels: CHANNELS,
        limits: {
          max_subscriptions: subscriptionLimit(ws.data.account),
          max_connections: connectionLimit(ws.data.account),
          max_frames_per_10s: limits.maxFramesPer10s,
          slow_consumer_bytes: limits.slowConsumerBytes,
          heartbeat_ms: limits.heartbeatMs,
          max_replay: limits.maxReplay,
        },
      });
    },
    message(ws, message) {
      const now = deps.clock.nowMs();
      if (now - ws.data.windowStartMs >= 10_000) {
        ws.data.windowStartMs = now;
        ws.data.frames = 0;
      }
      if (++ws.data.frames > limits.maxFramesPer10s) {
        fail(ws, 'rate_limited', `more than ${limits.maxFramesPer10s} frames in 10 seconds: closing`, null);
        ws.close(CLOSE_FLOOD, 'too many frames');
        return;
      }
      if (typeof message !== 'string') return fail(ws, 'bad_frame', 'send requests as JSON text frames', null);
      const parsed = parseClientFrame(message);
      if (!parsed.ok) return fail(ws, parsed.code, parsed.message, parsed.id);
      onRequest(ws, parsed.request);
    },
    close(ws) {
      open.delete(ws);
      const n = (perKey.get(ws.data.account.id) ?? 1) - 1;
      if (n <= 0) perKey.delete(ws.data.account.id);
      else perKey.set(ws.data.account.id, n);
    },
  };

  function sweepSlowConsumers(): void {
    for (const ws of open) {
      if (ws.getBufferedAmount() > limits.slowConsumerBytes) {
        ws.close(CLOSE_SLOW_CONSUMER, `slow consumer: more than ${limits.slowConsumerBytes} bytes unsent`);
      }
    }
  }

  return {
    upgrade,
    websocket,
    limits,
    get connections() {
      return open.size;
    },
    /** Active channel × symbol subscriptions over all connections. */
    get subscriptions() {
      let n = 0;
      for (const ws of open) n += ws.data.subs.size;
      return n;
    },
    start() {
      timers = [setInterval(() => deps.hub.heartbeat(), limits.heartbeatMs), setInterval(sweepSlowConsumers, 250)];
    },
    stop() {
      for (const t of timers) clearInterval(t);
      timers = [];
      for (const ws of open) ws.close(1001, 'server shutting down');
    },
  };
}

export type Stream = ReturnType<typeof createStream>;
