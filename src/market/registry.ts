// The table of every market calendar by code, and the lookups the rest of the module uses.
import { ApiError } from '../domain/errors.ts';
import { AMERICAS } from './calendars/americas.ts';
import { ASIA_PACIFIC } from './calendars/asia-pacific.ts';
import { CLASS_MARKETS } from './calendars/class-markets.ts';
import { EUROPE } from './calendars/europe.ts';
import { MIDDLE_EAST_AFRICA } from './calendars/middle-east-africa.ts';
import type { MarketDefinition, MarketInfo } from './types.ts';

const DEFINITIONS: ReadonlyMap<string, MarketDefinition> = new Map(
  [...AMERICAS, ...EUROPE, ...MIDDLE_EAST_AFRICA, ...ASIA_PACIFIC, ...CLASS_MARKETS].map((def) => [def.info.market, def]),
);

export function listMarkets(): MarketInfo[] {
  return [...DEFINITIONS.values()].map((def) => ({ ...def.info }));
}

export function getMarket(code: string): MarketInfo | undefined {
  const def = DEFINITIONS.get(code);
  return def ? { ...def.info } : undefined;
}

export function requireDefinition(code: string): MarketDefinition {
  const def = DEFINITIONS.get(code);
  if (!def) throw new ApiError('NOT_FOUND', `unknown market: ${code}`);
  return def;
}
