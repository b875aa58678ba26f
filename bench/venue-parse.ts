// Parse throughput of every registered venue protocol on its recorded quote and trade frames
// (issue 14's target: 500,000 frames/s on one core). Standalone and short:
// `npx bun bench/venue-parse.ts [--ms 300] [--venue coinbase,kraken]`; run it pinned
// (`taskset -c 0`) for steadier numbers; each row is the best of three runs. Stateful protocols run through their connection parser.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { VENUE_PROTOCOLS } from '../src/ingest/adapters/registry.ts';
import type { VenueEvent, VenueParser } from '../src/ingest/adapters/venue-protocol.ts';

const FIXTURES = join(import.meta.dir, '..', 'test', 'fixtures');

interface Fixture {
  prior?: unknown[];
  frame: unknown;
  events: VenueEvent[] | { type: 'parse-error' };
}

const textOf = (frame: unknown) => (typeof frame === 'string' ? frame : JSON.stringify(frame));

/** Frames per second parsing `frame` over and over for about `ms` milliseconds. */
function measure(parse: VenueParser, frame: string, ms: number): number {
  let frames = 0;
  let sink = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 10_000; i++) {
      const out = parse(frame, 1);
      sink += Array.isArray(out) ? out.length : 1;
    }
    frames += 10_000;
    now = performance.now();
  }
  if (sink < 0) console.log(sink); // keeps the results alive
  return frames / ((now - start) / 1000);
}

const { values } = parseArgs({ options: { ms: { type: 'string', default: '300' }, venue: { type: 'string' } } });
const ms = Number(values.ms);
const only = values.venue ? new Set(values.venue.split(',')) : null;

console.log('venue           fixture                          kind    frames/s');
for (const protocol of VENUE_PROTOCOLS) {
  if (only && !only.has(protocol.id)) continue;
  let files: string[];
  try {
    files = readdirSync(join(FIXTURES, protocol.id)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    continue;
  }
  for (const file of files) {
    const fixture = JSON.parse(readFileSync(join(FIXTURES, protocol.id, file), 'utf8')) as Fixture;
    if (!Array.isArray(fixture.events)) continue;
    const kind = fixture.events.find((e) => e.type === 'quote' || e.type === 'trade')?.type;
    if (kind === undefined) continue;
    const parse = protocol.createParser?.() ?? protocol.parse;
    for (const prior of fixture.prior ?? []) parse(textOf(prior), 1);
    // Best of three: the JIT settles in the first, and a shared machine steals time from some.
    const frame = textOf(fixture.frame);
    const rate = Math.max(measure(parse, frame, ms), measure(parse, frame, ms), measure(parse, frame, ms));
    console.log(`${protocol.id.padEnd(15)} ${file.padEnd(32)} ${kind.padEnd(7)} ${Math.round(rate).toLocaleString('en-US').padStart(10)}`);
  }
}
