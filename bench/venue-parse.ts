// Hot path: venue frame parsing. Every registered protocol's parse() over its recorded book-ticker
// and trade frames (re-aimed at each of its default instruments, so symbols vary), in-process.
// Frames per CPU-second of this process (one core's worth), so a busy shared machine slows the run
// without moving the number much; the wall-clock rate is in the notes.
// Target (issue 14): ≥ 500,000 frames/s on one core for trade and book-ticker frames.
import { VENUE_PROTOCOLS } from '../src/ingest/adapters/registry.ts';
import type { VenueProtocol } from '../src/ingest/adapters/venue-protocol.ts';
import { aim, framesFromFixtures } from '../test/support/local-venue.ts';
import type { BenchContext, Row } from './lib/report.ts';

const TARGET_FRAMES_PER_S = 500_000;
/** Time per measured kind is a tenth of --duration (at least 0.5 s): parsing is steady quickly. */
const SHARE_OF_DURATION = 0.1;

function framePool(protocol: VenueProtocol, kind: 'quote' | 'trade'): string[] {
  const frames = framesFromFixtures(protocol.id);
  const template = kind === 'quote' ? frames.quote : frames.trade;
  if (template === undefined) return [];
  return protocol.defaultInstruments.map((inst, i) => aim(template, inst.venueSymbol, (template.seq ?? 0) + i + 1));
}

/** Frames parsed per second over `seconds`, checking every result so the work cannot be skipped. */
function measure(protocol: VenueProtocol, pool: string[], seconds: number): { framesPerCpuS: number; framesPerWallS: number; frames: number } {
  let frames = 0;
  let events = 0;
  const run = (n: number) => {
    for (let i = 0; i < n; i++) {
      const out = protocol.parse(pool[i % pool.length]!, 1_700_000_000_000);
      if (Array.isArray(out)) events += out.length;
    }
  };
  run(50_000); // warm-up: the JIT settles on the parser
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) {
    run(10_000);
    frames += 10_000;
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const elapsedS = (performance.now() - started) / 1000;
  if (events < frames) throw new Error(`${protocol.id}: ${frames - events} of ${frames} frames gave no event`);
  return { framesPerCpuS: frames / cpuS, framesPerWallS: frames / elapsedS, frames };
}

export async function benchVenueParse(ctx: BenchContext): Promise<Row[]> {
  const seconds = Math.max(0.5, ctx.durationS * SHARE_OF_DURATION);
  const rows: Row[] = [];
  for (const protocol of VENUE_PROTOCOLS) {
    for (const kind of ['quote', 'trade'] as const) {
      const pool = framePool(protocol, kind);
      if (pool.length === 0) continue; // a source without trades
      ctx.log(`venue-parse ${protocol.id} ${kind}: ${pool.length} frames cycled for ${seconds} s`);
      const r = measure(protocol, pool, seconds);
      const label = kind === 'quote' ? 'book ticker' : 'trade';
      rows.push({
        id: `venue-parse.${protocol.id}.${kind}`,
        bench: 'venue-parse',
        label: `parse ${protocol.id} ${label}`,
        unit: 'frames/cpu-s',
        ceiling: null,
        ceilingP50Ms: null,
        ceilingP99Ms: null,
        value: r.framesPerCpuS,
        p50Ms: null,
        p99Ms: null,
        mbPerS: null,
        ratio: null,
        target: `≥${TARGET_FRAMES_PER_S.toLocaleString('en-US')} frames/cpu-s`,
        pass: r.framesPerCpuS >= TARGET_FRAMES_PER_S,
        checkOn: 'value',
        problems: [],
        notes: [`${Math.round(r.framesPerWallS).toLocaleString('en-US')} frames/s of wall-clock time`],
        details: { frames: r.frames, seconds, frames_per_wall_s: r.framesPerWallS, pool: pool.length, bytes_per_frame: Math.round(pool.reduce((s, f) => s + f.length, 0) / pool.length) },
      });
    }
  }
  return rows;
}
