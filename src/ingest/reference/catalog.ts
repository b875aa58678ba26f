// The built-in instrument catalog: every instrument the service knows without configuration, with the
// reference parameters the simulator prices it with. The data lives in one file per asset class.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import { COMMODITIES } from './commodities.ts';
import { CRYPTO } from './crypto.ts';
import { ETFS } from './etfs.ts';
import { FOREX } from './forex.ts';
import { INDICES } from './indices.ts';
import { STOCKS } from './stocks.ts';

export { COMMODITIES, CRYPTO, ETFS, FOREX, INDICES, STOCKS };

export const CATALOG: readonly InstrumentSpec[] = [...CRYPTO, ...FOREX, ...STOCKS, ...INDICES, ...ETFS, ...COMMODITIES];
