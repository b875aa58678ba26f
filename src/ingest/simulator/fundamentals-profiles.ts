// Reference data the simulator's fundamentals start from, for its US, DE, ES and FR stocks:
// issuer country, classification, venue and approximate real share counts. Receipts carry how
// many ordinary shares one receipt stands for. Which listings show which validation case on a
// fresh start is listed in SIM_FUNDAMENTALS_CASES (and in the README).

export interface SimProfile {
  country: string;
  sector: string;
  industry: string;
  /** Listing venue and its MIC. */
  exchange: string;
  mic: string;
  /** Shares outstanding in millions, in listing units (receipts: receipt equivalents). */
  sharesM: number;
  /** Receipts: ordinary shares per receipt. */
  ratio?: number;
  securityType?: string;
}

const NASDAQ = { exchange: 'NASDAQ', mic: 'XNAS' };
const NYSE = { exchange: 'NYSE', mic: 'XNYS' };
const XETRA = { exchange: 'Xetra', mic: 'XETR' };
const PARIS = { exchange: 'Euronext Paris', mic: 'XPAR' };
const MADRID = { exchange: 'BME Spanish Exchanges', mic: 'XMAD' };

type Row = [country: string, sector: string, industry: string, sharesM: number, extra?: Partial<SimProfile>];

function market(venue: { exchange: string; mic: string }, rows: Record<string, Row>, prefix: string): Record<string, SimProfile> {
  const out: Record<string, SimProfile> = {};
  for (const [ticker, [country, sector, industry, sharesM, extra]] of Object.entries(rows)) out[`${prefix}:${ticker}`] = { country, sector, industry, sharesM, ...venue, ...extra };
  return out;
}

const US = 'United States';
const ADR = { securityType: 'ADR' };

export const SIM_PROFILES: Readonly<Record<string, SimProfile>> = {
  ...market(NASDAQ, {
    AAPL: [US, 'Technology', 'Consumer Electronics', 14_900],
    MSFT: [US, 'Technology', 'Software', 7_430],
    NVDA: [US, 'Technology', 'Semiconductors', 24_300],
    AMZN: [US, 'Consumer Cyclical', 'Internet Retail', 10_700],
    GOOGL: [US, 'Communication Services', 'Internet Content & Information', 5_800],
    META: [US, 'Communication Services', 'Internet Content & Information', 2_520],
    TSLA: [US, 'Consumer Cyclical', 'Auto Manufacturers', 3_220],
    AVGO: [US, 'Technology', 'Semiconductors', 4_700],
    COST: [US, 'Consumer Defensive', 'Discount Stores', 443],
    PEP: [US, 'Consumer Defensive', 'Beverages', 1_370],
    WMT: [US, 'Consumer Defensive', 'Discount Stores', 7_980],
    ADBE: [US, 'Technology', 'Software', 420],
    NFLX: [US, 'Communication Services', 'Entertainment', 4_250],
    AMD: [US, 'Technology', 'Semiconductors', 1_620],
    INTC: [US, 'Technology', 'Semiconductors', 4_370],
    CSCO: [US, 'Technology', 'Communication Equipment', 3_950],
    QCOM: [US, 'Technology', 'Semiconductors', 1_090],
    PLTR: [US, 'Technology', 'Software', 2_370],
    ASML: ['Netherlands', 'Technology', 'Semiconductor Equipment & Materials', 393, { ...ADR, ratio: 1 }],
  }, 'US'),
  ...market(NYSE, {
    'BRK.B': [US, 'Financial Services', 'Insurance', 1_380],
    JPM: [US, 'Financial Services', 'Banks', 2_750],
    V: [US, 'Financial Services', 'Credit Services', 1_700],
    MA: [US, 'Financial Services', 'Credit Services', 905],
    UNH: [US, 'Healthcare', 'Healthcare Plans', 905],
    XOM: [US, 'Energy', 'Oil & Gas Integrated', 4_250],
    JNJ: [US, 'Healthcare', 'Drug Manufacturers', 2_410],
    PG: [US, 'Consumer Defensive', 'Household & Personal Products', 2_340],
    HD: [US, 'Consumer Cyclical', 'Home Improvement Retail', 995],
    LLY: [US, 'Healthcare', 'Drug Manufacturers', 897],
    ABBV: [US, 'Healthcare', 'Drug Manufacturers', 1_770],
    KO: [US, 'Consumer Defensive', 'Beverages', 4_300],
    MRK: [US, 'Healthcare', 'Drug Manufacturers', 2_500],
    BAC: [US, 'Financial Services', 'Banks', 7_400],
    CVX: [US, 'Energy', 'Oil & Gas Integrated', 2_000],
    ORCL: [US, 'Technology', 'Software', 2_840],
    CRM: [US, 'Technology', 'Software', 955],
    DIS: [US, 'Communication Services', 'Entertainment', 1_800],
    MCD: [US, 'Consumer Cyclical', 'Restaurants', 714],
    IBM: [US, 'Technology', 'Information Technology Services', 930],
    CAT: [US, 'Industrials', 'Farm & Heavy Construction Machinery', 470],
    GS: [US, 'Financial Services', 'Capital Markets', 307],
    BA: [US, 'Industrials', 'Aerospace & Defense', 756],
    PFE: [US, 'Healthcare', 'Drug Manufacturers', 5_680],
    TSM: ['Taiwan', 'Technology', 'Semiconductors', 5_186, { ...ADR, ratio: 5 }],
    BABA: ['China', 'Consumer Cyclical', 'Internet Retail', 2_388, { ...ADR, ratio: 8 }],
    NVO: ['Denmark', 'Healthcare', 'Drug Manufacturers', 4_440, { ...ADR, ratio: 1 }],
    SAP: ['Germany', 'Technology', 'Software', 1_228, { ...ADR, ratio: 1 }],
    SONY: ['Japan', 'Technology', 'Consumer Electronics', 6_000, { ...ADR, ratio: 1 }],
    TM: ['Japan', 'Consumer Cyclical', 'Auto Manufacturers', 1_300, { ...ADR, ratio: 10 }],
  }, 'US'),
  ...market(XETRA, {
    SAP: ['Germany', 'Technology', 'Software', 1_228],
    SIE: ['Germany', 'Industrials', 'Specialty Industrial Machinery', 790],
    ALV: ['Germany', 'Financial Services', 'Insurance', 385],
    DTE: ['Germany', 'Communication Services', 'Telecom Services', 4_980],
    AIR: ['European Union', 'Industrials', 'Aerospace & Defense', 790],
    MBG: ['Germany', 'Consumer Cyclical', 'Auto Manufacturers', 960],
    BMW: ['Germany', 'Consumer Cyclical', 'Auto Manufacturers', 600],
    BAS: ['Germany', 'Basic Materials', 'Chemicals', 893],
    DBK: ['Germany', 'Financial Services', 'Banks', 1_930],
    MUV2: ['Germany', 'Financial Services', 'Reinsurance', 130],
    IFX: ['Germany', 'Technology', 'Semiconductors', 1_300],
    ADS: ['Germany', 'Consumer Cyclical', 'Footwear & Accessories', 178],
    RHM: ['Germany', 'Industrials', 'Aerospace & Defense', 46],
    VOW3: ['Germany', 'Consumer Cyclical', 'Auto Manufacturers', 206, { securityType: 'Preferred Stock' }],
    AHLA: ['China', 'Consumer Cyclical', 'Internet Retail', 2_388, { ...ADR, ratio: 8 }],
    TSFA: ['Taiwan', 'Technology', 'Semiconductors', 5_186, { ...ADR, ratio: 5 }],
  }, 'DE'),
  ...market(PARIS, {
    MC: ['France', 'Consumer Cyclical', 'Luxury Goods', 500],
    OR: ['France', 'Consumer Defensive', 'Household & Personal Products', 534],
    TTE: ['France', 'Energy', 'Oil & Gas Integrated', 2_200],
    SAN: ['France', 'Healthcare', 'Drug Manufacturers', 1_230],
    AIR: ['Netherlands', 'Industrials', 'Aerospace & Defense', 790],
    BNP: ['France', 'Financial Services', 'Banks', 1_130],
    SU: ['France', 'Industrials', 'Specialty Industrial Machinery', 563],
    AI: ['France', 'Basic Materials', 'Specialty Chemicals', 578],
    RMS: ['France', 'Consumer Cyclical', 'Luxury Goods', 105],
    KER: ['France', 'Consumer Cyclical', 'Luxury Goods', 123],
    DG: ['France', 'Industrials', 'Engineering & Construction', 567],
    CS: ['France', 'Financial Services', 'Insurance', 2_150],
    SAF: ['France', 'Industrials', 'Aerospace & Defense', 417],
    EL: ['France', 'Healthcare', 'Medical Instruments & Supplies', 455],
  }, 'FR'),
  ...market(MADRID, {
    SAN: ['Spain', 'Financial Services', 'Banks', 14_900],
    BBVA: ['Spain', 'Financial Services', 'Banks', 5_760],
    ITX: ['Spain', 'Consumer Cyclical', 'Apparel Retail', 3_117],
    IBE: ['Spain', 'Utilities', 'Renewable Utilities', 6_700],
    TEF: ['Spain', 'Communication Services', 'Telecom Services', 5_670],
    REP: ['Spain', 'Energy', 'Oil & Gas Integrated', 1_160],
    CABK: ['Spain', 'Financial Services', 'Banks', 7_100],
    AMS: ['Spain', 'Technology', 'Information Technology Services', 450],
    FER: ['Netherlands', 'Industrials', 'Infrastructure Operations', 720],
    AENA: ['Spain', 'Industrials', 'Airports & Air Services', 1_500],
    ACS: ['Spain', 'Industrials', 'Engineering & Construction', 272],
  }, 'ES'),
};

/** How a listing's raw record departs from clean data, so each rule of the spec shows. */
export type SimCase =
  /** Receipt reporting the ordinary-share count; float in listing units (holds up on its own). */
  | 'receipt-ordinary-count'
  /** Receipt reporting the ordinary-share count and an ordinary-base float (fraction applied). */
  | 'receipt-ordinary-float'
  /** Receipt reporting the ordinary-share count and a float above it (listing count less insiders). */
  | 'receipt-garbled-float'
  /** Receipt reporting the ordinary-share count and no float. */
  | 'receipt-no-float'
  /** Receipt with a listing-level count and a float 8% over it (estimate from insiders). */
  | 'receipt-float-over'
  /** Count from before a split: count and market cap contradict the price and are both withheld. */
  | 'stale-split-count'
  /** Float over the count by up to 5%: rebuilt as count less insider holdings. */
  | 'float-within-5pct'
  /** Float exactly 5% over the count: still rebuilt. */
  | 'float-exactly-5pct'
  /** Float far over the count (reported on the whole capital): left out. */
  | 'float-far-over'
  /** Float 2% over with no insider ownership reported: cannot be reconciled, left out. */
  | 'float-unreconciled'
  /** A fresh start writes yesterday's set, then today's restatement without short interest. */
  | 'restatement-missing-figure'
  /** Figures the issuer does not report: left out. */
  | 'unreported-fields';

export const SIM_FUNDAMENTALS_CASES: Readonly<Record<string, SimCase>> = {
  'US:TSM': 'receipt-ordinary-count',
  'DE:TSFA': 'receipt-ordinary-float',
  'US:BABA': 'receipt-ordinary-float',
  'US:TM': 'receipt-garbled-float',
  'DE:AHLA': 'receipt-no-float',
  'US:NVO': 'receipt-float-over',
  'US:SONY': 'float-within-5pct',
  'US:NFLX': 'stale-split-count',
  'ES:AENA': 'stale-split-count',
  'FR:RMS': 'float-within-5pct',
  'US:BRK.B': 'float-exactly-5pct',
  'DE:VOW3': 'float-far-over',
  'ES:ACS': 'float-unreconciled',
  'US:INTC': 'restatement-missing-figure',
  'US:PLTR': 'unreported-fields',
};
