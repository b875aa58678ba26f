// Puts the built-in catalog into the store's registry, plus each forex pair's unlisted raw line.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import type { Store } from '../../store/index.ts';
import { RAW_SUFFIX } from '../pipeline.ts';

export function seedRegistry(store: Store, catalog: readonly InstrumentSpec[]): void {
  const entries = catalog.flatMap((spec) => {
    const entry = {
      symbol: spec.symbol,
      assetClass: spec.assetClass,
      name: spec.name,
      market: spec.market ?? null,
      baseSymbol: spec.baseSymbol ?? null,
      aliases: spec.aliases ?? [],
      listed: true,
      decimals: spec.decimals,
    };
    if (spec.assetClass !== 'forex') return [entry];
    return [entry, { ...entry, symbol: spec.symbol + RAW_SUFFIX, name: `${spec.name} (raw single-venue line)`, listed: false }];
  });
  store.registry.upsert(entries);
}
