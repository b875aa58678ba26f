// A Massive (formerly Polygon.io) WebSocket connection on one cluster path (/stocks, /crypto,
// /forex, /indices): `{"action":"auth","params":KEY}` with an mds key, then `subscribe` /
// `unsubscribe` with comma-separated `EV.TICKER` params (`T.AAPL,Q.AAPL`, `XQ.BTC-USD`, `T.*`);
// every answer is a batch of `{"ev":"status",...}` messages. Each param is one native request, so
// one refused param leaves the others subscribed, as the vendor treats params independently.
import type { ErrorCode } from '../protocol.ts';
import { freshnessMessage, MASSIVE_AUDIENCE, paramOf, type MassiveCluster } from './massive-events.ts';
import { AUTH_TIMEOUT_MS, type DialectContext, type DialectSession, type DialectWs } from './session.ts';

/** The close code after a refused key or the connection limit (policy violation). */
const CLOSE_POLICY = 1008;
const MAX_PARAMS = 1000;

type Status = { ev: 'status'; status: string; message: string };
const status = (s: string, message: string): Status => ({ ev: 'status', status: s, message });

/** How a native refusal reads in a status message about one param. */
function refusalText(param: string, code: ErrorCode, message: string): string {
  if (code === 'unknown_symbol' || code === 'invalid_symbol') return `unknown ticker in ${param}`;
  if (code === 'forbidden') return `not authorized for ${param}: ${message}`;
  if (code === 'too_many_subscriptions') return `subscription limit reached at ${param}: ${message}`;
  return `${param}: ${message}`;
}

export class MassiveSession implements DialectSession {
  readonly audience = MASSIVE_AUDIENCE;
  private authed = false;
  /** Status messages about pairs a subscribe is adding, sent after its `success` answers; null outside a subscribe. */
  private held: Status[] | null = null;

  constructor(private readonly cluster: MassiveCluster) {}

  private reply(ws: DialectWs, messages: Status[]): void {
    if (messages.length > 0) ws.send(JSON.stringify(messages));
  }

  open(ws: DialectWs): void {
    this.reply(ws, [status('connected', 'Connected Successfully')]);
    const timer = setTimeout(() => {
      if (this.authed || ws.readyState !== 1) return;
      this.reply(ws, [status('auth_timeout', `no valid auth message within ${AUTH_TIMEOUT_MS / 1000} seconds: closing`)]);
      ws.close(CLOSE_POLICY, 'auth timeout');
    }, AUTH_TIMEOUT_MS);
    timer.unref?.();
  }

  message(ws: DialectWs, message: string | Buffer, ctx: DialectContext): void {
    let frame: unknown;
    try {
      frame = JSON.parse(typeof message === 'string' ? message : message.toString('utf8'));
    } catch {
      return this.reply(ws, [status('error', 'could not parse message: send JSON such as {"action":"subscribe","params":"T.AAPL"}')]);
    }
    const f = (typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? frame : {}) as Record<string, unknown>;
    const { action, params } = f;
    if (action !== 'auth' && action !== 'subscribe' && action !== 'unsubscribe') {
      return this.reply(ws, [status('error', `unknown action ${JSON.stringify(String(action ?? '')).slice(0, 40)}: actions are auth, subscribe, unsubscribe`)]);
    }
    if (typeof params !== 'string') return this.reply(ws, [status('error', '"params" must be a string')]);
    if (action === 'auth') return this.auth(ws, params, ctx);
    if (!this.authed) return this.reply(ws, [status('error', 'not authorized: send {"action":"auth","params":"<API key>"} first')]);
    this.subscribe(ws, action, params, ctx);
  }

  private auth(ws: DialectWs, key: string, ctx: DialectContext): void {
    if (this.authed) return this.reply(ws, [status('error', 'already authenticated')]);
    const outcome = ctx.checkKey(ws, key.trim());
    if (!outcome.ok) {
      this.reply(ws, [status('auth_failed', `authentication failed: ${outcome.message}`)]);
      if (outcome.rateLimited) ws.close(CLOSE_POLICY, 'rate limit exceeded');
      return;
    }
    if (!ctx.admit(ws, outcome.account)) {
      this.reply(ws, [status('max_connections', 'Maximum number of websocket connections exceeded. You have reached the connection limit for your key.')]);
      ws.close(CLOSE_POLICY, 'max_connections');
      return;
    }
    this.authed = true;
    this.reply(ws, [status('auth_success', 'authenticated')]);
  }

  private subscribe(ws: DialectWs, action: 'subscribe' | 'unsubscribe', params: string, ctx: DialectContext): void {
    const list = [...new Set(params.split(',').map((p) => p.trim()).filter((p) => p !== ''))];
    if (list.length === 0) return this.reply(ws, [status('error', `"params" names no subscription: send e.g. "${Object.keys(this.cluster.events)[0]}.*"`)]);
    if (list.length > MAX_PARAMS) return this.reply(ws, [status('error', `too many params in one message: at most ${MAX_PARAMS}`)]);
    const out: Status[] = [];
    this.held = [];
    for (const param of list) {
      const dot = param.indexOf('.');
      const ev = dot < 0 ? param : param.slice(0, dot);
      const ticker = dot < 0 ? '' : param.slice(dot + 1);
      const event = this.cluster.events[ev];
      if (!event) {
        const why = this.cluster.unsupported[ev];
        out.push(status('error', why ? `${param.slice(0, 40)}: ${why}` : `unknown event type ${JSON.stringify(ev.slice(0, 10))} for the ${this.cluster.name} cluster: it offers ${Object.keys(this.cluster.events).join(', ')}`));
        continue;
      }
      const symbol = ticker === '*' ? '*' : event.symbolOf(ticker);
      if (symbol === null) {
        out.push(status('error', `unknown ticker in ${param.slice(0, 40)}`));
        continue;
      }
      const outcome = ctx.request(ws, { action, channels: [event.channel], symbols: [symbol], since: null, snapshot: false, id: null });
      if (!outcome.ok) out.push(status('error', refusalText(param, outcome.code, outcome.message)));
      else out.push(status('success', `${action}d to: ${param}`));
    }
    const held = this.held;
    this.held = null;
    this.reply(ws, [...out, ...held]);
  }

  notice(ws: DialectWs, frame: Record<string, unknown>): void {
    if (frame.type === 'error') return this.reply(ws, [status('error', String(frame.message))]);
    // A line subscribed while it has no live source (stream/status.ts): said after the subscribe's answers.
    if (frame.type === 'status') {
      const message = freshnessMessage(paramOf(this.cluster, String(frame.channel), String(frame.symbol)), frame.status === 'stale', Number(frame.sources), Number(frame.since));
      return this.held === null ? this.reply(ws, [message]) : void this.held.push(message);
    }
    // Key changes: pairs the key may no longer have were dropped.
    const dropped = frame.dropped as { channel: string; symbol: string; message: string }[] | undefined;
    if (frame.type === 'unsubscribed' && dropped) {
      this.reply(ws, dropped.map((d) => status('error', `unsubscribed from ${paramOf(this.cluster, d.channel, d.symbol)}: ${d.message}`)));
    }
  }
}
