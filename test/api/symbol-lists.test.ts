// Symbol lists over real HTTP (spec: "Symbol list entries").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { CryptoSymbolsSchema, LegacySymbolsSchema, PlainSymbolsSchema, StockSymbolsSchema } from '../../src/domain/schemas.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--feed', 'none'] });
});
afterAll(() => server.stop());

const sortedBy = <T>(rows: T[], key: (row: T) => string) => rows.every((row, i) => i === 0 || key(rows[i - 1]!) <= key(row));

describe('symbol lists', () => {
  test('stocks: {symbols:[{symbol, base_symbol, market, name}]} sorted by market then symbol', async () => {
    const { body } = await server.json('/stocks/symbols');
    expect(Value.Check(StockSymbolsSchema, body)).toBe(true);
    expect(body.symbols.length).toBeGreaterThanOrEqual(100);
    expect(sortedBy(body.symbols, (s: { market: string; symbol: string }) => `${s.market}\u0000${s.symbol}`)).toBe(true);
    for (const s of body.symbols) expect(s.symbol).toBe(`${s.market}:${s.base_symbol}`);
    expect(new Set(body.symbols.map((s: { market: string }) => s.market))).toEqual(new Set(['CH', 'DE', 'ES', 'FR', 'GB', 'HK', 'IT', 'JP', 'NL', 'US']));
  });

  test('stocks: ?market filters to one market (case-insensitive); a malformed market is a 400', async () => {
    const { body } = await server.json('/stocks/symbols?market=de');
    expect(body.symbols.length).toBeGreaterThan(5);
    expect(body.symbols.every((s: { market: string }) => s.market === 'DE')).toBe(true);
    expect((await server.json('/stocks/symbols?market=ZZ')).body).toEqual({ symbols: [] });
    const bad = await server.json('/stocks/symbols?market=GERMANY');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('two-letter market code');
  });

  test('crypto: {data:[{symbol, name, type:"crypto"}], count} sorted', async () => {
    const { body } = await server.json('/crypto/symbols');
    expect(Value.Check(CryptoSymbolsSchema, body)).toBe(true);
    expect(body.count).toBe(body.data.length);
    expect(body.count).toBeGreaterThanOrEqual(20);
    expect(sortedBy(body.data, (s: { symbol: string }) => s.symbol)).toBe(true);
  });

  test.each(['forex', 'indices', 'etfs', 'commodities'])('%s: {symbols:[{symbol, name}]} sorted, no count', async (cls) => {
    const { body } = await server.json(`/${cls}/symbols`);
    expect(Value.Check(PlainSymbolsSchema, body)).toBe(true);
    expect(sortedBy(body.symbols, (s: { symbol: string }) => s.symbol)).toBe(true);
  });

  test('forex lists 30 pairs and no raw lines; indices the nine codes; ETFs the spec codes under both mounts', async () => {
    const forex = (await server.json('/forex/symbols')).body.symbols.map((s: { symbol: string }) => s.symbol);
    expect(forex.length).toBe(30);
    expect(forex.some((s: string) => s.includes('.'))).toBe(false);
    const indices = (await server.json('/indices/symbols')).body.symbols.map((s: { symbol: string }) => s.symbol);
    expect(indices).toEqual(['DE40', 'EU50', 'FR40', 'HK50', 'JP225', 'UK100', 'US100', 'US30', 'US500']);
    const etfs = (await server.json('/etfs/symbols')).body;
    expect(etfs.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(expect.arrayContaining(['US500ETF', 'US100ETF', 'USBOND', 'USGOLD', 'WORLDETF']));
    expect((await server.json('/v1/etfs/symbols')).body).toEqual(etfs);
  });

  test('commodities list canonical symbols only, never aliases', async () => {
    const symbols = (await server.json('/commodities/symbols')).body.symbols.map((s: { symbol: string }) => s.symbol);
    expect(symbols).toEqual(expect.arrayContaining(['XAUUSD', 'XAGUSD', 'WTIUSD', 'BRENTUSD', 'NGASUSD', 'COPPERUSD', 'SUGARUSD', 'CANOLAUSD', 'CORNUSD']));
    for (const alias of ['USOILUSD', 'CL1', 'XBRUSD', 'BZUSD', 'HG1']) expect(symbols).not.toContain(alias);
  });

  test('legacy /symbols merges crypto, forex, commodities, ETFs and indices, without stocks', async () => {
    const { body } = await server.json('/symbols');
    expect(Value.Check(LegacySymbolsSchema, body)).toBe(true);
    expect(body.count).toBe(body.symbols.length);
    expect(new Set(body.symbols.map((s: { asset: string }) => s.asset))).toEqual(new Set(['crypto', 'forex', 'commodities', 'etfs', 'indices']));
    expect(body.symbols.some((s: { symbol: string }) => s.symbol.includes(':'))).toBe(false);
  });
});
