// The compatibility dialects' WebSocket paths on the one port, under the same prefixes as their
// REST routes: `/compat/massive/{stocks,crypto,forex,indices}`, `/compat/alpaca/v2/{feed}` and
// `/compat/alpaca/v1beta3/crypto/us`. A plain GET on them is the app's
// (its 404). The dialects' encoders join the hub here, so a server without dialect connections
// never encodes for them.
import type { Server } from 'bun';
import type { ConnData, Stream } from '../connections.ts';
import type { StreamHub } from '../hub.ts';
import { ALPACA_CRYPTO, ALPACA_JSON_ENCODER, ALPACA_MSGPACK_ENCODER, ALPACA_STOCKS } from './alpaca-events.ts';
import { AlpacaSession } from './alpaca-session.ts';
import { MASSIVE_CLUSTERS, MASSIVE_ENCODER } from './massive-events.ts';
import { MassiveSession } from './massive-session.ts';
import type { DialectSession } from './session.ts';

export type CompatRoute = (req: Request, server: Server<ConnData>) => Response | undefined | Promise<Response>;

const isUpgrade = (req: Request) => req.headers.get('upgrade')?.toLowerCase() === 'websocket';
/** The vendor's clients ask for msgpack frames with this header on the upgrade; JSON otherwise. */
const wantsMsgpack = (req: Request) => req.headers.get('content-type')?.toLowerCase().includes('application/msgpack') === true;
/** Every stocks feed path serves the same consolidated US stocks. */
const ALPACA_STOCK_FEEDS = ['iex', 'sip', 'delayed_sip', 'test'];

export function compatStreamRoutes(hub: StreamHub, stream: Stream, fallback: (req: Request) => Response | Promise<Response>): Record<string, CompatRoute> {
  for (const encoder of [MASSIVE_ENCODER, ALPACA_JSON_ENCODER, ALPACA_MSGPACK_ENCODER]) hub.addDialect(encoder);
  const route =
    (session: (req: Request) => DialectSession): CompatRoute =>
    (req, server) =>
      isUpgrade(req) ? stream.upgradeDialect(req, server, session(req)) : fallback(req);
  const routes: Record<string, CompatRoute> = {};
  for (const cluster of Object.values(MASSIVE_CLUSTERS)) routes[`/compat/massive/${cluster.name}`] = route(() => new MassiveSession(cluster));
  for (const feed of ALPACA_STOCK_FEEDS) routes[`/compat/alpaca/v2/${feed}`] = route((req) => new AlpacaSession(ALPACA_STOCKS, wantsMsgpack(req)));
  routes['/compat/alpaca/v1beta3/crypto/us'] = route((req) => new AlpacaSession(ALPACA_CRYPTO, wantsMsgpack(req)));
  return routes;
}
