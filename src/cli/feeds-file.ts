// `--feeds FILE`: per-feed settings, validated before anything is written (a bad file exits 2
// naming the field and what it takes). Credentials are named by environment variable: the file
// holds the variable's name, the value is read from the environment here and kept only in memory.
import { readFileSync } from 'node:fs';
import { Type as T, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FeedInstrument } from '../domain/feed.ts';
import type { VenueFeedSettings, VenueProtocol } from '../ingest/adapters/venue-protocol.ts';
import { UsageError } from '../config.ts';

const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

const InstrumentSchema = T.Union([
  T.String({ minLength: 1, maxLength: 32 }),
  T.Object(
    {
      symbol: T.String({ minLength: 1, maxLength: 32 }),
      venueSymbol: T.Optional(T.String({ minLength: 1, maxLength: 64 })),
      name: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
      decimals: T.Optional(T.Integer({ minimum: 0, maximum: 12 })),
    },
    { additionalProperties: false },
  ),
]);

const FeedSettingsSchema = T.Object(
  {
    url: T.Optional(T.String({ pattern: '^wss?://' })),
    restUrl: T.Optional(T.String({ pattern: '^https?://' })),
    instruments: T.Optional(T.Array(InstrumentSchema, { minItems: 1 })),
    symbols: T.Optional(T.Record(T.String(), T.String({ minLength: 1, maxLength: 64 }))),
    credentials: T.Optional(T.Record(T.String(), T.String({ pattern: ENV_NAME }))),
    silentMs: T.Optional(T.Integer({ minimum: 1000, maximum: 3_600_000 })),
    backoffMinMs: T.Optional(T.Integer({ minimum: 10, maximum: 600_000 })),
    backoffMaxMs: T.Optional(T.Integer({ minimum: 10, maximum: 3_600_000 })),
  },
  { additionalProperties: false },
);

export const FeedsFileSchema = T.Object({ feeds: T.Record(T.String(), FeedSettingsSchema) }, { additionalProperties: false });
export type FeedsFile = Static<typeof FeedsFileSchema>;

/** What each field takes, appended to a schema error at that field. */
const TAKES: Record<string, string> = {
  feeds: 'an object of feed id to settings',
  url: 'a ws:// or wss:// URL',
  restUrl: "an http:// or https:// URL: the origin of the vendor's REST API (corporate actions)",
  instruments: 'a non-empty array of mds symbols or {symbol, venueSymbol?, name?, decimals?} objects',
  symbols: 'an object of mds symbol to the venue symbol',
  credentials: "an object of the feed's credential name to the NAME of the environment variable holding it",
  silentMs: 'an integer from 1000 to 3600000',
  backoffMinMs: 'an integer from 10 to 600000',
  backoffMaxMs: 'an integer from 10 to 3600000',
  symbol: 'an mds symbol',
  venueSymbol: "the venue's own symbol",
  name: 'a display name',
  decimals: 'an integer from 0 to 12',
};

function takesAt(path: string): string {
  const parts = path.split('/').filter((p) => p !== '' && !/^\d+$/.test(p));
  const last = parts[parts.length - 1];
  if (parts.length === 0 || (parts.length === 1 && last !== 'feeds')) return ' (the file takes {"feeds": {"<feed id>": {settings}}})';
  const isSettings = parts[0] === 'feeds' && (parts.length === 2 || (parts.length === 3 && (last === undefined || !(last in TAKES))));
  const field = isSettings ? 'settings' : last;
  if (field === 'settings') return ` (a feed's settings: url, restUrl, instruments, symbols, credentials, silentMs, backoffMinMs, backoffMaxMs)`;
  const takes = field === undefined ? undefined : TAKES[field];
  return takes === undefined ? '' : ` (${field} takes ${takes})`;
}

/** Settings for one venue feed, ready for createVenueFeed. */
export interface VenueFeedPlan {
  protocol: VenueProtocol;
  settings: VenueFeedSettings;
}

/** Reads and checks the file against the schema; throws UsageError naming the field. */
export function readFeedsFile(file: string): FeedsFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read feeds file ${file}: ${(err as Error).message}`);
  }
  if (!Value.Check(FeedsFileSchema, json)) {
    const errors = [...Value.Errors(FeedsFileSchema, json)].slice(0, 10).map((e) => `${e.path || '/'}: ${e.message}${takesAt(e.path)}`);
    throw new UsageError(`feeds file ${file} is not valid:\n  ${errors.join('\n  ')}`);
  }
  return json;
}

/**
 * The venue feeds to run: each id of `feedIds` other than `sim` must be a registered protocol;
 * each feed in the file must be one of `feedIds`. Instruments are mapped to venue symbols here
 * (explicit venueSymbol, then the file's `symbols`, then the protocol's mapping), and each
 * credential is read from its environment variable. Throws UsageError naming what is wrong.
 */
export function planVenueFeeds(feedIds: readonly string[], file: FeedsFile | null, protocols: readonly VenueProtocol[], env: Record<string, string | undefined>, fileName = 'feeds file'): VenueFeedPlan[] {
  const available = ['sim', ...protocols.map((p) => p.id)];
  for (const id of feedIds) {
    if (id !== 'sim' && !protocols.some((p) => p.id === id)) throw new UsageError(`--feed: no feed ${JSON.stringify(id)}; the feeds are ${available.join(', ')} (or 'none'); 'mds feeds' describes them`);
  }
  for (const id of Object.keys(file?.feeds ?? {})) {
    if (id === 'sim') throw new UsageError(`${fileName}: /feeds/sim: the simulator takes its settings from the serve flags (--seed, --sim-rate, --history-days), not from the feeds file`);
    if (!feedIds.includes(id)) throw new UsageError(`${fileName}: /feeds/${id}: ${available.includes(id) ? `${id} is not among --feed (${feedIds.join(',')}); add it there or remove its settings` : `no feed ${JSON.stringify(id)}; the feeds are ${available.join(', ')}`}`);
  }
  return feedIds
    .filter((id) => id !== 'sim')
    .map((id) => {
      const protocol = protocols.find((p) => p.id === id)!;
      const given = file?.feeds[id] ?? {};
      const at = `${fileName}: /feeds/${id}`;
      const overrides = given.symbols ?? {};
      const mapped = (symbol: string, explicit: string | undefined, where: string): string => {
        const venueSymbol = explicit ?? overrides[symbol] ?? protocol.venueSymbolOf(symbol);
        if (venueSymbol === null) throw new UsageError(`${where}: ${id} has no venue symbol for ${JSON.stringify(symbol)}; give it as {"symbol": ${JSON.stringify(symbol)}, "venueSymbol": "..."} or in "symbols"`);
        return venueSymbol;
      };
      const instruments: FeedInstrument[] =
        given.instruments === undefined
          ? protocol.defaultInstruments.map((inst) => ({ ...inst, venueSymbol: overrides[inst.symbol] ?? inst.venueSymbol }))
          : given.instruments.map((inst, i) => {
              const where = `${at}/instruments/${i}`;
              if (typeof inst === 'string') return { assetClass: protocol.assetClass, symbol: inst, venueSymbol: mapped(inst, undefined, where) };
              const known = protocol.defaultInstruments.find((d) => d.symbol === inst.symbol);
              return { assetClass: protocol.assetClass, symbol: inst.symbol, venueSymbol: mapped(inst.symbol, inst.venueSymbol, where), name: inst.name ?? known?.name, decimals: inst.decimals ?? known?.decimals };
            });
      const credentials: Record<string, string> = {};
      for (const name of Object.keys(given.credentials ?? {})) {
        if (!(protocol.credentials ?? []).includes(name)) throw new UsageError(`${at}/credentials/${name}: ${id} takes ${protocol.credentials?.length ? `the credentials ${protocol.credentials.join(', ')}` : 'no credentials'}`);
      }
      for (const name of protocol.credentials ?? []) {
        const variable = given.credentials?.[name] ?? name;
        const value = env[variable];
        // Only the variable's name is ever shown, never its value.
        if (value === undefined || value === '') throw new UsageError(`${at}/credentials/${name}: ${id} needs the environment variable ${variable} set (its credential ${name})`);
        credentials[name] = value;
      }
      const settings: VenueFeedSettings = { instruments, credentials };
      if (given.url !== undefined) settings.url = given.url;
      if (given.restUrl !== undefined) {
        if (protocol.corporateActions === undefined) throw new UsageError(`${at}/restUrl: ${id} fetches nothing over REST; restUrl is for the keyed stock feeds (massive, alpaca)`);
        settings.restUrl = given.restUrl;
      }
      if (given.silentMs !== undefined) settings.silentMs = given.silentMs;
      if (given.backoffMinMs !== undefined) settings.backoffMinMs = given.backoffMinMs;
      if (given.backoffMaxMs !== undefined) settings.backoffMaxMs = given.backoffMaxMs;
      if ((settings.backoffMinMs ?? 0) > (settings.backoffMaxMs ?? Infinity)) throw new UsageError(`${at}/backoffMinMs: must not exceed backoffMaxMs`);
      return { protocol, settings };
    });
}
