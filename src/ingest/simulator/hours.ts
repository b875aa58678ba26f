// Which market calendar says when a simulated instrument trades: stocks their own exchange,
// indices their home exchange's cash session, the other classes their class market.
import type { InstrumentSpec } from '../../domain/instrument.ts';

export function calendarOf(spec: Pick<InstrumentSpec, 'assetClass' | 'market'>): string {
  switch (spec.assetClass) {
    case 'stocks':
    case 'indices':
      return spec.market ?? 'US';
    case 'crypto':
      return 'CRYPTO';
    case 'forex':
      return 'FOREX';
    case 'etfs':
      return 'ETFS';
    case 'commodities':
      return 'COMMODITIES';
    case 'perpetuals':
      return 'CRYPTO';
    case 'overnight':
      return 'OVERNIGHT';
  }
}
