// A local venue for tests and benches: a WebSocket server on 127.0.0.1 (port 0) that speaks a
// venue's protocol from its recorded fixtures. It answers subscriptions (and auth, when told to),
// sends quotes and trades for any symbol, and can drop, go silent, send garbage or refuse.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server, ServerWebSocket } from 'bun';
import type { VenueEvent } from '../../src/ingest/adapters/venue-protocol.ts';

const FIXTURES = join(import.meta.dir, '..', 'fixtures');

/** A recorded frame about one symbol, re-aimed at others by replacing the symbol (and its seq). */
export interface FrameTemplate {
  text: string;
  venueSymbol: string;
  seq?: number;
}

/** What a local venue can say, taken from one venue's fixtures (or written for a test protocol). */
export interface VenueFrames {
  quote: FrameTemplate;
  /** Absent for a source without trades (a forex quote feed). */
  trade?: FrameTemplate;
  /** Sent for each frame the client sends after auth (a subscription answer). */
  ack?: string;
  symbolError?: FrameTemplate;
  authOk?: string;
  authFail?: string;
  /** A frame the venue's parser cannot read. */
  malformed: string;
}

interface Fixture {
  frame: unknown;
  events: VenueEvent[] | { type: 'parse-error' };
}

const textOf = (frame: unknown) => (typeof frame === 'string' ? frame : JSON.stringify(frame));

/** The frames of `test/fixtures/<venueId>/`: the first fixture of each kind, single-event ones first. */
export function framesFromFixtures(venueId: string): VenueFrames {
  const dir = join(FIXTURES, venueId);
  const fixtures = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture);
  const single = (type: VenueEvent['type']) => fixtures.find((f) => Array.isArray(f.events) && f.events.length === 1 && f.events[0]!.type === type);
  // A frame of one event is preferred; a venue whose frames all carry several gets its first such frame.
  const containing = (type: VenueEvent['type']) => fixtures.find((f) => Array.isArray(f.events) && f.events.some((e) => e.type === type));
  const template = (type: 'quote' | 'trade' | 'symbol-error'): FrameTemplate | undefined => {
    const f = single(type) ?? containing(type);
    if (f === undefined) return undefined;
    const e = (f.events as VenueEvent[]).find((ev) => ev.type === type) as Extract<VenueEvent, { venueSymbol: string }>;
    return { text: textOf(f.frame), venueSymbol: e.venueSymbol, seq: 'seq' in e ? e.seq : undefined };
  };
  const quote = template('quote');
  const trade = template('trade');
  if (quote === undefined) throw new Error(`fixtures of ${venueId} have no quote frame`);
  const auth = (ok: boolean) => fixtures.find((f) => Array.isArray(f.events) && f.events.length === 1 && f.events[0]!.type === 'auth' && f.events[0]!.ok === ok);
  const ack = single('subscribed');
  const malformed = fixtures.find((f) => !Array.isArray(f.events) && typeof f.frame === 'string');
  const okFrame = auth(true);
  const failFrame = auth(false);
  return {
    quote,
    trade,
    ack: ack && textOf(ack.frame),
    symbolError: template('symbol-error'),
    authOk: okFrame && textOf(okFrame.frame),
    authFail: failFrame && textOf(failFrame.frame),
    malformed: malformed ? textOf(malformed.frame) : '{"truncated',
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The template aimed at `venueSymbol` (upper and lower case forms alike), with `seq` when it carries one. */
export function aim(t: FrameTemplate, venueSymbol: string, seq?: number): string {
  let text = t.text.replaceAll(t.venueSymbol, venueSymbol).replaceAll(t.venueSymbol.toLowerCase(), venueSymbol.toLowerCase());
  if (t.seq !== undefined && seq !== undefined) text = text.replace(new RegExp(`(?<![0-9.])${escape(String(t.seq))}(?![0-9.])`, 'g'), String(seq));
  return text;
}

interface Conn {
  path: string;
  received: string[];
  authed: boolean;
}

export interface LocalVenueOptions {
  /** Answer the first frame of each connection as auth: accept or refuse (needs authOk/authFail frames). */
  auth?: 'accept' | 'refuse';
  /** Frames answered with a reply of their own instead of the ack (a keepalive ping with the venue's pong). */
  replies?: Readonly<Record<string, string>>;
}

export class LocalVenue implements AsyncDisposable {
  /** Every connection so far, oldest first: its request path and the frames it sent. */
  readonly connections: Conn[] = [];
  /**
   * While true the venue answers nothing (subscriptions, auth, application pings). Its WebSocket
   * layer still answers WebSocket pings: a dead connection is a frozen TCP proxy (tcp-proxy.ts).
   */
  silent = false;
  private readonly open = new Set<ServerWebSocket<Conn>>();
  private readonly seqs = new Map<string, number>();
  private readonly server: Server<Conn>;

  constructor(
    readonly frames: VenueFrames,
    private readonly options: LocalVenueOptions = {},
  ) {
    this.server = Bun.serve<Conn>({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (req, server) => {
        const url = new URL(req.url);
        const conn: Conn = { path: `${url.pathname}${url.search}`, received: [], authed: options.auth === undefined };
        if (server.upgrade(req, { data: conn })) return undefined;
        return new Response('websocket only', { status: 400 });
      },
      websocket: {
        open: (ws) => {
          this.connections.push(ws.data);
          this.open.add(ws);
        },
        message: (ws, message) => this.answer(ws, typeof message === 'string' ? message : message.toString()),
        close: (ws) => {
          this.open.delete(ws);
        },
      },
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${this.server.port}`;
  }

  get openConnections(): number {
    return this.open.size;
  }

  /** Sends a text frame to every open connection. */
  send(text: string): void {
    for (const ws of this.open) ws.send(text);
  }

  sendQuote(venueSymbol: string): void {
    this.send(aim(this.frames.quote, venueSymbol, this.nextSeq(`q:${venueSymbol}`, this.frames.quote)));
  }

  sendTrade(venueSymbol: string): void {
    const trade = this.frames.trade;
    if (trade === undefined) throw new Error('this venue has no trade frame');
    this.send(aim(trade, venueSymbol, this.nextSeq(`t:${venueSymbol}`, trade)));
  }

  /** A trade whose sequence number skips `missed` numbers. */
  sendTradeAfterGap(venueSymbol: string, missed: number): void {
    const key = `t:${venueSymbol}`;
    this.seqs.set(key, (this.seqs.get(key) ?? this.frames.trade?.seq ?? 0) + missed);
    this.sendTrade(venueSymbol);
  }

  sendMalformed(): void {
    this.send(this.frames.malformed);
  }

  sendSymbolError(venueSymbol: string): void {
    if (this.frames.symbolError === undefined) throw new Error('this venue has no symbol-error frame');
    this.send(aim(this.frames.symbolError, venueSymbol));
  }

  /** A WebSocket-level ping to every open connection (as Binance's servers send). */
  pingSockets(): void {
    for (const ws of this.open) ws.ping();
  }

  /** Closes every open connection from the venue's side. */
  drop(): void {
    for (const ws of this.open) ws.close(1012, 'dropped by the local venue');
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.server.stop(true);
  }

  private nextSeq(key: string, template: FrameTemplate): number {
    const next = (this.seqs.get(key) ?? template.seq ?? 0) + 1;
    this.seqs.set(key, next);
    return next;
  }

  private answer(ws: ServerWebSocket<Conn>, text: string): void {
    ws.data.received.push(text);
    if (this.silent) return;
    if (!ws.data.authed) {
      ws.data.authed = true;
      const reply = this.options.auth === 'accept' ? this.frames.authOk : this.frames.authFail;
      if (reply === undefined) throw new Error(`this venue has no auth ${this.options.auth === 'accept' ? 'success' : 'failure'} frame`);
      ws.send(reply);
      return;
    }
    const reply = this.options.replies?.[text];
    if (reply !== undefined) ws.send(reply);
    else if (this.frames.ack !== undefined) ws.send(this.frames.ack);
  }
}
