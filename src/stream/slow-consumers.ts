// Slow consumers: every connection's unsent bytes checked every 50 ms. Under `?slow=disconnect`
// (the default) one past the bound gets nothing more and is closed with 4008 once it has read what
// was queued; under `?slow=conflate` a backed-up one is held back off its quotes topics (the hub
// keeps each line's newest quote, conflation.ts) and, once it drains, caught up in one turn.
import type { ServerWebSocket } from 'bun';
import type { Clock } from '../clock.ts';
import { CLOSE_SLOW_CONSUMER } from '../domain/stream-close-codes.ts';
import type { Conflation } from './conflation.ts';
import type { ConnData, StreamCounts, StreamLimits } from './connections.ts';
import { HEARTBEAT_TOPIC, topicOf, type Format } from './hub.ts';

type Ws = ServerWebSocket<ConnData>;

/** How often buffered bytes are checked. */
export const SLOW_CONSUMER_CHECK_MS = 50;
/**
 * How long a slow consumer's close waits for the client to read what was queued before it: the
 * runtime drops a closing connection's unsent bytes, close frame included, within seconds, so the
 * close is sent only once they are gone (or after this, when the frame may be lost).
 */
export const SLOW_CONSUMER_CLOSE_WAIT_MS = 120_000;
/**
 * Bun's hard cap on a connection's unsent bytes, past which it drops that connection's messages:
 * far enough above the bound that the check closes the connection with 4008 first, even with a
 * small bound and a fast feed (the close frame itself must still fit under the cap).
 */
export const hardBufferLimit = (slowConsumerBytes: number) => slowConsumerBytes + Math.max(3 * slowConsumerBytes, 4 << 20);

/**
 * What a connection wants when it cannot keep up (`?slow=` on the stream URL): `disconnect` (the
 * default) closes it with 4008 past the bound; `conflate` keeps only each line's newest quote while
 * it is backed up (trades are never conflated: past the bound it is closed as with `disconnect`).
 */
export type SlowPolicy = 'disconnect' | 'conflate';
export const SLOW_POLICIES: readonly SlowPolicy[] = ['disconnect', 'conflate'];

/** Unsent bytes past which a `conflate` connection counts as backed up: a quarter of the close bound. */
export const conflateBytes = (slowConsumerBytes: number) => Math.max(1, Math.floor(slowConsumerBytes / 4));
/** Unsent bytes at or below which a backed-up `conflate` connection has caught up. */
export const caughtUpBytes = (slowConsumerBytes: number) => Math.floor(conflateBytes(slowConsumerBytes) / 4);

/**
 * Where a connection's policy acts: the hold-back under `conflate` (for a connection with quotes to
 * conflate), else the close bound.
 */
export const policyBytes = (slowConsumerBytes: number, conflates: boolean) => (conflates ? conflateBytes(slowConsumerBytes) : slowConsumerBytes);
/** Unsent bytes past which a connection gets its `lag` warning: half of where its policy acts. */
export const lagWarnBytes = (policyAt: number) => Math.max(1, Math.floor(policyAt / 2));
/** Unsent bytes past which a connection counts as falling behind (`lag_ms` runs), and at or below which a warned one may be warned again: an eighth of where its policy acts. */
export const lagStartBytes = (policyAt: number) => Math.floor(policyAt / 8);

export interface SlowConsumerIo {
  limits: StreamLimits;
  conflation: Conflation;
  clock: Clock;
  send(ws: Ws, frame: Record<string, unknown>): void;
  sendRaw(ws: Ws, payload: string | Uint8Array): void;
  log(line: string): void;
  counts: StreamCounts;
}

export function createSlowConsumers(io: SlowConsumerIo) {
  const slowReason = () => `slow consumer: more than ${io.limits.slowConsumerBytes} bytes unsent`;
  const maxSlowSweeps = Math.ceil(SLOW_CONSUMER_CLOSE_WAIT_MS / SLOW_CONSUMER_CHECK_MS);

  /**
   * A slow consumer gets nothing more (its subscriptions and heartbeats end at once, so its unsent
   * bytes stop growing); its close frame goes out once the client has read what was queued, so
   * the close arrives right after the data however long the client stays away (up to the wait).
   */
  function sweep(open: Iterable<Ws>): void {
    for (const ws of open) {
      const buffered = ws.getBufferedAmount();
      const { data } = ws;
      // Native connections not yet closing or held back: a warning before the policy acts.
      if (data.slowSweeps === null && data.backlog === null && data.session === null && data.refused === null) warnLag(ws, buffered);
      if (data.slowSweeps !== null) {
        if (buffered === 0 || ++data.slowSweeps > maxSlowSweeps) ws.close(CLOSE_SLOW_CONSUMER, slowReason());
      } else if (data.slow === 'conflate' && data.backlog === null && buffered > conflateAt && hasQuotes(data)) {
        // Quotes a burst queued before this check are not trades: the connection is held back, not closed.
        holdBack(ws, buffered);
      } else if (isOverBound(data, buffered)) {
        io.log(`stream: closing ${data.id} (key ${data.account.id}) as a slow consumer: ${buffered} bytes unsent; nothing more is sent to it`);
        if (data.backlog !== null) {
          io.conflation.release(data.backlog);
          data.backlog = null;
        }
        data.slowSweeps = 0;
        for (const pair of data.subs.values()) ws.unsubscribe(topicOf(data.format, pair.channel.name, pair.entry ? pair.entry.symbol : '*'));
        data.subs.clear();
        if (data.session === null) ws.unsubscribe(HEARTBEAT_TOPIC[data.format as Format]);
      } else if (data.backlog !== null && buffered <= resumeAt) catchUp(ws);
    }
  }

  /**
   * The `lag` warning: once half of where the connection's policy acts is unsent, one frame (queued
   * behind what is unsent) saying how much, where the policy acts and for how long the connection
   * has been falling behind; again only after it has caught up to an eighth of that.
   */
  function warnLag(ws: Ws, buffered: number): void {
    const { data } = ws;
    // Below an eighth of the lowest level a policy acts at (the hold-back), any policy's answer is
    // the same: most connections have next to nothing unsent and skip looking at their subscriptions.
    const policyAt = buffered <= lagStartBytes(conflateAt) ? conflateAt : policyBytes(io.limits.slowConsumerBytes, data.slow === 'conflate' && hasQuotes(data));
    if (buffered <= lagStartBytes(policyAt)) {
      data.lagSinceMs = null;
      data.lagWarned = false;
      return;
    }
    const now = io.clock.nowMs();
    data.lagSinceMs ??= now;
    if (data.lagWarned || buffered <= lagWarnBytes(policyAt)) return;
    data.lagWarned = true;
    io.counts.lagWarnings++;
    io.send(ws, { type: 'lag', unsent_bytes: buffered, limit_bytes: policyAt, slow: data.slow, lag_ms: Math.max(0, now - data.lagSinceMs), ts: now });
  }

  /**
   * Past the bound: for a held-back `conflate` connection only what was queued since it was held
   * back counts (its trades: quotes no longer queue), short of the runtime's cap, under which the
   * close frame must still fit.
   */
  const isOverBound = (data: ConnData, buffered: number) =>
    data.backlog === null ? buffered > io.limits.slowConsumerBytes : buffered - data.backlog.heldAtBytes > io.limits.slowConsumerBytes || buffered > hardBufferLimit(io.limits.slowConsumerBytes) - io.limits.slowConsumerBytes;

  const conflateAt = conflateBytes(io.limits.slowConsumerBytes);
  const resumeAt = caughtUpBytes(io.limits.slowConsumerBytes);
  const hasQuotes = (data: ConnData) => [...data.subs.values()].some((p) => p.channel.kind === 'quotes');
  const quoteTopics = (data: ConnData) => [...data.subs.values()].filter((p) => p.channel.kind === 'quotes').map((p) => ({ topic: topicOf(data.format, p.channel.name, p.entry ? p.entry.symbol : '*'), line: `${p.channel.name}|${p.entry ? p.entry.symbol : '*'}` }));

  /**
   * A backed-up `conflate` connection leaves its quotes topics (what Bun queued stays queued and is
   * older than anything kept from now on); the hub keeps each line's newest quote for it instead.
   * Its trades topics stay: trades are never conflated, and past the bound they close it as ever.
   */
  function holdBack(ws: Ws, buffered: number): void {
    const { data } = ws;
    const quotes = quoteTopics(data);
    for (const q of quotes) ws.unsubscribe(q.topic);
    data.backlog = io.conflation.hold(data.format as Format, quotes.map((q) => q.line), io.clock.nowMs(), buffered);
    io.counts.conflations++;
    if (!data.hasConflated) {
      data.hasConflated = true;
      io.log(`stream: ${data.id} (key ${data.account.id}) is backed up (${buffered} bytes unsent): conflating its quotes until it catches up (logged once per connection)`);
    }
  }

  /**
   * The connection caught up: one `conflated` frame (how many quotes it missed, how many follow),
   * each still-subscribed line's newest quote and status, and its quotes topics again, all in one
   * turn, so no publish falls between the newest kept quote and the next live one.
   */
  function catchUp(ws: Ws): void {
    const { data } = ws;
    const backlog = data.backlog!;
    data.backlog = null;
    const dropped = io.conflation.release(backlog);
    const subscribed = (line: string) => data.subs.has(line) || data.subs.has(`${line.slice(0, line.indexOf('|'))}|*`);
    const quotes = [...backlog.quotes].filter(([line]) => subscribed(line));
    io.send(ws, { type: 'conflated', dropped, quotes: quotes.length, since: backlog.sinceMs, ts: io.clock.nowMs() });
    for (const [, payload] of quotes) io.sendRaw(ws, payload);
    for (const [line, payload] of backlog.statuses) if (subscribed(line)) io.sendRaw(ws, payload);
    for (const q of quoteTopics(data)) ws.subscribe(q.topic);
  }

  return {
    sweep,
    /** The runtime's drain event: a held-back connection that read enough is caught up at once. */
    drained(ws: Ws): void {
      if (ws.data.backlog !== null && ws.getBufferedAmount() <= resumeAt) catchUp(ws);
    },
    /**
     * Before a subscribe or unsubscribe: it changes the lines a backlog watches, so a held-back
     * connection is caught up first (the next check holds it back again if it is still backed up).
     */
    beforeRequest(ws: Ws): void {
      if (ws.data.backlog !== null) catchUp(ws);
    },
    /** The connection closed: its backlog is dropped. */
    release(ws: Ws): void {
      if (ws.data.backlog === null) return;
      io.conflation.release(ws.data.backlog);
      ws.data.backlog = null;
    },
  };
}
