import { describe, expect, test } from 'bun:test';
import { ASSET_CLASSES, registryKeyOf, type AssetClass } from '../../src/domain/asset-classes.ts';
import type { InstrumentSpec } from '../../src/domain/instrument.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';

function ofClass(assetClass: AssetClass): InstrumentSpec[] {
  return ALL_INSTRUMENTS.filter((s) => s.assetClass === assetClass);
}

function symbolsOf(assetClass: AssetClass): string[] {
  return ofClass(assetClass).map((s) => s.symbol);
}

const SYMBOL_FORMAT: Record<AssetClass, RegExp> = {
  crypto: /^[A-Z0-9]{2,10}USD$/,
  forex: /^[A-Z]{6}$/,
  stocks: /^[A-Z]{2}:[A-Z0-9.]{1,12}$/,
  indices: /^[A-Z0-9]{2,10}$/,
  etfs: /^[A-Z0-9]{2,12}$/,
  commodities: /^[A-Z0-9]{1,9}USD$/,
  perpetuals: /^[A-Z0-9]{1,12}USDT$/,
  overnight: /^(US:[A-Z0-9.]{1,12}|[A-Z0-9]{2,12})$/,
};

const SPEC_INDICES: Record<string, string> = {
  US500: 'US', US100: 'US', US30: 'US', DE40: 'DE', EU50: 'DE', JP225: 'JP', HK50: 'HK', UK100: 'GB', FR40: 'FR',
};
const SPEC_ETFS = ['US500ETF', 'US100ETF', 'USBOND', 'USGOLD', 'WORLDETF'];
const SPEC_COMMODITIES = ['XAUUSD', 'XAGUSD', 'WTIUSD', 'BRENTUSD', 'NGASUSD', 'COPPERUSD', 'SUGARUSD', 'CANOLAUSD', 'CORNUSD'];
const SPEC_ALIASES: Record<string, string> = {
  USOILUSD: 'WTIUSD', CL1: 'WTIUSD', XBRUSD: 'BRENTUSD', BZUSD: 'BRENTUSD', HG1: 'COPPERUSD',
};

describe('instrument catalog', () => {
  test('every entry belongs to a known asset class and every class is populated', () => {
    for (const spec of ALL_INSTRUMENTS) expect(ASSET_CLASSES).toContain(spec.assetClass);
    for (const assetClass of ASSET_CLASSES) expect(ofClass(assetClass).length).toBeGreaterThan(0);
  });

  test('symbols are unique across the whole catalog, aliases included (overnight lines in their own namespace)', () => {
    const seen = new Set<string>();
    const duplicates: string[] = [];
    for (const spec of ALL_INSTRUMENTS) {
      for (const code of [spec.symbol, ...(spec.aliases ?? [])].map((c) => registryKeyOf(spec.assetClass, c))) {
        if (seen.has(code)) duplicates.push(code);
        seen.add(code);
      }
    }
    expect(duplicates).toEqual([]);
  });

  test('every symbol matches its class format', () => {
    const bad = ALL_INSTRUMENTS.filter((s) => !SYMBOL_FORMAT[s.assetClass].test(s.symbol)).map((s) => s.symbol);
    expect(bad).toEqual([]);
  });

  test('stocks: baseSymbol and market agree with the CC: prefix', () => {
    for (const spec of ofClass('stocks')) {
      const [prefix, ticker] = spec.symbol.split(':');
      expect(spec.market).toBe(prefix);
      expect(spec.baseSymbol).toBe(ticker);
    }
  });

  test('only stocks carry baseSymbol / depositary flags, only commodities carry aliases', () => {
    for (const spec of ALL_INSTRUMENTS) {
      if (spec.assetClass !== 'stocks') {
        expect(spec.baseSymbol).toBeUndefined();
        expect(spec.isDepositaryReceipt).toBeUndefined();
      }
      if (spec.assetClass !== 'commodities') expect(spec.aliases).toBeUndefined();
    }
  });

  test('crypto: at least 20 USD-quoted pairs including the usual majors', () => {
    const symbols = symbolsOf('crypto');
    expect(symbols.length).toBeGreaterThanOrEqual(20);
    for (const s of ['BTCUSD', 'ETHUSD', 'SOLUSD', 'XRPUSD', 'ADAUSD', 'DOGEUSD']) expect(symbols).toContain(s);
    for (const spec of ofClass('crypto')) expect(spec.name).toMatch(/ \/ US Dollar$/);
  });

  test('forex: exactly 30 pairs with majors, crosses and emerging-market pairs', () => {
    const symbols = symbolsOf('forex');
    expect(symbols.length).toBe(30);
    for (const s of ['EURUSD', 'GBPUSD', 'USDJPY', 'USDCHF', 'AUDUSD', 'USDCAD', 'NZDUSD']) expect(symbols).toContain(s);
    for (const s of ['EURGBP', 'EURJPY', 'GBPJPY', 'EURCHF', 'AUDJPY']) expect(symbols).toContain(s);
    for (const s of ['USDMXN', 'USDZAR', 'USDTRY', 'USDBRL', 'USDINR', 'USDPLN', 'USDHUF', 'USDCNH', 'USDSGD', 'USDHKD']) {
      expect(symbols).toContain(s);
    }
    for (const spec of ofClass('forex')) {
      expect(spec.name).toMatch(/^.+ \/ .+$/);
      expect(spec.lotSize).toBe(1_000_000);
      if (spec.symbol.endsWith('JPY')) expect(spec.decimals).toBe(3);
    }
  });

  test('stocks: at least 100, covering US DE GB FR ES JP HK', () => {
    const stocks = ofClass('stocks');
    expect(stocks.length).toBeGreaterThanOrEqual(100);
    const perMarket = new Map<string, number>();
    for (const spec of stocks) perMarket.set(spec.market ?? '', (perMarket.get(spec.market ?? '') ?? 0) + 1);
    expect(perMarket.get('US') ?? 0).toBeGreaterThanOrEqual(35);
    for (const market of ['DE', 'GB', 'FR', 'ES', 'JP', 'HK']) expect(perMarket.get(market) ?? 0).toBeGreaterThanOrEqual(8);
    for (const s of ['US:AAPL', 'DE:SAP', 'GB:HSBA', 'FR:MC', 'ES:SAN', 'JP:7203', 'HK:700']) expect(symbolsOf('stocks')).toContain(s);
  });

  test('stocks: depositary receipts are marked on US listings', () => {
    const drs = ofClass('stocks').filter((s) => s.isDepositaryReceipt === true);
    expect(drs.filter((s) => s.market === 'US').length).toBeGreaterThanOrEqual(3);
    for (const s of ['US:TSM', 'US:BABA']) expect(drs.map((d) => d.symbol)).toContain(s);
    expect(ofClass('stocks').find((s) => s.symbol === 'US:AAPL')?.isDepositaryReceipt).toBeUndefined();
  });

  test('indices: exactly the nine bare codes with their home markets', () => {
    const indices = ofClass('indices');
    expect(indices.map((s) => s.symbol).sort()).toEqual(Object.keys(SPEC_INDICES).sort());
    for (const spec of indices) {
      expect(spec.symbol).not.toContain(':');
      expect(spec.market).toBe(SPEC_INDICES[spec.symbol]);
    }
  });

  test("etfs: the spec's codes plus further curated codes, US market, generic names", () => {
    const etfs = ofClass('etfs');
    for (const s of SPEC_ETFS) expect(etfs.map((e) => e.symbol)).toContain(s);
    expect(etfs.length).toBeGreaterThanOrEqual(SPEC_ETFS.length + 7);
    for (const spec of etfs) {
      expect(spec.market).toBe('US');
      expect(spec.name).toMatch(/ETF$/);
    }
  });

  test("commodities: the spec's nine codes with the spec's alias mapping", () => {
    const commodities = ofClass('commodities');
    for (const s of SPEC_COMMODITIES) expect(commodities.map((c) => c.symbol)).toContain(s);
    const aliasMap: Record<string, string> = {};
    for (const spec of commodities) for (const alias of spec.aliases ?? []) aliasMap[alias] = spec.symbol;
    expect(aliasMap).toEqual(SPEC_ALIASES);
    for (const spec of commodities) expect(spec.market).toBe('COMMODITIES');
    const sugar = commodities.find((c) => c.symbol === 'SUGARUSD');
    expect(sugar?.price).toBeGreaterThan(5);
    expect(sugar?.price).toBeLessThan(50);
  });

  test('parameters are in range for every entry', () => {
    for (const spec of ALL_INSTRUMENTS) {
      const where = `${spec.assetClass} ${spec.symbol}`;
      expect(spec.name.trim().length, where).toBeGreaterThan(0);
      expect(spec.price, where).toBeGreaterThan(0);
      expect(spec.volAnnual, where).toBeGreaterThan(0);
      expect(spec.volAnnual, where).toBeLessThan(3);
      expect(spec.spreadBps, where).toBeGreaterThan(0);
      expect(spec.spreadBps, where).toBeLessThan(200);
      expect(Number.isInteger(spec.decimals), where).toBe(true);
      expect(spec.decimals, where).toBeGreaterThanOrEqual(0);
      expect(spec.decimals, where).toBeLessThanOrEqual(8);
      expect(spec.lotSize, where).toBeGreaterThan(0);
    }
  });

  test('price is representable at its decimals and the spread spans at least one tick', () => {
    for (const spec of ALL_INSTRUMENTS) {
      const where = `${spec.assetClass} ${spec.symbol}`;
      const tick = 10 ** -spec.decimals;
      expect(Math.abs(Number(spec.price.toFixed(spec.decimals)) - spec.price), where).toBeLessThan(tick / 2);
      expect((spec.price * spec.spreadBps) / 10_000, where).toBeGreaterThanOrEqual(tick * (1 - 1e-9));
    }
  });
});
