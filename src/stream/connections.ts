// WebSocket connections: the upgrade (key, keyless limit per address, format, per-key connection
// limit), the ready frame, subscribe/unsubscribe with acknowledgements and error frames, replay
// from the ticks ring, key changes applied to open connections, flood and slow-consumer
// protection, heartbeats. Compatibility dialects (compat/) run on the same code: their sessions
// translate frames and call back here for keys, limits and subscriptions.
import type { Server, ServerWebSocket, WebSocketHandler } from 'bun';
import type { Clock } from '../clock.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { StreamBudgets, type BudgetStanding } from '../auth/stream-budget.ts';
import { classAccessDenied, type Account } from '../domain/account.ts';
import { ApiError } from '../domain/errors.ts';
import { normalizeSymbol } from '../domain/symbols.ts';
import type { Store } from '../store/index.ts';
import { VERSION } from '../version.ts';
import { channelsFor, pairDenied, type Pair } from './access.ts';
import { CLOSE_FLOOD, CLOSE_GOING_AWAY, CLOSE_KEY_INVALID, CLOSE_SLOW_CONSUMER } from '../domain/stream-close-codes.ts';
export { CLOSE_FLOOD, CLOSE_KEY_INVALID, CLOSE_SLOW_CONSUMER };
import { HEARTBEAT_TOPIC, topicOf, type Audience, type Format, type StreamHub } from './hub.ts';
import type { Backlog } from './conflation.ts';
import { createSlowConsumers, hardBufferLimit, SLOW_CONSUMER_CHECK_MS, SLOW_POLICIES, type SlowPolicy } from './slow-consumers.ts';
export { hardBufferLimit, SLOW_CONSUMER_CLOSE_WAIT_MS, type SlowPolicy } from './slow-consumers.ts';
import { packObject } from './messages.ts';
import { CHANNELS, errorFrame, frameSizeLimit, parseChannel, parseClientFrame, parseDialectChannel, type Channel, type ErrorCode, type SubscribeRequest } from './protocol.ts';
import { replayPair, sinceFor, snapshotPair, type ReplayReport } from './replay.ts';
import { sendStaleStatus } from './status.ts';
import { HeldRefusals, refusal } from './refusal.ts';
import { activeSubscriptions, applyKeyChanges } from './key-changes.ts';
import type { DialectContext, DialectSession, KeyOutcome, RequestOutcome } from './compat/session.ts';

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
  /**
   * How long a refusal for a spent budget (a key's, or an address's keyless limit) is held back
   * before the 429 goes out; 0 answers at once.
   */
  overBudgetDelayMs: number;
}

export const DEFAULT_LIMITS: StreamLimits = {
  maxSubscriptions: 1000,
  maxConnectionsPerKey: 2000,
  maxFramesPer10s: 100,
  slowConsumerBytes: 1 << 20,
  heartbeatMs: 15_000,
  maxReplay: 5000,
  overBudgetDelayMs: 1000,
};

/** Keyless refusals held back at once over all addresses; past these they are answered at once. */
const MAX_PARKED_KEYLESS = 64;

/** A connection's replay per 10 s, in units of `maxReplay` (one pair's worst case). */
export const REPLAY_WINDOWS_PER_10S = 4;
/** How often the budgets of keys gone quiet are forgotten. */
const BUDGET_SWEEP_MS = 10_000;
/** Whole seconds until a budget's window ends (at least 1), for Retry-After and messages. */
const retryAfterS = (standing: BudgetStanding, nowMs: number) => Math.max(1, Math.ceil((standing.resetMs - nowMs) / 1000));
export interface ConnData {
  id: string;
  account: Account;
  /** The native format, or for a dialect's connection its audience (its topics' prefix). */
  format: Audience;
  /** Active subscriptions: `channel|symbol` → pair. */
  subs: Map<string, Pair>;
  frames: number;
  windowStartMs: number;
  /** The key's slot in the stream budgets (-1: no key yet, or a refused connection). */
  budgetSlot: number;
  /** Longest text frame parsed for this key (frameSizeLimit of its subscription limit); longer ones are refused unread. */
  maxFrameChars: number;
  /** Ticks this connection may still have replayed in the current 10-second window. */
  replayLeft: number;
  /** Sweeps since the connection was found to be a slow consumer (null: it is not one). */
  slowSweeps: number | null;
  /**
   * Set on a browser's connection whose key was refused: a browser cannot read the status of a
   * refused upgrade, so it is accepted only to carry the error frame and the close code.
   */
  refused: RefusedKey | null;
  /** A compatibility dialect's connection: it speaks the vendor's frames (null: native). */
  session: DialectSession | null;
  slow: SlowPolicy;
  /** A backed-up `conflate` connection's newest quotes, kept off its quotes topics (null: not backed up). */
  backlog: Backlog | null;
  /** Whether it ever backed up (logged once per connection). */
  hasConflated: boolean;
  /** When the checks first saw it falling behind (null: it is not), and whether its `lag` warning of this episode went out. */
  lagSinceMs: number | null;
  lagWarned: boolean;
  /**
   * A dialect's connection: the client's address at the upgrade (behind a trusted proxy, the one it
   * forwarded), which its key check after the upgrade counts against; null for native connections.
   */
  address: string | null;
}

/** Why a browser's connection is closed right after it opens. */
interface RefusedKey {
  closeCode: number;
  code: ErrorCode;
  message: string;
}

/** Stands in for the account of a refused connection, which never subscribes to anything. */
const NO_ACCOUNT: Account = {
  id: '',
  plan: { name: '', description: '', classes: [], quota: 0, quota_window_days: 30, per_minute: 0, stream_connections: 0, stream_subscriptions: 0, addons: [] },
  markets: new Set(),
  addons: new Set(),
  createdMs: 0,
};

export interface StreamDeps {
  store: Store;
  clock: Clock;
  hub: StreamHub;
  auth: Authenticator;
  limits?: Partial<StreamLimits>;
  /** The client address of an upgrade request (behind trusted proxies, the forwarded one); absent: the socket's peer. */
  clientAddress?: (req: Request) => string | undefined;
  /** Connection events worth an operator's eye (closed as slow consumer, key revoked); never a secret. */
  log?: (line: string) => void;
}

/** Close codes by the reason /metrics names them with (a bounded label); any other code is `other`. */
const CLOSE_REASONS: ReadonlyMap<number, string> = new Map([
  [1000, 'normal'],
  [1001, 'going_away'],
  [1005, 'no_status'],
  [1006, 'abnormal'],
  [CLOSE_KEY_INVALID, 'key_invalid'],
  [CLOSE_SLOW_CONSUMER, 'slow_consumer'],
  [CLOSE_FLOOD, 'flood'],
]);

/** What the stream counts for /metrics: plain numbers, read at scrape time. */
export interface StreamCounts {
  /** Connections accepted (ready frame sent). */
  opened: number;
  /** Upgrades refused, by HTTP status (browsers' refused keys count as 401 or 429). */
  refused: Map<number, number>;
  /** Accepted connections closed, by reason (see CLOSE_REASONS). */
  closed: Map<string, number>;
  /** Frames received from clients. */
  framesIn: number;
  /** Frames sent to single connections (ready, acknowledgements, errors, replays, snapshots). */
  framesOut: number;
  /** Their payload bytes (text frames counted by length: the frames are ASCII JSON but for quoted input). */
  bytesOut: number;
  /** Times a `conflate` connection backed up and was held off its quotes topics. */
  conflations: number;
  /** `lag` warnings sent. */
  lagWarnings: number;
}

const countIn = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

export function createStream(deps: StreamDeps) {
  const limits: StreamLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const open = new Set<ServerWebSocket<ConnData>>();
  const perKey = new Map<string, number>();
  const budgets = new StreamBudgets(deps.clock);
  const heldBack = new HeldRefusals(limits.overBudgetDelayMs);
  /** Keyless refusals held back now (over all addresses). */
  let parkedKeyless = 0;
  let counter = 0;
  let timers: ReturnType<typeof setInterval>[] = [];
  const log = deps.log ?? (() => {});
  const addressOf = (req: Request, server: Server<ConnData>): string => (deps.clientAddress ? deps.clientAddress(req) : server.requestIP(req)?.address) ?? 'unknown';
  const counts: StreamCounts = { opened: 0, refused: new Map(), closed: new Map(), framesIn: 0, framesOut: 0, bytesOut: 0, conflations: 0, lagWarnings: 0 };

  /** Sends one frame to one connection, counted. */
  const sendRaw = (ws: ServerWebSocket<ConnData>, payload: string | Uint8Array) => {
    counts.framesOut++;
    counts.bytesOut += payload.length;
    ws.send(payload);
  };
  const send = (ws: ServerWebSocket<ConnData>, frame: Record<string, unknown>) => {
    if (ws.data.session !== null) return ws.data.session.notice(ws, frame);
    sendRaw(ws, ws.data.format === 'json' ? JSON.stringify(frame) : packObject(frame));
  };
  const refuse = (status: number, message: string, rate?: Parameters<typeof refusal>[2], nowMs?: number) => {
    countIn(counts.refused, status);
    return refusal(status, message, rate, nowMs);
  };
  const fail = (ws: ServerWebSocket<ConnData>, code: ErrorCode, message: string, id: string | number | null) => send(ws, errorFrame(code, message, id));

  /**
   * Upgrades `GET /?apiKey=KEY[&format=msgpack]` (or the key in `x-api-key`, which wins, as on
   * REST); answers a JSON error when it cannot. Without a valid key, the client address is limited
   * by the server's one keyless limiter, shared with REST.
   */
  function upgrade(req: Request, server: Server<ConnData>): Response | Promise<Response> | undefined {
    const url = new URL(req.url);
    const key = req.headers.get('x-api-key') ?? url.searchParams.get('apiKey');
    const auth = key ? deps.auth.authenticate(key) : null;
    const formatRaw = url.searchParams.get('format') ?? 'json';
    const format: Format = formatRaw === 'msgpack' ? 'msgpack' : 'json';
    if (auth === null || !auth.ok) {
      const limiter = deps.auth.anonymous;
      const state = limiter.take(addressOf(req, server));
      const rate = { limit: limiter.limit, remaining: state.remaining, resetMs: state.resetMs };
      const status = !state.allowed ? 429 : auth !== null && auth.code === 'PLAN_MISSING' ? 403 : 401;
      const message = !state.allowed
        ? 'rate limit exceeded'
        : auth === null
          ? 'missing API key: connect to /?apiKey=<API_KEY> or send the x-api-key header'
          : (auth.message ?? (auth.code === 'REVOKED_KEY' ? 'API key revoked' : 'invalid API key'));
      // Browsers send Origin on every WebSocket handshake and cannot see a refused upgrade's status
      // (the page gets close code 1006 and nothing else): they get the error as a frame and a close code.
      if (req.headers.get('origin') !== null) {
        const refused: RefusedKey = status === 429 ? { closeCode: CLOSE_FLOOD, code: 'rate_limited', message } : { closeCode: CLOSE_KEY_INVALID, code: 'unauthorized', message };
        const data: ConnData = { id: `s${(++counter).toString(36)}`, account: NO_ACCOUNT, format, subs: new Map(), frames: 0, windowStartMs: 0, budgetSlot: -1, maxFrameChars: 0, replayLeft: 0, slowSweeps: null, refused, session: null, slow: 'disconnect', backlog: null, hasConflated: false, lagSinceMs: null, lagWarned: false, address: null };
        if (server.upgrade(req, { data })) {
          countIn(counts.refused, status);
          return undefined;
        }
      }
      const response = refuse(status, message, rate, status === 429 ? deps.clock.nowMs() : undefined);
      if (status !== 429 || parkedKeyless >= MAX_PARKED_KEYLESS) return response;
      parkedKeyless++;
      return heldBack.hold(response, () => parkedKeyless--);
    }
    const account = auth.account;
    // Every attempt of a key counts against its stream budget, whatever comes of it, so reconnecting
    // cannot reset what a connection may do; a budget's refusal carries that budget's headers.
    const slot = budgets.slotOf(account);
    const connects = budgets.takeConnect(slot);
    if (connects !== null) return refuseOverBudget(slot, `too many connection attempts for this key: at most ${connects.limit} per minute on its plan (${account.plan.name})`, connects);
    const frames = budgets.frameStanding(slot);
    if (frames.remaining === 0) return refuseOverBudget(slot, `this key has used its stream frames: at most ${frames.limit} client frames per 10 s over all its connections on its plan (${account.plan.name})`, frames);
    // Other refusals of a valid key carry where the key stands (not counted: no call was served), as REST errors do.
    const keyRate = () => deps.auth.peek(account);
    if (formatRaw !== 'json' && formatRaw !== 'msgpack') return refuse(400, `invalid format ${JSON.stringify(formatRaw.slice(0, 20))}: allowed values are json, msgpack`, keyRate());
    const slowRaw = url.searchParams.get('slow') ?? 'disconnect';
    if (!(SLOW_POLICIES as readonly string[]).includes(slowRaw)) return refuse(400, `invalid slow ${JSON.stringify(slowRaw.slice(0, 20))}: allowed values are ${SLOW_POLICIES.join(', ')} (what happens when the connection cannot keep up)`, keyRate());
    const slow = slowRaw as SlowPolicy;
    const maxConnections = connectionLimit(account);
    if ((perKey.get(account.id) ?? 0) >= maxConnections) return refuse(429, `too many connections: at most ${maxConnections} per key`, keyRate());
    const data: ConnData = { id: `s${(++counter).toString(36)}`, account, format, subs: new Map(), frames: 0, windowStartMs: deps.clock.nowMs(), budgetSlot: slot, maxFrameChars: frameSizeLimit(subscriptionLimit(account)), replayLeft: replayBudget(), slowSweeps: null, refused: null, session: null, slow, backlog: null, hasConflated: false, lagSinceMs: null, lagWarned: false, address: null };
    if (server.upgrade(req, { data })) return undefined;
    return refuse(400, 'WebSocket upgrade failed: send a WebSocket handshake to this URL');
  }

  /** A key over one of its stream budgets: 429 with the wait in Retry-After and the message, held back when it may be. */
  function refuseOverBudget(slot: number, message: string, standing: BudgetStanding): Response | Promise<Response> {
    const now = deps.clock.nowMs();
    const response = refuse(429, `${message}; retry in ${retryAfterS(standing, now)} s`, standing, now);
    if (!budgets.park(slot)) return response;
    return heldBack.hold(response, () => budgets.unpark(slot));
  }

  /**
   * Upgrades a compatibility dialect's connection: the key comes later, in the dialect's auth
   * frame (checkKey), and the connection counts under its key once admitted.
   */
  function upgradeDialect(req: Request, server: Server<ConnData>, session: DialectSession): Response | undefined {
    const data: ConnData = { id: `s${(++counter).toString(36)}`, account: NO_ACCOUNT, format: session.audience, subs: new Map(), frames: 0, windowStartMs: deps.clock.nowMs(), budgetSlot: -1, maxFrameChars: 0, replayLeft: 0, slowSweeps: null, refused: null, session, slow: 'disconnect', backlog: null, hasConflated: false, lagSinceMs: null, lagWarned: false, address: addressOf(req, server) };
    if (server.upgrade(req, { data })) return undefined;
    return refusal(400, 'WebSocket upgrade failed: send a WebSocket handshake to this URL');
  }

  const dialectContext: DialectContext = {
    checkKey(ws, key): KeyOutcome {
      const auth = deps.auth.authenticate(key);
      if (auth.ok) return auth;
      // As a refused upgrade: a bad key costs the address one call of the keyless limiter.
      const state = deps.auth.anonymous.take(ws.data.address ?? 'unknown');
      if (!state.allowed) return { ok: false, rateLimited: true, message: 'rate limit exceeded' };
      return { ok: false, rateLimited: false, message: auth.message ?? (auth.code === 'REVOKED_KEY' ? 'API key revoked' : auth.code === 'PLAN_MISSING' ? 'plan not offered by this server' : 'invalid API key') };
    },
    admit(ws, account) {
      if (open.has(ws)) return true;
      if ((perKey.get(account.id) ?? 0) >= connectionLimit(account)) return false;
      ws.data.account = account;
      ws.data.replayLeft = replayBudget();
      // Its frames count against the key's budget from now on (its upgrade came before the key).
      ws.data.budgetSlot = budgets.slotOf(account);
      budgets.hold(ws.data.budgetSlot);
      open.add(ws);
      counts.opened++;
      perKey.set(account.id, (perKey.get(account.id) ?? 0) + 1);
      deps.hub.dialectConnections++;
      return true;
    },
    request(ws, req): RequestOutcome {
      if (!open.has(ws)) return { ok: false, code: 'unauthorized', message: 'not authenticated' };
      const frame = applyRequest(ws, req);
      return frame.type === 'error' ? { ok: false, code: frame.code as ErrorCode, message: String(frame.message) } : { ok: true };
    },
  };

  /**
   * Replayed ticks a connection may have per 10-second window: a frame's replay costs a store read
   * and an encoding per tick, so unsubscribing and resubscribing with `since` must not multiply it.
   */
  const replayBudget = () => REPLAY_WINDOWS_PER_10S * limits.maxReplay;
  const connectionLimit = (account: Account) => Math.min(limits.maxConnectionsPerKey, account.plan.stream_connections);
  const subscriptionLimit = (account: Account) => Math.min(limits.maxSubscriptions, account.plan.stream_subscriptions);

  const active = activeSubscriptions;

  /** Resolves every channel × symbol of a request, or says what is wrong (nothing changes then). */
  function resolvePairs(req: SubscribeRequest, account: Account, isDialect: boolean): { pairs: Pair[] } | { code: ErrorCode; message: string } {
    // Before any work: a frame may name no more pairs than the connection may hold, so its cost is
    // bounded by what it could change (the lists are deduplicated by the parser).
    const maxPairs = subscriptionLimit(account);
    const named = req.channels.length * req.symbols.length;
    if (named > maxPairs) {
      return { code: 'too_many_subscriptions', message: `too many pairs in one frame: ${req.channels.length} × ${req.symbols.length} = ${named} channel × symbol pairs (after removing repeats); at most ${maxPairs} per frame, the subscription limit` };
    }
    const channels: Channel[] = [];
    for (const name of req.channels) {
      const channel = parseChannel(name) ?? (isDialect ? parseDialectChannel(name) : null);
      if (!channel) return { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(name.slice(0, 40))}: channels are ${CHANNELS.join(', ')}` };
      // The class first, as on REST: a class outside the plan is named before any symbol problem.
      const denied = req.action === 'subscribe' ? classAccessDenied(account, channel.assetClass) : null;
      if (denied) return { code: 'forbidden', message: denied };
      channels.push(channel);
    }
    const pairs: Pair[] = [];
    for (const channel of channels) {
      for (const raw of req.symbols) {
        if (raw.trim() === '*') {
          const denied = req.action === 'subscribe' ? pairDenied(account, channel, null) : null;
          if (denied) return { code: 'forbidden', message: denied };
          pairs.push({ channel, entry: null });
          continue;
        }
        let symbol: string;
        try {
          symbol = normalizeSymbol(channel.assetClass, raw);
        } catch (err) {
          // A name of allowed characters that no symbol of the class has is unknown, as on REST (404 there).
          if (err instanceof ApiError && err.status === 404) return { code: 'unknown_symbol', message: `unknown symbol ${JSON.stringify(raw.trim().toUpperCase())} for ${channel.name} (send one frame per asset class)` };
          return { code: 'invalid_symbol', message: `${channel.name}: ${err instanceof ApiError ? err.message : 'invalid symbol'}` };
        }
        const entry = deps.store.registry.resolve(channel.assetClass, symbol);
        if (!entry) return { code: 'unknown_symbol', message: `unknown symbol ${JSON.stringify(symbol)} for ${channel.name} (send one frame per asset class)` };
        const denied = req.action === 'subscribe' ? pairDenied(account, channel, entry) : null;
        if (denied) return { code: 'forbidden', message: denied };
        pairs.push({ channel, entry });
      }
    }
    return { pairs };
  }

  function onRequest(ws: ServerWebSocket<ConnData>, req: SubscribeRequest): void {
    const frame = applyRequest(ws, req);
    send(ws, frame.type === 'error' ? frame : { ...frame, subscriptions: active(ws) });
  }

  /** Applies a request; returns its acknowledgement (without the subscription list) or its error frame. */
  function applyRequest(ws: ServerWebSocket<ConnData>, req: SubscribeRequest): Record<string, unknown> {
    const resolved = resolvePairs(req, ws.data.account, ws.data.session !== null);
    if ('code' in resolved) return errorFrame(resolved.code, resolved.message, req.id);
    const subs = ws.data.subs;
    const fmt = ws.data.format;
    const keyOf = (p: Pair) => `${p.channel.name}|${p.entry ? p.entry.symbol : '*'}`;
    if (req.action === 'unsubscribe') {
      for (const pair of resolved.pairs) {
        if (subs.delete(keyOf(pair))) ws.unsubscribe(topicOf(fmt, pair.channel.name, pair.entry ? pair.entry.symbol : '*'));
      }
      return { type: 'unsubscribed', ...(req.id !== null && { id: req.id }) };
    }
    const fresh = resolved.pairs.filter((p) => !subs.has(keyOf(p)) && !(p.entry && subs.has(`${p.channel.name}|*`)));
    const unique = new Map(fresh.map((p) => [keyOf(p), p]));
    const maxSubscriptions = subscriptionLimit(ws.data.account);
    if (subs.size + unique.size > maxSubscriptions) {
      return errorFrame('too_many_subscriptions', `too many subscriptions: at most ${maxSubscriptions} channel × symbol pairs per connection (${subs.size} active)`, req.id);
    }
    let replayed = 0;
    let snapshots = 0;
    const replay: ReplayReport[] = [];
    const sendText = (text: string) => sendRaw(ws, fmt === 'json' ? text : packObject(JSON.parse(text)));
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
      // Replayed and subscribed in one turn of the event loop: no live tick can fall between them.
      const after = req.since !== null && pair.entry ? sinceFor(req.since, pair, req.symbols) : undefined;
      if (after !== undefined) {
        // Past the connection's budget a pair gets what is left (its report says gap: true).
        const report = replayPair(deps.store, pair, after, Math.min(limits.maxReplay, ws.data.replayLeft), sendText);
        ws.data.replayLeft -= report.replayed;
        replayed += report.replayed;
        replay.push(report);
      } else if (req.snapshot && pair.entry && snapshotPair(deps.store, pair, sendText)) {
        snapshots++;
      }
      // A line with no live source says so at once (status.ts), so silence is never taken for a quiet market.
      sendStaleStatus(deps.store, pair, ws.data.session === null ? sendText : (text) => ws.data.session!.notice(ws, JSON.parse(text)));
      subs.set(key, pair);
      ws.subscribe(topicOf(fmt, pair.channel.name, pair.entry ? pair.entry.symbol : '*'));
    }
    return { type: 'subscribed', ...(req.id !== null && { id: req.id }), replayed, ...(req.since !== null && { replay }), ...(req.snapshot && { snapshots }) };
  }

  const websocket: WebSocketHandler<ConnData> = {
    idleTimeout: 60,
    sendPings: true,
    maxPayloadLength: 64 * 1024,
    // The check every SLOW_CONSUMER_CHECK_MS closes a slow consumer with 4008 before this cap.
    // Not closeOnBackpressureLimit: Bun then ends the connection without a close frame, and the
    // client could not tell why.
    backpressureLimit: hardBufferLimit(limits.slowConsumerBytes),
    closeOnBackpressureLimit: false,
    open(ws) {
      const refused = ws.data.refused;
      if (refused !== null) {
        fail(ws, refused.code, refused.message, null);
        ws.close(refused.closeCode, refused.message.slice(0, 120));
        return;
      }
      if (ws.data.session !== null) return ws.data.session.open(ws);
      open.add(ws);
      counts.opened++;
      perKey.set(ws.data.account.id, (perKey.get(ws.data.account.id) ?? 0) + 1);
      budgets.hold(ws.data.budgetSlot);
      ws.subscribe(HEARTBEAT_TOPIC[ws.data.format as Format]);
      send(ws, {
        type: 'ready',
        session_id: ws.data.id,
        server_time: deps.clock.nowMs(),
        version: VERSION,
        format: ws.data.format,
        slow: ws.data.slow,
        channels: channelsFor(ws.data.account),
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
      counts.framesIn++;
      if (ws.data.refused !== null || ws.data.slowSweeps !== null) return;
      const now = deps.clock.nowMs();
      if (now - ws.data.windowStartMs >= 10_000) {
        ws.data.windowStartMs = now;
        ws.data.frames = 0;
        ws.data.replayLeft = replayBudget();
      }
      if (++ws.data.frames > limits.maxFramesPer10s) {
        fail(ws, 'rate_limited', `more than ${limits.maxFramesPer10s} frames in 10 seconds: closing`, null);
        ws.close(CLOSE_FLOOD, 'too many frames');
        return;
      }
      const slot = ws.data.budgetSlot;
      if (slot >= 0 && !budgets.takeFrame(slot, now)) return closeOverKeyBudget(ws, slot);
      if (ws.data.session !== null) return ws.data.session.message(ws, message, dialectContext);
      if (typeof message !== 'string') return fail(ws, 'bad_frame', 'send requests as JSON text frames', null);
      // Parsing costs in proportion to the text: a frame longer than any this key could need is refused unread.
      if (message.length > ws.data.maxFrameChars) {
        return fail(ws, 'bad_frame', `frame of ${message.length} characters refused unread: at most ${ws.data.maxFrameChars} for this key (its limit of ${subscriptionLimit(ws.data.account)} channel × symbol pairs)`, null);
      }
      const parsed = parseClientFrame(message);
      if (!parsed.ok) return fail(ws, parsed.code, parsed.message, parsed.id);
      // A request changes the subscriptions a backlog watches: the backlog is sent first (the next
      // check holds the connection back again if it is still backed up).
      slowConsumers.beforeRequest(ws);
      onRequest(ws, parsed.request);
    },
    drain(ws) {
      slowConsumers.drained(ws);
    },
    close(ws, code) {
      slowConsumers.release(ws);
      // Not counted: a refused connection, or a dialect's that never authenticated.
      if (!open.delete(ws)) return;
      countIn(counts.closed, CLOSE_REASONS.get(code) ?? 'other');
      if (ws.data.session !== null) deps.hub.dialectConnections--;
      if (ws.data.budgetSlot >= 0) budgets.release(ws.data.budgetSlot);
      const n = (perKey.get(ws.data.account.id) ?? 1) - 1;
      if (n <= 0) perKey.delete(ws.data.account.id);
      else perKey.set(ws.data.account.id, n);
    },
  };

  /** The key's frames for this 10 s are used up: this connection is closed, and the key's new ones refused until the window ends. */
  function closeOverKeyBudget(ws: ServerWebSocket<ConnData>, slot: number): void {
    const standing = budgets.frameStanding(slot);
    const wait = retryAfterS(standing, deps.clock.nowMs());
    fail(ws, 'rate_limited', `more than ${standing.limit} frames in 10 seconds from this key over all its connections (its plan ${ws.data.account.plan.name}): closing; new connections are refused for ${wait} s`, null);
    ws.close(CLOSE_FLOOD, 'too many frames for this key');
  }

  const slowConsumers = createSlowConsumers({ limits, conflation: deps.hub.conflation, clock: deps.clock, send, sendRaw, log, counts });

  /** One heartbeat frame to every connection (one publish) and a WebSocket ping to each. */
  function heartbeat(): void {
    deps.hub.heartbeat();
    for (const ws of open) if (ws.data.slowSweeps === null) ws.ping();
  }

  deps.auth.onKeysChanged(() => applyKeyChanges(open, deps.auth, { send, active, log }));

  return {
    upgrade,
    upgradeDialect,
    websocket,
    limits,
    counts,
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
      timers = [setInterval(heartbeat, limits.heartbeatMs), setInterval(() => slowConsumers.sweep(open), SLOW_CONSUMER_CHECK_MS), setInterval(() => budgets.sweep(), BUDGET_SWEEP_MS)];
    },
    stop() {
      for (const t of timers) clearInterval(t);
      timers = [];
      heldBack.answerAll();
      for (const ws of open) ws.close(CLOSE_GOING_AWAY, 'server shutting down');
    },
  };
}

export type Stream = ReturnType<typeof createStream>;
