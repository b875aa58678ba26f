// The one suite every venue protocol passes: its recorded frames parse to the expected events,
// hostile input never throws, subscriptions respect the venue's batch limit, and its symbol
// mapping agrees with its default instruments.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENUE_PROTOCOLS } from '../../../src/ingest/adapters/registry.ts';
import type { VenueEvent } from '../../../src/ingest/adapters/venue-protocol.ts';

const FIXTURES = join(import.meta.dir, '..', '..', 'fixtures');

/**
 * A fixture file: `test/fixtures/<venue id>/<message>.json` holding
 * `{ "source": where the shape comes from, "recvMs": number, "frame": the frame as sent
 * (an object/array is sent as its JSON text, a string as is), "events": the expected events
 * or { "type": "parse-error" } }`, and optionally `"prior"`: frames the same connection received
 * before (for venues whose frames build on earlier ones, parsed by one `createParser()` parser).
 */
interface Fixture {
  source: string;
  recvMs: number;
  prior?: unknown[];
  frame: unknown;
  events: VenueEvent[] | { type: 'parse-error' };
}

function fixturesOf(id: string): [string, Fixture][] {
  const dir = join(FIXTURES, id);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture]);
}

const textOf = (frame: unknown) => (typeof frame === 'string' ? frame : JSON.stringify(frame));

describe.each(VENUE_PROTOCOLS.map((p) => [p.id, p] as const))('venue protocol %s', (id, protocol) => {
  const fixtures = fixturesOf(id);

  test('has recorded fixtures of a quote and a trade (quotes only where the source has no trades), each naming its source', () => {
    const kinds = new Set(fixtures.flatMap(([, f]) => (Array.isArray(f.events) ? f.events.map((e) => e.type) : [])));
    expect(kinds.has('quote')).toBe(true);
    expect(kinds.has('trade')).toBe(protocol.suppliesTrades !== false);
    for (const [, f] of fixtures) expect(f.source.length).toBeGreaterThan(10);
  });

  test.each(fixtures.map(([name, f]) => [name, f] as const))('parses %s to the recorded events', (_name, fixture) => {
    const parse = protocol.createParser?.() ?? protocol.parse;
    for (const frame of fixture.prior ?? []) parse(textOf(frame), fixture.recvMs);
    const out = parse(textOf(fixture.frame), fixture.recvMs);
    if (!Array.isArray(fixture.events)) expect(Array.isArray(out) ? 'events' : out.type).toBe('parse-error');
    else expect(out).toEqual(fixture.events);
  });

  test('never throws on hostile input', () => {
    // A connection's parser (venues with state) sees every frame in turn, as on a live connection.
    const parsers = protocol.createParser ? [protocol.parse, protocol.createParser()] : [protocol.parse];
    const parseAll = (s: string) => {
      for (const parse of parsers) parse(s, 0);
    };
    const samples = ['', 'null', '[]', '{}', '"x"', '42', '{"data":null}', '{"data":[null]}', '[[[]]]', '{'.repeat(50), 'ping', 'pong'];
    for (const s of samples) expect(() => parseAll(s)).not.toThrow();
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (s) => {
      parseAll(s);
    }), { numRuns: 300 });
    // Real frames with fields removed or mangled.
    for (const [, f] of fixtures) {
      if (typeof f.frame !== 'object' || f.frame === null) continue;
      for (const key of Object.keys(f.frame)) {
        const broken = { ...(f.frame as Record<string, unknown>), [key]: null };
        expect(() => parseAll(JSON.stringify(broken))).not.toThrow();
      }
    }
  });

  test('maps every default instrument both ways', () => {
    expect(protocol.defaultInstruments.length).toBeGreaterThan(0);
    for (const inst of protocol.defaultInstruments) {
      expect(inst.assetClass).toBe(protocol.assetClass);
      expect(protocol.venueSymbolOf(inst.symbol)).toBe(inst.venueSymbol);
    }
  });

  test('subscribe frames are text and name every symbol of the batch', () => {
    const batch = protocol.defaultInstruments.slice(0, protocol.maxSymbolsPerFrame).map((i) => i.venueSymbol);
    const frames = protocol.subscribeFrames(batch, 1);
    expect(frames.length).toBeGreaterThan(0);
    // Case aside: some venues want stream names in lower case (Binance's `btcusdt@bookTicker`).
    const text = frames.join('\n').toLowerCase();
    for (const s of batch) expect(text.includes(s.toLowerCase())).toBe(true);
  });
});
