// Prints the first quotes of a symbol from the mds WebSocket stream, then exits: the smallest
// client of the stream protocol (docs/stream.md), used by the README's tour.
//
//   KEY=<api key> npx bun examples/stream.ts ws://localhost:8080 crypto.quotes BTCUSD [count]
//
// Prints every frame it gets (ready, subscribed, quotes) as one JSON line each and exits 0 after
// `count` quotes (default 1); exits 1 on an error frame, a close, or no quote within 15 s.

const [url = 'ws://localhost:8080', channel = 'crypto.quotes', symbol = 'BTCUSD', countArg = '1'] = process.argv.slice(2);
const key = process.env.KEY ?? process.env.MDS_API_KEY;
if (!key) {
  console.error('set KEY to an API key (the development key mds prints at start)');
  process.exit(2);
}
const wanted = Number(countArg);
let seen = 0;

const ws = new WebSocket(`${url}/?apiKey=${encodeURIComponent(key)}`);
const timer = setTimeout(() => fail(`no ${channel} message for ${symbol} within 15 s`), 15_000);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

ws.onopen = () => ws.send(JSON.stringify({ action: 'subscribe', channels: [channel], symbols: [symbol], snapshot: true, id: 1 }));
ws.onmessage = (event) => {
  const text = String(event.data);
  console.log(text);
  const frame = JSON.parse(text) as { type: string; message?: string };
  if (frame.type === 'error') fail(`error frame: ${frame.message}`);
  if ((frame.type === 'quote' || frame.type === 'trade') && ++seen >= wanted) {
    clearTimeout(timer);
    ws.close(1000);
    process.exit(0);
  }
};
ws.onclose = (event) => fail(`closed: ${event.code} ${event.reason}`);
