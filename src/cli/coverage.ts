// `mds coverage SYMBOL...`: the coverage report of `GET /coverage/{class}/{symbol}` read from a data
// dir directly, also while a server runs on it, as a table of ranges and totals (or the route's JSON).
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { systemClock } from '../clock.ts';
import { UsageError } from '../config.ts';
import { coverageBody, storeCoverageSource } from '../api/queries/coverage.ts';
import { ASSET_CLASSES, isAssetClass, type AssetClass } from '../domain/asset-classes.ts';
import type { Coverage } from '../domain/coverage-schema.ts';
import { parseCoverageParams } from '../domain/coverage-params.ts';
import { ApiError } from '../domain/errors.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import { normalizeSymbol } from '../domain/symbols.ts';
import { TIMEFRAMES } from '../domain/timeframes.ts';
import { checkStoreFile, hasStore, Store } from '../store/index.ts';

export const COVERAGE_HELP = `Usage: mds coverage SYMBOL... [options]

Which bar slots of a window inside the market's sessions hold a bar (bars), which have none while
a feed supplying the symbol was live (quiet: nothing traded) and which have neither (gap: no feed,
an import hole, downtime). Reads the data dir directly; works while a server runs on it (what the
server learned in the last ~15 seconds about its feeds may not be on disk yet).

Options:
  --class C          the symbols' asset class: ${ASSET_CLASSES.join(', ')}
                     (default: the first of these that knows the symbol)
  --timeframe TF     the bar size: ${TIMEFRAMES.join(', ')} (default 1m)
  --from YYYY-MM-DD  first UTC date, inclusive (default: the --to date)
  --to YYYY-MM-DD    last UTC date, inclusive (default: today); the window is at most 31 days for
                     1m, 90 for 5m, 180 for 15m, 365 for 1h, 730 for 4h, 5000 for 1d
  --as-of TIME       the instant to report at, ISO 8601 or Unix ms (default now; for a data dir a
                     server ran with --clock-start): slots that end later are left out
  --data-dir DIR     the data dir (default ./data, env MDS_DATA_DIR)
  --json             one line per symbol, the body GET /coverage/{class}/{symbol} answers
  -h, --help         this text
`;

const OPTIONS = {
  class: { type: 'string' },
  timeframe: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  'as-of': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface CoverageIo {
  out(text: string): void;
}

/** The registry entry of a symbol in `assetClass`, or in the first class that has it. */
function findEntry(store: Store, raw: string, assetClass: AssetClass | undefined): SymbolEntry {
  for (const cls of assetClass ? [assetClass] : ASSET_CLASSES) {
    let symbol: string;
    try {
      symbol = normalizeSymbol(cls, raw);
    } catch (err) {
      // Not this class's format: with --class, say why; otherwise try the next class.
      if (assetClass && err instanceof ApiError) throw new UsageError(`${raw}: ${err.message}`);
      continue;
    }
    const entry = store.registry.resolve(cls, symbol);
    if (entry) return entry;
  }
  throw new UsageError(`unknown symbol ${JSON.stringify(raw)}${assetClass ? ` in ${assetClass}` : ' in every class'}`);
}

/** `--as-of`: an ISO 8601 instant with a zone, or Unix ms. */
function parseInstant(raw: string): number {
  const ms = /^\d+$/.test(raw) ? Number(raw) : /(Z|[+-]\d{2}:?\d{2})$/i.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--as-of must be an ISO 8601 instant with a zone (2026-03-04T15:30:00Z) or Unix ms, got ${JSON.stringify(raw)}`);
  return ms;
}

/** `2026-03-04 15:30` (seconds only when there are some), UTC. */
function utcText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.slice(17, 19) === '00' ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

function table(c: Coverage): string {
  const lines = [`${c.symbol} (${c.class}) ${c.timeframe}, ${utcText(c.from)} to ${utcText(c.to)} UTC, classified to ${utcText(c.classified_to)}`];
  if (c.ranges.length === 0) lines.push('  no completed slot inside the sessions of this window');
  else {
    lines.push(`  ${'FROM'.padEnd(19)} ${'TO'.padEnd(19)} ${'KIND'.padEnd(6)} ${'SLOTS'.padStart(6)}`);
    for (const r of c.ranges) lines.push(`  ${utcText(r.from).padEnd(19)} ${utcText(r.to).padEnd(19)} ${r.kind.padEnd(6)} ${String(r.count).padStart(6)}`);
  }
  const t = c.totals;
  lines.push(`  totals: ${t.slots} slots: ${t.bars} bars, ${t.quiet} quiet, ${t.gaps} gaps${t.pending > 0 ? `, ${t.pending} pending (the history build has not reached them yet)` : ''}`);
  return `${lines.join('\n')}\n`;
}

export async function runCoverage(argv: string[], env: Record<string, string | undefined>, io: CoverageIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}\nRun 'mds coverage --help' for the options.`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(COVERAGE_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError("'mds coverage' needs at least one symbol, e.g. mds coverage BTCUSD. Run 'mds coverage --help' for the options.");
  const rawClass = values.class?.trim().toLowerCase();
  if (rawClass !== undefined && !isAssetClass(rawClass)) throw new UsageError(`--class: unknown asset class ${JSON.stringify(values.class)}; classes are ${ASSET_CLASSES.join(', ')}`);
  const nowMs = values['as-of'] === undefined ? systemClock.nowMs() : parseInstant(values['as-of']);
  let params;
  try {
    params = parseCoverageParams({ timeframe: values.timeframe, from: values.from, to: values.to }, nowMs);
  } catch (err) {
    // The route's 400 messages name the option (timeframe, from, to) and what is allowed.
    if (err instanceof ApiError) throw new UsageError(err.message);
    throw err;
  }
  const dataDir = resolve(values['data-dir'] ?? env.MDS_DATA_DIR ?? './data');
  if (!hasStore(dataDir)) throw new UsageError(`no store in ${dataDir}: give the data dir with --data-dir`);
  checkStoreFile(dataDir);
  const store = Store.open({ dataDir });
  try {
    // The bar a server left in progress has prices: its slot is not a gap.
    const source = storeCoverageSource(store, (symId, tf) => store.openBar(symId, tf));
    const entries = positionals.map((raw) => findEntry(store, raw, rawClass as AssetClass | undefined));
    entries.forEach((entry, i) => {
      const body = coverageBody(source, entry, params, nowMs);
      io.out(values.json ? `${JSON.stringify(body)}\n` : `${i > 0 ? '\n' : ''}${table(body)}`);
    });
    return 0;
  } finally {
    await store.close();
  }
}
