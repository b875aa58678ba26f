// The shared venue client: runs any VenueProtocol as a Feed.
import type { Feed } from '../../domain/feed.ts';
import type { VenueFeedSettings, VenueProtocol } from './venue-protocol.ts';

/** Placeholder signature; the client lands with the first live venue. */
export function createVenueFeed(protocol: VenueProtocol, _settings: VenueFeedSettings = {}): Feed {
  throw new Error(`venue feed ${protocol.id}: the venue client is not built yet`);
}
