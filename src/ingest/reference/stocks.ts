// Built-in stocks, `CC:TICKER` with the exchange's local ticker. Prices are in the listing currency:
// US USD, DE/FR/ES/NL/IT EUR, GB pence (GBX, as the LSE quotes), JP JPY, HK HKD, CH CHF.
// Levels are approximate recent real levels. `dr` marks depositary receipts (ADRs / foreign DRs).
import type { InstrumentSpec } from '../../domain/instrument.ts';

interface Overrides {
  /** Listed as a depositary receipt. */
  dr?: boolean;
  decimals?: number;
  lotSize?: number;
}

type Listing = (ticker: string, name: string, price: number, spreadBps: number, volAnnual: number, o?: Overrides) => InstrumentSpec;

/** Row builder for one market: `symbol`, `market` and `baseSymbol` are derived from the ticker. */
function listing(market: string, defaults: { decimals: number; lotSize: number }): Listing {
  return (ticker, name, price, spreadBps, volAnnual, o = {}) => {
    const spec: InstrumentSpec = {
      symbol: `${market}:${ticker}`,
      assetClass: 'stocks',
      name,
      market,
      baseSymbol: ticker,
      price,
      volAnnual,
      spreadBps,
      decimals: o.decimals ?? defaults.decimals,
      lotSize: o.lotSize ?? defaults.lotSize,
    };
    if (o.dr) spec.isDepositaryReceipt = true;
    return spec;
  };
}

const us = listing('US', { decimals: 2, lotSize: 100 });
const de = listing('DE', { decimals: 2, lotSize: 100 });
const gb = listing('GB', { decimals: 1, lotSize: 100 });
const fr = listing('FR', { decimals: 2, lotSize: 100 });
const es = listing('ES', { decimals: 2, lotSize: 100 });
const jp = listing('JP', { decimals: 0, lotSize: 100 });
const hk = listing('HK', { decimals: 2, lotSize: 100 });
const nl = listing('NL', { decimals: 2, lotSize: 100 });
const ch = listing('CH', { decimals: 2, lotSize: 100 });
const it = listing('IT', { decimals: 2, lotSize: 100 });

// ticker, issuer name, price, spreadBps, volAnnual, overrides
export const US_STOCKS: readonly InstrumentSpec[] = [
  us('AAPL', 'Apple Inc.', 270, 1, 0.26),
  us('MSFT', 'Microsoft Corporation', 480, 1, 0.24),
  us('NVDA', 'NVIDIA Corporation', 185, 1, 0.48),
  us('AMZN', 'Amazon.com, Inc.', 230, 1, 0.32),
  us('GOOGL', 'Alphabet Inc. (Class A)', 300, 1, 0.3),
  us('META', 'Meta Platforms, Inc.', 640, 1, 0.36),
  us('TSLA', 'Tesla, Inc.', 420, 1, 0.58),
  us('BRK.B', 'Berkshire Hathaway Inc. (Class B)', 500, 2, 0.2),
  us('AVGO', 'Broadcom Inc.', 350, 2, 0.5),
  us('JPM', 'JPMorgan Chase & Co.', 305, 1, 0.24),
  us('V', 'Visa Inc. (Class A)', 335, 1, 0.21),
  us('MA', 'Mastercard Incorporated (Class A)', 560, 2, 0.22),
  us('UNH', 'UnitedHealth Group Incorporated', 330, 2, 0.4),
  us('XOM', 'Exxon Mobil Corporation', 115, 1, 0.24),
  us('JNJ', 'Johnson & Johnson', 200, 1, 0.2),
  us('PG', 'The Procter & Gamble Company', 150, 1, 0.2),
  us('HD', 'The Home Depot, Inc.', 360, 2, 0.24),
  us('COST', 'Costco Wholesale Corporation', 910, 2, 0.22),
  us('LLY', 'Eli Lilly and Company', 1000, 2, 0.34),
  us('ABBV', 'AbbVie Inc.', 225, 2, 0.26),
  us('KO', 'The Coca-Cola Company', 70, 2, 0.2),
  us('PEP', 'PepsiCo, Inc.', 150, 2, 0.22),
  us('MRK', 'Merck & Co., Inc.', 95, 2, 0.28),
  us('WMT', 'Walmart Inc.', 105, 1, 0.22),
  us('BAC', 'Bank of America Corporation', 52, 2, 0.28),
  us('CVX', 'Chevron Corporation', 150, 2, 0.25),
  us('ORCL', 'Oracle Corporation', 220, 2, 0.5),
  us('ADBE', 'Adobe Inc.', 330, 2, 0.35),
  us('CRM', 'Salesforce, Inc.', 240, 2, 0.34),
  us('NFLX', 'Netflix, Inc.', 110, 2, 0.38),
  us('AMD', 'Advanced Micro Devices, Inc.', 230, 2, 0.55),
  us('INTC', 'Intel Corporation', 38, 3, 0.55),
  us('CSCO', 'Cisco Systems, Inc.', 76, 2, 0.24),
  us('DIS', 'The Walt Disney Company', 110, 2, 0.26),
  us('MCD', "McDonald's Corporation", 305, 2, 0.2),
  us('IBM', 'International Business Machines Corporation', 300, 2, 0.28),
  us('QCOM', 'QUALCOMM Incorporated', 170, 2, 0.36),
  us('CAT', 'Caterpillar Inc.', 560, 2, 0.32),
  us('GS', 'The Goldman Sachs Group, Inc.', 800, 2, 0.3),
  us('BA', 'The Boeing Company', 200, 2, 0.38),
  us('PFE', 'Pfizer Inc.', 25, 5, 0.24),
  us('PLTR', 'Palantir Technologies Inc.', 175, 2, 0.6),
  // depositary receipts listed in the US (ASML: New York Registry Shares, treated as a DR)
  us('TSM', 'Taiwan Semiconductor Manufacturing Company Limited', 300, 2, 0.4, { dr: true }),
  us('ASML', 'ASML Holding N.V.', 1050, 2, 0.42, { dr: true }),
  us('BABA', 'Alibaba Group Holding Limited', 160, 2, 0.45, { dr: true }),
  us('NVO', 'Novo Nordisk A/S', 48, 3, 0.45, { dr: true }),
  us('SAP', 'SAP SE', 245, 2, 0.3, { dr: true }),
  us('SONY', 'Sony Group Corporation', 28, 4, 0.3, { dr: true }),
  us('TM', 'Toyota Motor Corporation', 195, 3, 0.25, { dr: true }),
];

export const DE_STOCKS: readonly InstrumentSpec[] = [
  de('SAP', 'SAP SE', 210, 2, 0.3),
  de('SIE', 'Siemens AG', 235, 2, 0.26),
  de('ALV', 'Allianz SE', 360, 2, 0.2),
  de('DTE', 'Deutsche Telekom AG', 27.5, 4, 0.2),
  de('AIR', 'Airbus SE', 205, 3, 0.3),
  de('MBG', 'Mercedes-Benz Group AG', 60, 3, 0.28),
  de('BMW', 'Bayerische Motoren Werke AG', 88, 3, 0.28),
  de('BAS', 'BASF SE', 44, 3, 0.26),
  de('DBK', 'Deutsche Bank AG', 31, 4, 0.34),
  de('MUV2', 'Münchener Rückversicherungs-Gesellschaft AG', 540, 3, 0.2),
  de('IFX', 'Infineon Technologies AG', 36, 3, 0.4),
  de('ADS', 'adidas AG', 165, 3, 0.32),
  de('RHM', 'Rheinmetall AG', 1700, 4, 0.5),
  de('VOW3', 'Volkswagen AG (Preference Shares)', 100, 3, 0.3),
  // ADRs traded on Xetra (same ISINs as the US listings), quoted in EUR
  de('AHLA', 'Alibaba Group Holding Limited', 138, 10, 0.45, { dr: true }),
  de('TSFA', 'Taiwan Semiconductor Manufacturing Company Limited', 258, 8, 0.4, { dr: true }),
];

// LSE TIDMs without the trailing dot (BP., RR. -> BP, RR); prices in pence.
export const GB_STOCKS: readonly InstrumentSpec[] = [
  gb('HSBA', 'HSBC Holdings plc', 1050, 2, 0.22),
  gb('SHEL', 'Shell plc', 2750, 2, 0.22),
  gb('AZN', 'AstraZeneca PLC', 13000, 2, 0.22, { decimals: 0 }),
  gb('ULVR', 'Unilever PLC', 4500, 2, 0.2),
  gb('BP', 'BP p.l.c.', 440, 3, 0.26),
  gb('GSK', 'GSK plc', 1750, 3, 0.22),
  gb('RIO', 'Rio Tinto plc', 5200, 3, 0.28),
  gb('BATS', 'British American Tobacco p.l.c.', 4100, 3, 0.22),
  gb('BARC', 'Barclays PLC', 420, 3, 0.32),
  gb('LLOY', 'Lloyds Banking Group plc', 95, 4, 0.28, { decimals: 2, lotSize: 1000 }),
  gb('VOD', 'Vodafone Group Plc', 90, 4, 0.24, { decimals: 2, lotSize: 1000 }),
  gb('REL', 'RELX PLC', 3400, 3, 0.22),
  gb('LSEG', 'London Stock Exchange Group plc', 8800, 3, 0.24),
  gb('RR', 'Rolls-Royce Holdings plc', 1150, 3, 0.34),
  gb('GLEN', 'Glencore plc', 350, 4, 0.32),
];

export const FR_STOCKS: readonly InstrumentSpec[] = [
  fr('MC', 'LVMH Moët Hennessy Louis Vuitton SE', 620, 2, 0.28),
  fr('OR', "L'Oréal S.A.", 360, 2, 0.22),
  fr('TTE', 'TotalEnergies SE', 55, 2, 0.22),
  fr('SAN', 'Sanofi', 85, 2, 0.22),
  fr('AIR', 'Airbus SE', 205, 2, 0.3),
  fr('BNP', 'BNP Paribas SA', 70, 2, 0.28),
  fr('SU', 'Schneider Electric SE', 235, 2, 0.28),
  fr('AI', "L'Air Liquide S.A.", 170, 2, 0.2),
  fr('RMS', 'Hermès International', 2100, 3, 0.28, { decimals: 1 }),
  fr('KER', 'Kering SA', 320, 3, 0.4),
  fr('DG', 'Vinci SA', 120, 2, 0.2),
  fr('CS', 'AXA SA', 39, 3, 0.22),
  fr('SAF', 'Safran SA', 300, 2, 0.28),
  fr('EL', 'EssilorLuxottica SA', 300, 2, 0.24),
];

export const ES_STOCKS: readonly InstrumentSpec[] = [
  es('SAN', 'Banco Santander, S.A.', 9.0, 3, 0.28, { decimals: 3 }),
  es('BBVA', 'Banco Bilbao Vizcaya Argentaria, S.A.', 18, 3, 0.28, { decimals: 3 }),
  es('ITX', 'Industria de Diseño Textil, S.A.', 50, 3, 0.25),
  es('IBE', 'Iberdrola, S.A.', 17.5, 3, 0.2, { decimals: 3 }),
  es('TEF', 'Telefónica, S.A.', 4.4, 4, 0.22, { decimals: 3 }),
  es('REP', 'Repsol, S.A.', 15, 3, 0.26, { decimals: 3 }),
  es('CABK', 'CaixaBank, S.A.', 9.2, 3, 0.28, { decimals: 3 }),
  es('AMS', 'Amadeus IT Group, S.A.', 68, 3, 0.24),
  es('FER', 'Ferrovial SE', 52, 3, 0.22),
  es('AENA', 'Aena S.M.E., S.A.', 24, 3, 0.22, { decimals: 3 }),
  es('ACS', 'ACS, Actividades de Construcción y Servicios, S.A.', 75, 3, 0.24),
];

// Tokyo Stock Exchange codes; prices in yen; one trading unit is 100 shares.
export const JP_STOCKS: readonly InstrumentSpec[] = [
  jp('7203', 'Toyota Motor Corporation', 3000, 3, 0.26, { decimals: 1 }),
  jp('6758', 'Sony Group Corporation', 4200, 3, 0.3),
  jp('9984', 'SoftBank Group Corp.', 4300, 5, 0.6),
  jp('8306', 'Mitsubishi UFJ Financial Group, Inc.', 2400, 3, 0.3, { decimals: 1 }),
  jp('6861', 'Keyence Corporation', 55000, 4, 0.28),
  jp('8035', 'Tokyo Electron Limited', 33000, 4, 0.45),
  jp('6098', 'Recruit Holdings Co., Ltd.', 8500, 4, 0.32),
  jp('9983', 'Fast Retailing Co., Ltd.', 55000, 4, 0.3),
  jp('7974', 'Nintendo Co., Ltd.', 12500, 3, 0.34),
  jp('6501', 'Hitachi, Ltd.', 4700, 3, 0.34),
  jp('8058', 'Mitsubishi Corporation', 3500, 3, 0.26),
  jp('4063', 'Shin-Etsu Chemical Co., Ltd.', 4700, 3, 0.3),
  jp('7267', 'Honda Motor Co., Ltd.', 1550, 3, 0.28, { decimals: 1 }),
  jp('9432', 'NTT, Inc.', 155, 7, 0.2, { decimals: 1 }),
];

// HKEX stock codes without leading zeros; prices in HKD; lot size = board lot; spreads are tick-bound.
export const HK_STOCKS: readonly InstrumentSpec[] = [
  hk('700', 'Tencent Holdings Limited', 620, 8, 0.35, { lotSize: 100 }),
  hk('9988', 'Alibaba Group Holding Limited', 155, 7, 0.45, { lotSize: 100 }),
  hk('5', 'HSBC Holdings plc', 110, 9, 0.22, { lotSize: 400 }),
  hk('1299', 'AIA Group Limited', 78, 6, 0.28, { lotSize: 200 }),
  hk('941', 'China Mobile Limited', 86, 6, 0.2, { lotSize: 500 }),
  hk('3690', 'Meituan', 100, 12, 0.5, { lotSize: 100 }),
  hk('1810', 'Xiaomi Corporation', 42, 12, 0.5, { lotSize: 200 }),
  hk('388', 'Hong Kong Exchanges and Clearing Limited', 410, 5, 0.32, { lotSize: 100 }),
  hk('939', 'China Construction Bank Corporation', 7.7, 14, 0.24, { lotSize: 1000 }),
  hk('1398', 'Industrial and Commercial Bank of China Limited', 6.1, 17, 0.22, { lotSize: 1000 }),
  hk('2318', 'Ping An Insurance (Group) Company of China, Ltd.', 56, 9, 0.32, { lotSize: 500 }),
  hk('883', 'CNOOC Limited', 20, 12, 0.28, { lotSize: 1000 }),
  hk('9618', 'JD.com, Inc.', 125, 9, 0.45, { lotSize: 50 }),
  hk('1211', 'BYD Company Limited', 100, 12, 0.42, { lotSize: 500 }),
];

export const NL_STOCKS: readonly InstrumentSpec[] = [
  nl('ASML', 'ASML Holding N.V.', 900, 2, 0.42),
  nl('INGA', 'ING Groep N.V.', 21, 3, 0.26, { decimals: 3 }),
  nl('ADYEN', 'Adyen N.V.', 1400, 4, 0.45, { decimals: 1 }),
  nl('PHIA', 'Koninklijke Philips N.V.', 24, 3, 0.28, { decimals: 3 }),
];

export const CH_STOCKS: readonly InstrumentSpec[] = [
  ch('NESN', 'Nestlé S.A.', 80, 2, 0.2),
  ch('NOVN', 'Novartis AG', 105, 2, 0.2),
  ch('ROG', 'Roche Holding AG', 260, 2, 0.22),
  ch('UBSG', 'UBS Group AG', 30, 4, 0.3),
];

export const IT_STOCKS: readonly InstrumentSpec[] = [
  it('ENI', 'Eni S.p.A.', 16, 3, 0.24, { decimals: 3 }),
  it('ISP', 'Intesa Sanpaolo S.p.A.', 5.6, 3, 0.26, { decimals: 3 }),
  it('UCG', 'UniCredit S.p.A.', 65, 3, 0.3),
  it('RACE', 'Ferrari N.V.', 350, 3, 0.3),
];

export const STOCKS: readonly InstrumentSpec[] = [
  ...US_STOCKS,
  ...DE_STOCKS,
  ...GB_STOCKS,
  ...FR_STOCKS,
  ...ES_STOCKS,
  ...JP_STOCKS,
  ...HK_STOCKS,
  ...NL_STOCKS,
  ...CH_STOCKS,
  ...IT_STOCKS,
];
