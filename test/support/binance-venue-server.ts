// A real server fed by a local venue speaking Binance's protocol (its recorded frames), through
// `--feed binance --feeds FILE`, on the real clock: the spot book ticker carries no event time, so
// ticks are stamped on receipt. Resolves once the feed has connected and subscribed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './cli.ts';
import { framesFromFixtures, LocalVenue } from './local-venue.ts';
import { startServer, type TestServer } from './server.ts';

export interface VenueServer {
  venue: LocalVenue;
  server: TestServer;
  dispose(): Promise<void>;
}

export async function startBinanceVenueServer(instruments: string[]): Promise<VenueServer> {
  const venue = new LocalVenue(framesFromFixtures('binance'));
  const dir = mkdtempSync(join(tmpdir(), 'mds-venue-'));
  const feedsFile = join(dir, 'feeds.json');
  writeFileSync(feedsFile, JSON.stringify({ feeds: { binance: { url: venue.url, instruments, silentMs: 60_000, backoffMinMs: 50, backoffMaxMs: 200 } } }));
  const server = await startServer({ args: ['--feed', 'binance', '--feeds', feedsFile, '--clock-start', String(Date.now())] });
  await until(async () => venue.openConnections === 1 && venue.connections[0]!.received.length > 0, 'the feed to connect and subscribe');
  return {
    venue,
    server,
    async dispose() {
      await server.stop();
      await venue[Symbol.asyncDispose]();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
