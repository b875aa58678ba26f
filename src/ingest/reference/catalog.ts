// The built-in instrument catalog: every instrument the service knows without configuration, with the
// reference parameters the simulator prices it with. The data lives in one file per asset class.
// Perpetual futures are a list of their own: their venues feed the composites, not the pipeline.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import { COMMODITIES } from './commodities.ts';
import { CRYPTO } from './crypto.ts';
import { ETFS } from './etfs.ts';
import { FOREX } from './forex.ts';
import { INDICES } from './indices.ts';
import { PERPETUALS } from './perpetuals.ts';
import { STOCKS } from './stocks.ts';

export { COMMODITIES, CRYPTO, ETFS, FOREX, INDICES, PERPETUALS, STOCKS };

export const CATALOG: readonly InstrumentSpec[] = [...CRYPTO, ...FOREX, ...STOCKS, ...INDICES, ...ETFS, ...COMMODITIES];

/** Every instrument the server registers: the catalog and the perpetuals. */
export const ALL_INSTRUMENTS: readonly InstrumentSpec[] = [...CATALOG, ...PERPETUALS];
