// Built-in forex pairs: 7 majors, 11 crosses, 2 Scandinavian and 10 emerging-market pairs.
// Decimals are 5 (JPY and HUF pairs 3, USDINR 4); lot size is one million of the base currency.
import type { InstrumentSpec } from '../../domain/instrument.ts';

const CURRENCY_NAMES: Record<string, string> = {
  USD: 'US Dollar', EUR: 'Euro', GBP: 'British Pound', JPY: 'Japanese Yen', CHF: 'Swiss Franc',
  AUD: 'Australian Dollar', CAD: 'Canadian Dollar', NZD: 'New Zealand Dollar', NOK: 'Norwegian Krone',
  SEK: 'Swedish Krona', MXN: 'Mexican Peso', ZAR: 'South African Rand', TRY: 'Turkish Lira',
  BRL: 'Brazilian Real', INR: 'Indian Rupee', PLN: 'Polish Zloty', HUF: 'Hungarian Forint',
  CNH: 'Chinese Yuan (Offshore)', SGD: 'Singapore Dollar', HKD: 'Hong Kong Dollar',
};

function currencyName(code: string): string {
  const name = CURRENCY_NAMES[code];
  if (name === undefined) throw new Error(`forex catalog: no name for currency ${code}`);
  return name;
}

function fx(symbol: string, price: number, volAnnual: number, spreadBps: number, decimals = 5): InstrumentSpec {
  const name = `${currencyName(symbol.slice(0, 3))} / ${currencyName(symbol.slice(3, 6))}`;
  return { symbol, assetClass: 'forex', name, price, volAnnual, spreadBps, decimals, lotSize: 1_000_000 };
}

//  pair         price    vol   bps  dec
export const FOREX: readonly InstrumentSpec[] = [
  // majors
  fx('EURUSD', 1.16, 0.07, 0.5),
  fx('GBPUSD', 1.32, 0.08, 0.7),
  fx('USDJPY', 155.0, 0.1, 0.7, 3),
  fx('USDCHF', 0.8, 0.08, 1.0),
  fx('AUDUSD', 0.655, 0.1, 0.8),
  fx('USDCAD', 1.4, 0.06, 0.8),
  fx('NZDUSD', 0.57, 0.1, 1.2),
  // crosses
  fx('EURGBP', 0.88, 0.06, 1.0),
  fx('EURJPY', 180.0, 0.09, 1.0, 3),
  fx('GBPJPY', 204.0, 0.11, 1.5, 3),
  fx('EURCHF', 0.93, 0.06, 1.2),
  fx('AUDJPY', 101.5, 0.13, 1.5, 3),
  fx('EURAUD', 1.77, 0.09, 1.5),
  fx('EURCAD', 1.63, 0.07, 1.5),
  fx('GBPCHF', 1.06, 0.08, 2.0),
  fx('CADJPY', 110.5, 0.11, 2.0, 3),
  fx('CHFJPY', 194.0, 0.1, 2.0, 3),
  fx('NZDJPY', 88.5, 0.13, 2.0, 3),
  // Scandinavian
  fx('USDNOK', 10.1, 0.11, 3.0),
  fx('USDSEK', 9.5, 0.11, 3.0),
  // emerging markets
  fx('USDMXN', 18.4, 0.12, 4.0),
  fx('USDZAR', 17.3, 0.15, 6.0),
  fx('USDTRY', 43.0, 0.1, 20.0),
  fx('USDBRL', 5.35, 0.15, 8.0),
  fx('USDINR', 88.7, 0.05, 4.0, 4),
  fx('USDPLN', 3.65, 0.1, 5.0),
  fx('USDHUF', 330.0, 0.12, 6.0, 3),
  fx('USDCNH', 7.1, 0.04, 2.0),
  fx('USDSGD', 1.3, 0.05, 2.0),
  fx('USDHKD', 7.78, 0.01, 1.0),
];
