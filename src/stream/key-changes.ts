// Key changes (`mds keys update/revoke` while the server runs) applied to open connections: the
// account is fixed at the upgrade, so without this a revoked key would keep streaming. A key that
// no longer works closes its connections with 4001; pairs the account may no longer use are dropped
// and the client is told with an `unsubscribed` frame that names them and why.
import type { ServerWebSocket } from 'bun';
import { DEV_KEY_ID, type Authenticator, type AuthResult } from '../auth/authenticator.ts';
import { CLOSE_KEY_INVALID } from '../domain/stream-close-codes.ts';
import { pairDenied } from './access.ts';
import type { ConnData } from './connections.ts';
import { topicOf } from './hub.ts';

type Ws = ServerWebSocket<ConnData>;

export interface KeyChangeIo {
  send(ws: Ws, frame: Record<string, unknown>): void;
  active(ws: Ws): { channel: string; symbol: string }[];
  log(line: string): void;
}

/** The subscriptions of a connection as acks list them. */
export function activeSubscriptions(ws: Ws): { channel: string; symbol: string }[] {
  return [...ws.data.subs.values()].map((p) => ({ channel: p.channel.name, symbol: p.entry ? p.entry.symbol : '*' }));
}

export function applyKeyChanges(open: Iterable<Ws>, auth: Authenticator, io: KeyChangeIo): void {
  // Each account is resolved once, however many connections it has.
  const now = new Map<string, AuthResult>();
  for (const ws of open) {
    const { account } = ws.data;
    if (account.id === DEV_KEY_ID) continue;
    let result = now.get(account.id);
    if (!result) now.set(account.id, (result = auth.reresolve(account)));
    if (!result.ok) {
      const reason = result.code === 'REVOKED_KEY' ? 'API key revoked' : result.code === 'PLAN_MISSING' ? 'plan not offered by this server' : 'invalid API key';
      io.log(`stream: closed ${ws.data.id} (key ${account.id}): ${reason}`);
      ws.close(CLOSE_KEY_INVALID, reason);
      continue;
    }
    ws.data.account = result.account;
    const dropped: { channel: string; symbol: string; message: string }[] = [];
    for (const [k, pair] of ws.data.subs) {
      const denied = pairDenied(result.account, pair.channel, pair.entry);
      if (denied === null) continue;
      const symbol = pair.entry ? pair.entry.symbol : '*';
      ws.data.subs.delete(k);
      ws.unsubscribe(topicOf(ws.data.format, pair.channel.name, symbol));
      dropped.push({ channel: pair.channel.name, symbol, message: denied });
    }
    if (dropped.length > 0) io.send(ws, { type: 'unsubscribed', reason: 'entitlements changed', dropped, subscriptions: io.active(ws) });
  }
}
