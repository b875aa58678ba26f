// The built-in instrument catalog: every instrument the service knows without configuration, with the
// reference parameters the simulator prices it with. The data lives in one file per asset class.
// Perpetual futures are a list of their own: the ingest path consolidates them as composites.
// The overnight lines too: they repeat US stock and ETF names as series of their own.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import { COMMODITIES } from './commodities.ts';
import { CRYPTO } from './crypto.ts';
import { ETFS } from './etfs.ts';
import { FOREX } from './forex.ts';
import { INDICES } from './indices.ts';
import { OVERNIGHT_LINES } from './overnight.ts';
import { PERPETUALS } from './perpetuals.ts';
import { STOCKS } from './stocks.ts';

export { COMMODITIES, CRYPTO, ETFS, FOREX, INDICES, OVERNIGHT_LINES, PERPETUALS, STOCKS };

export const CATALOG: readonly InstrumentSpec[] = [...CRYPTO, ...FOREX, ...STOCKS, ...INDICES, ...ETFS, ...COMMODITIES];

/** What the simulator feeds through the pipeline: the catalog and the US overnight session's lines. */
export const SIMULATED: readonly InstrumentSpec[] = [...CATALOG, ...OVERNIGHT_LINES];

/** Every instrument the server registers: the catalog, the perpetuals and the overnight lines. */
export const ALL_INSTRUMENTS: readonly InstrumentSpec[] = [...CATALOG, ...PERPETUALS, ...OVERNIGHT_LINES];
