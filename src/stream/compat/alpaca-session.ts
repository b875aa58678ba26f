// An Alpaca market data WebSocket connection (/v2/{feed} for stocks, /v1beta3/crypto/us): the
// `{"action":"auth","key":K,"secret":S}` frame with an mds key as `key` (the secret is not
// checked: mds keys are one secret), then subscribe/unsubscribe by `trades`, `quotes`, `bars` and
// `dailyBars` lists;
// answers are the vendor's `success`, `error` (its numeric codes) and `subscription` messages, in
// JSON or msgpack as the connection was opened. Each symbol is one native request, so an unknown
// or refused symbol leaves the others subscribed; the subscription message says what holds.
import { unpack } from 'msgpackr';
import type { ErrorCode } from '../protocol.ts';
import { packObject } from '../messages.ts';
import { ALPACA_JSON_AUDIENCE, ALPACA_MSGPACK_AUDIENCE, type AlpacaFeed } from './alpaca-events.ts';
import { AUTH_TIMEOUT_MS, type DialectContext, type DialectSession, type DialectWs } from './session.ts';

/** The vendor's error codes and their fixed messages. */
export const ALPACA_ERRORS = {
  400: 'invalid syntax',
  401: 'not authenticated',
  402: 'auth failed',
  403: 'already authenticated',
  404: 'auth timeout',
  405: 'symbol limit exceeded',
  406: 'connection limit exceeded',
  409: 'insufficient subscription',
} as const;
type AlpacaCode = keyof typeof ALPACA_ERRORS;

const SUPPORTED = { trades: 'trades', quotes: 'quotes', bars: 'bars', dailyBars: 'dailyBars' } as const;
/**
 * The vendor's other channels: a non-empty list is answered 409 (not offered here). mds seals a
 * minute bar once and never revises it, so there are no `updatedBars` to send.
 */
const UNSUPPORTED = ['updatedBars', 'statuses', 'lulds', 'orderbooks', 'imbalances', 'corrections', 'cancelErrors', 'news'] as const;
const MAX_SYMBOLS = 1000;
const CLOSE_POLICY = 1008;

type Message = Record<string, unknown>;
const error = (code: AlpacaCode): Message => ({ T: 'error', code, msg: ALPACA_ERRORS[code] });

function codeOf(code: ErrorCode): AlpacaCode {
  if (code === 'forbidden') return 409;
  if (code === 'too_many_subscriptions') return 405;
  if (code === 'unauthorized') return 401;
  return 400;
}

export class AlpacaSession implements DialectSession {
  readonly audience: `~${string}`;
  private authed = false;

  constructor(
    private readonly feed: AlpacaFeed,
    private readonly binary: boolean,
  ) {
    this.audience = binary ? ALPACA_MSGPACK_AUDIENCE : ALPACA_JSON_AUDIENCE;
  }

  private reply(ws: DialectWs, messages: Message[]): void {
    if (messages.length > 0) ws.send(this.binary ? packObject(messages) : JSON.stringify(messages));
  }

  open(ws: DialectWs): void {
    this.reply(ws, [{ T: 'success', msg: 'connected' }]);
    const timer = setTimeout(() => {
      if (this.authed || ws.readyState !== 1) return;
      this.reply(ws, [error(404)]);
      ws.close(CLOSE_POLICY, 'auth timeout');
    }, AUTH_TIMEOUT_MS);
    timer.unref?.();
  }

  message(ws: DialectWs, message: string | Buffer, ctx: DialectContext): void {
    let frame: unknown;
    try {
      frame = typeof message === 'string' ? JSON.parse(message) : unpack(message);
    } catch {
      return this.reply(ws, [error(400)]);
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return this.reply(ws, [error(400)]);
    const f = frame as Record<string, unknown>;
    if (f.action === 'auth') return this.auth(ws, f, ctx);
    if (f.action !== 'subscribe' && f.action !== 'unsubscribe') return this.reply(ws, [error(400)]);
    if (!this.authed) return this.reply(ws, [error(401)]);
    this.subscribe(ws, f.action, f, ctx);
  }

  private auth(ws: DialectWs, f: Record<string, unknown>, ctx: DialectContext): void {
    if (this.authed) return this.reply(ws, [error(403)]);
    if (typeof f.key !== 'string' || f.key === '') return this.reply(ws, [error(402)]);
    const outcome = ctx.checkKey(ws, f.key.trim());
    if (!outcome.ok) {
      this.reply(ws, [error(402)]);
      if (outcome.rateLimited) ws.close(CLOSE_POLICY, 'rate limit exceeded');
      return;
    }
    if (!ctx.admit(ws, outcome.account)) {
      this.reply(ws, [error(406)]);
      ws.close(CLOSE_POLICY, 'connection limit exceeded');
      return;
    }
    this.authed = true;
    this.reply(ws, [{ T: 'success', msg: 'authenticated' }]);
  }

  private subscribe(ws: DialectWs, action: 'subscribe' | 'unsubscribe', f: Record<string, unknown>, ctx: DialectContext): void {
    const lists: [keyof typeof SUPPORTED, string[]][] = [];
    for (const name of [...Object.keys(SUPPORTED), ...UNSUPPORTED]) {
      const value = f[name];
      if (value === undefined || value === null) continue;
      if (!Array.isArray(value) || value.length > MAX_SYMBOLS || !value.every((s) => typeof s === 'string' && s.length <= 64)) return this.reply(ws, [error(400)]);
      if (name in SUPPORTED) lists.push([name as keyof typeof SUPPORTED, [...new Set(value as string[])]]);
    }
    const codes = new Set<AlpacaCode>();
    // Unsubscribing from a channel this server does not offer changes nothing and is no error.
    if (action === 'subscribe' && UNSUPPORTED.some((name) => Array.isArray(f[name]) && (f[name] as unknown[]).length > 0)) codes.add(409);
    for (const [name, symbols] of lists) {
      const channel = `${this.feed.assetClass}.${name}`;
      for (const raw of symbols) {
        const symbol = raw.trim() === '*' ? '*' : this.feed.symbolOf(raw.trim());
        if (symbol === null) {
          codes.add(400);
          continue;
        }
        const outcome = ctx.request(ws, { action, channels: [channel], symbols: [symbol], since: null, snapshot: false, id: null });
        if (!outcome.ok) codes.add(codeOf(outcome.code));
      }
    }
    this.reply(ws, [...[...codes].map(error), this.subscription(ws)]);
  }

  /** The connection's whole subscription, in the vendor's names. */
  private subscription(ws: DialectWs): Message {
    const lists: Record<string, string[]> = { trades: [], quotes: [], bars: [], dailyBars: [] };
    for (const pair of ws.data.subs.values()) {
      const name = pair.channel.kind;
      lists[name]!.push(pair.entry === null ? '*' : (this.feed.tickerOf(pair.entry.symbol) ?? pair.entry.symbol));
    }
    const message: Message = { T: 'subscription', trades: lists.trades, quotes: lists.quotes, bars: lists.bars, updatedBars: [], dailyBars: lists.dailyBars };
    for (const name of this.feed.otherLists) message[name] = [];
    // The vendor lists trade corrections and cancels with the trades they belong to.
    if (this.feed.assetClass === 'stocks') Object.assign(message, { corrections: lists.trades, cancelErrors: lists.trades });
    return message;
  }

  notice(ws: DialectWs, frame: Record<string, unknown>): void {
    if (frame.type === 'error') return this.reply(ws, [frame.code === 'rate_limited' ? { T: 'error', code: 429, msg: String(frame.message) } : error(400)]);
    // Key changes dropped pairs the key may no longer have.
    if (frame.type === 'unsubscribed' && frame.dropped) this.reply(ws, [error(409), this.subscription(ws)]);
  }
}
