// Child process for the kill -9 test in test/store/live.test.ts: appends quotes of symbol 2 (the
// test's formula) with a bar in progress that tracks them, prints `flushed <seq>` once a flush has
// resolved, then keeps appending (flushing on the store's own timer) until it is killed.
import { Store } from '../../src/store/index.ts';

const T0 = Date.UTC(2026, 2, 4, 15, 30);
const store = Store.open({ dataDir: process.argv[2]! });
const bar = { t: T0, o: 1, h: 1, l: 1, c: 1, v: null };
let seq = 0;

function appendSome(n: number): void {
  for (let k = 0; k < n; k++) {
    const i = seq + 1;
    seq = store.appendQuote(2, T0 + i, 100 + i, 101 + i, i % 3 === 0 ? null : i, 2 * i);
    bar.h = seq;
    bar.c = seq;
    store.setOpenBar(2, '1m', bar);
  }
}

for (let round = 0; round < 5; round++) appendSome(1000);
await store.flush();
console.log(`flushed ${seq}`);
for (;;) {
  appendSome(500);
  await new Promise<void>((resolve) => setImmediate(resolve));
}
