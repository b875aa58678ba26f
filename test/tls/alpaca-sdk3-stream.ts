// The Alpaca SDK 3 (`alpaca-trade-api-3`, @alpacahq/alpaca-trade-api@3.1.3), unmodified, run as its
// users run it: `data_stream_v2` always dials wss://, here to mds at `dataStreamUrl`, trusting the
// test certificate through NODE_EXTRA_CA_CERTS (read at process start, hence a child process).
// argv: DATA_STREAM_URL KEY SYMBOL. Prints one JSON line per event, exits 0 once a trade and a
// quote have arrived, 1 on an SDK error.
import Alpaca from 'alpaca-trade-api-3';

const [dataStreamUrl, keyId, symbol] = process.argv.slice(2) as [string, string, string];
const alpaca = new Alpaca({ keyId, secretKey: 'unused', dataStreamUrl, feed: 'iex' });
const stream = alpaca.data_stream_v2;
const print = (event: string, value: unknown) => process.stdout.write(`${JSON.stringify({ event, value })}\n`);
let trade = false;
let quote = false;
const maybeDone = () => {
  if (!trade || !quote) return;
  stream.disconnect();
  process.exit(0);
};
stream.onConnect(() => {
  print('connected', stream.session.url);
  stream.subscribeForTrades([symbol]);
  stream.subscribeForQuotes([symbol]);
});
stream.onError((err) => {
  print('error', String(err));
  process.exit(1);
});
stream.onStockTrade((t) => {
  print('trade', t);
  trade = true;
  maybeDone();
});
stream.onStockQuote((q) => {
  print('quote', q);
  quote = true;
  maybeDone();
});
stream.connect();
