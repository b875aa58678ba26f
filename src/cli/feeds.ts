// `mds feeds`: the feeds a server can run (the simulator and every registered venue protocol) and
// what each supplies: classes, default instruments, URL, the credentials it needs.
import { ASSET_CLASSES } from '../domain/asset-classes.ts';
import type { VenueProtocol } from '../ingest/adapters/venue-protocol.ts';
import { VENUE_PROTOCOLS } from '../ingest/adapters/registry.ts';
import { PERPETUALS, SIMULATED } from '../ingest/reference/catalog.ts';
import { UsageError } from '../config.ts';

const HELP = `Usage: mds feeds

Lists the feeds 'mds serve --feed LIST' can run and what each supplies. Per-feed settings
(instruments, symbol mapping, URL, credentials by environment variable, timeouts) go in the
JSON file given with --feeds FILE (see docs/feeds.md).
`;

function describeSim(): string {
  const all = [...SIMULATED, ...PERPETUALS];
  const classes = ASSET_CLASSES.filter((c) => all.some((s) => s.assetClass === c)).map((c) => `${c} (${all.filter((s) => s.assetClass === c).length})`);
  return [
    'sim  (default)',
    '  the built-in market simulator: several simulated venues per instrument (sources sim-1 … sim-6),',
    '  history on first start, fundamentals, bond yields and the economic calendar; no network needed',
    `  classes: ${classes.join(', ')}`,
    '  settings: serve flags --seed, --sim-rate, --history-days, --history-years',
  ].join('\n');
}

function describeVenue(p: VenueProtocol): string {
  const instruments = p.defaultInstruments.map((i) => (i.symbol === i.venueSymbol ? i.symbol : `${i.symbol}=${i.venueSymbol}`));
  return [
    p.id,
    `  ${p.description}`,
    `  class: ${p.assetClass}`,
    `  url: ${p.defaultUrl}`,
    `  default instruments (mds=venue): ${instruments.length > 0 ? instruments.join(' ') : 'none'}`,
    `  credentials: ${p.credentials?.length ? `environment variables ${p.credentials.join(', ')}` : 'none (public data)'}`,
  ].join('\n');
}

export function feedsText(protocols: readonly VenueProtocol[] = VENUE_PROTOCOLS): string {
  const blocks = [describeSim(), ...protocols.map(describeVenue)];
  const none = protocols.length === 0 ? '\n(no venue adapters are registered in this build)\n' : '';
  return `Feeds ('mds serve --feed sim,<venue>,...'; 'none' serves only what is stored):\n\n${blocks.join('\n\n')}\n${none}`;
}

export function runFeeds(argv: string[], out: (text: string) => void): number {
  if (argv.includes('-h') || argv.includes('--help')) {
    out(HELP);
    return 0;
  }
  if (argv.length > 0) throw new UsageError(`mds feeds takes no arguments, got ${JSON.stringify(argv[0])}; run 'mds feeds --help'`);
  out(feedsText());
  return 0;
}
