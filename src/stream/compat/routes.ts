// The compatibility dialects' WebSocket paths on the one port, under the same prefixes as their
// REST routes: `/compat/massive/{stocks,crypto,forex,indices}`. A plain GET on them is the app's
// (its 404). The dialects' encoders join the hub here, so a server without dialect connections
// never encodes for them.
import type { Server } from 'bun';
import type { ConnData, Stream } from '../connections.ts';
import type { StreamHub } from '../hub.ts';
import { MASSIVE_CLUSTERS, MASSIVE_ENCODER } from './massive-events.ts';
import { MassiveSession } from './massive-session.ts';
import type { DialectSession } from './session.ts';

export type CompatRoute = (req: Request, server: Server<ConnData>) => Response | undefined | Promise<Response>;

const isUpgrade = (req: Request) => req.headers.get('upgrade')?.toLowerCase() === 'websocket';

export function compatStreamRoutes(hub: StreamHub, stream: Stream, fallback: (req: Request) => Response | Promise<Response>): Record<string, CompatRoute> {
  hub.addDialect(MASSIVE_ENCODER);
  const route =
    (session: () => DialectSession): CompatRoute =>
    (req, server) =>
      isUpgrade(req) ? stream.upgradeDialect(req, server, session()) : fallback(req);
  const routes: Record<string, CompatRoute> = {};
  for (const cluster of Object.values(MASSIVE_CLUSTERS)) routes[`/compat/massive/${cluster.name}`] = route(() => new MassiveSession(cluster));
  return routes;
}
