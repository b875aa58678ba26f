// What a compatibility dialect's connection is to the native stream: a session that speaks the
// vendor's frames and asks the native connection code (connections.ts) for everything that counts:
// the key, the per-key connection limit, and every subscribe/unsubscribe with its entitlement
// checks and caps. A dialect only translates; it holds no limits or entitlements of its own.
import type { ServerWebSocket } from 'bun';
import type { Account } from '../../domain/account.ts';
import type { ConnData } from '../connections.ts';
import type { ErrorCode, SubscribeRequest } from '../protocol.ts';

export type DialectWs = ServerWebSocket<ConnData>;

/**
 * How long a dialect connection may stay without a valid auth frame: its key comes after the
 * upgrade, and until then it counts under no key's limit.
 */
export const AUTH_TIMEOUT_MS = 10_000;

/** The outcome of a key, as the native upgrade judges it (a bad key is counted by the keyless limiter). */
export type KeyOutcome = { ok: true; account: Account } | { ok: false; rateLimited: boolean; message: string };

/** A native request's outcome: the pairs it changed are in `ws.data.subs` when ok. */
export type RequestOutcome = { ok: true } | { ok: false; code: ErrorCode; message: string };

export interface DialectContext {
  checkKey(ws: DialectWs, key: string): KeyOutcome;
  /** Counts the connection under its key (native limit); false when the key has its connections already. */
  admit(ws: DialectWs, account: Account): boolean;
  request(ws: DialectWs, req: SubscribeRequest): RequestOutcome;
}

export interface DialectSession {
  /** The topic prefix of the dialect's encoding (hub.ts). */
  readonly audience: `~${string}`;
  open(ws: DialectWs): void;
  message(ws: DialectWs, message: string | Buffer, ctx: DialectContext): void;
  /**
   * A native frame the connection code sends on its own (flood limit, key changes dropping
   * pairs): said in the dialect's words, or not at all.
   */
  notice(ws: DialectWs, frame: Record<string, unknown>): void;
}
