// The writer of the full-disk loop test (test/store/full-disk-reopen.test.ts), a child process so
// it can be stopped by SIGTERM or killed by SIGKILL at any moment. It opens the store in argv[2]
// (through the store-file check, as every command does) and first reads back everything stored,
// touching every bar and tick page (a page LMDB cannot read would kill it with SIGBUS), then
// writes quotes, trades and 1-minute bars for SYMBOLS symbols until stopped. Lines on stdout:
//   opened <quote seq> <trade seq> <bars> <ok|bad>   the least over all symbols; bad: a gap, a
//                                                    duplicate or a wrong value among the bars
//   ack <quote seq> <trade seq> <bars>               all of that, for every symbol, is durable
//   failing                                          commits fail (once)
//   stopped <complete>                               after SIGTERM: store closed, then exit 0
import { BAR_FIELDS, Store } from '../../src/store/index.ts';

const SYMBOLS = 40;
const BASE_MS = Date.parse('2026-01-05T00:00:00Z');
const MINUTE = 60_000;

/** The price a symbol's bar `index` holds: the check that bars read back are the ones written. */
function priceOf(symId: number, index: number): number {
  return symId * 1000 + (index % 997);
}

const store = Store.open({ dataDir: process.argv[2]!, ringCapacity: 512, flushIntervalMs: 5, retryCheckMs: 20, nowMs: Date.now });

let quoteSeq = Infinity;
let tradeSeq = Infinity;
let bars = Infinity;
let isWhole = true;
for (let symId = 1; symId <= SYMBOLS; symId++) {
  const latest = store.latest(symId);
  quoteSeq = Math.min(quoteSeq, latest?.quoteSeq ?? 0);
  tradeSeq = Math.min(tradeSeq, latest?.tradeSeq ?? 0);
  const slice = store.barsInRange(symId, '1m', BASE_MS, BASE_MS + 1e12);
  for (let i = 0; i < slice.count; i++) {
    const t = slice.data[i * BAR_FIELDS]!;
    const c = slice.data[i * BAR_FIELDS + 4]!;
    if (t !== BASE_MS + i * MINUTE || c !== priceOf(symId, i)) isWhole = false;
  }
  bars = Math.min(bars, slice.count);
  for (const kind of ['quote', 'trade'] as const) store.ticksSince(symId, kind, 0, 512);
}
console.log(`opened ${quoteSeq} ${tradeSeq} ${bars} ${isWhole ? 'ok' : 'bad'}`);

let nextBar = bars;
let isStopping = false;
let isFlushing = false;
let saidFailing = false;

function writeRound(): void {
  const ts = BASE_MS + nextBar * MINUTE;
  for (let symId = 1; symId <= SYMBOLS; symId++) {
    store.appendQuote(symId, ts, 100, 101, 1, 1);
    store.appendTrade(symId, ts, 100.5, 2);
    const p = priceOf(symId, nextBar);
    store.appendBar(symId, '1m', { t: ts, o: p, h: p, l: p, c: p, v: 1 });
  }
  nextBar++;
}

function ackWhenDurable(): void {
  if (isFlushing || store.writeStatus().failure !== null) return;
  isFlushing = true;
  const s = store.latest(1)!;
  const acked = `ack ${s.quoteSeq} ${s.tradeSeq} ${nextBar}`;
  store.flush().then(
    () => {
      isFlushing = false;
      if (!isStopping) console.log(acked);
    },
    () => {
      isFlushing = false;
    },
  );
}

const timer = setInterval(() => {
  if (isStopping) return;
  writeRound();
  ackWhenDurable();
  if (!saidFailing && store.writeStatus().failure !== null) {
    saidFailing = true;
    console.log('failing');
  }
}, 2);

process.on('SIGTERM', () => {
  isStopping = true;
  clearInterval(timer);
  void store.close().then((isComplete) => {
    console.log(`stopped ${isComplete}`);
    process.exit(0);
  });
});
