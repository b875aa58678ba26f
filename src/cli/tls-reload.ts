// SIGHUP's certificate reload: re-reads --tls-cert and --tls-key and, when they can serve, moves
// the port to a new listener with them (Bun 1.4.4's server.reload() ignores `tls`; see
// listeners.ts). A pair that cannot serve is logged and the served one stays.
import type { Server } from 'bun';
import type { Logger } from '../log.ts';
import type { ConnData } from '../stream/connections.ts';
import type { Listeners } from './listeners.ts';
import { describePair, readTlsPair, type TlsPair } from './tls-pair.ts';

export interface TlsReloadDeps {
  certFile: string;
  keyFile: string;
  /** The pair served at start. */
  served: TlsPair;
  listeners: Listeners;
  port: number;
  /** Opens a listener of the service on `port` with `pair` (what the start did). */
  listen(port: number, pair: TlsPair): Server<ConnData>;
  log: Logger;
  nowMs(): number;
}

/** Returns the reload: true once new connections get the files' pair, false (logged) otherwise. */
export function tlsReloader(deps: TlsReloadDeps): () => boolean {
  const { listeners, port, log } = deps;
  let served = deps.served;
  return () => {
    let next: TlsPair;
    try {
      next = readTlsPair(deps.certFile, deps.keyFile);
    } catch (err) {
      log.error(`TLS reload failed: ${(err as Error).message}; still serving the ${describePair(served, deps.nowMs())}`);
      return false;
    }
    // The old listener stops listening, its open connections going on, and the new one takes the
    // port in the same turn of the event loop. A connection the kernel had queued on the old
    // listener but not yet handed over is reset at that instant (its client connects again).
    void listeners.current.stop(false);
    try {
      listeners.replace(deps.listen(port, next));
    } catch (err) {
      log.error(`TLS reload failed: port ${port} could not be listened on with the new certificate (${(err as Error).message}); listening with the old one again`);
      try {
        listeners.replace(deps.listen(port, served));
      } catch (again) {
        log.error(`port ${port} could not be listened on again (${(again as Error).message}): open connections go on, new ones are refused until a reload succeeds`);
      }
      return false;
    }
    served = next;
    log.info(`TLS reloaded: new connections get the ${describePair(next, deps.nowMs())}; open connections keep theirs`);
    return true;
  };
}
