// One example per stream message for the AsyncAPI document, in the README's values; a test holds
// each to its frame schema, so the examples cannot drift from the frames.

const READY = {
  type: 'ready',
  session_id: 's1',
  server_time: 1772638200510,
  version: '1.0.0',
  format: 'json',
  slow: 'disconnect',
  channels: ['crypto.quotes', 'crypto.trades', 'forex.quotes', 'forex.trades'],
  limits: { max_subscriptions: 1000, max_connections: 2000, max_frames_per_10s: 100, slow_consumer_bytes: 1048576, heartbeat_ms: 15000, max_replay: 5000 },
};

/** Named examples per message key of the document; the first is the plain case. */
export const STREAM_EXAMPLES: Record<string, { name: string; summary: string; payload: Record<string, unknown> }[]> = {
  subscribe: [
    { name: 'plain', summary: 'one symbol on two channels, with an id to match the ack', payload: { action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['btcusd'], id: 1 } },
    { name: 'resume', summary: 'resume after a reconnect: the last seq seen per channel and symbol', payload: { action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD'], since: { 'crypto.quotes': { BTCUSD: 1064 }, 'crypto.trades': { BTCUSD: 278 } }, id: 2 } },
    { name: 'resumeOneSeq', summary: 'resume with one seq for every pair of the frame', payload: { action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], since: 1064 } },
    { name: 'resumePerSymbol', summary: 'resume with a seq per symbol (one kind per frame)', payload: { action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD', 'ETHUSD'], since: { BTCUSD: 1064, ETHUSD: 1201 } } },
    { name: 'snapshot', summary: 'start with the latest tick of each pair', payload: { action: 'subscribe', channels: ['stocks.quotes'], symbols: ['US:AAPL'], snapshot: true } },
    { name: 'wholeChannel', summary: 'every symbol of a channel', payload: { action: 'subscribe', channels: ['forex.quotes'], symbols: ['*'] } },
  ],
  unsubscribe: [{ name: 'plain', summary: 'end one pair', payload: { action: 'unsubscribe', channels: ['crypto.trades'], symbols: ['BTCUSD'] } }],
  ready: [{ name: 'plain', summary: 'a key whose plan has crypto and forex', payload: READY }],
  subscribed: [
    {
      name: 'plain',
      summary: 'the ack of the plain subscribe',
      payload: { type: 'subscribed', id: 1, replayed: 0, subscriptions: [{ channel: 'crypto.quotes', symbol: 'BTCUSD' }, { channel: 'crypto.trades', symbol: 'BTCUSD' }] },
    },
    {
      name: 'resumed',
      summary: 'after a resume: 37 ticks replayed, no gap',
      payload: {
        type: 'subscribed',
        id: 2,
        replayed: 37,
        replay: [{ channel: 'crypto.quotes', symbol: 'BTCUSD', since: 1064, replayed: 37, first_seq: 1065, gap: false }],
        subscriptions: [{ channel: 'crypto.quotes', symbol: 'BTCUSD' }],
      },
    },
    {
      name: 'gap',
      summary: 'ticks after since are gone: seqs 1065 to 4999 must come from REST',
      payload: { type: 'subscribed', replayed: 5000, replay: [{ channel: 'crypto.quotes', symbol: 'BTCUSD', since: 1064, replayed: 5000, first_seq: 5000, gap: true }], subscriptions: [{ channel: 'crypto.quotes', symbol: 'BTCUSD' }] },
    },
  ],
  unsubscribed: [{ name: 'plain', summary: 'the set left after an unsubscribe', payload: { type: 'unsubscribed', subscriptions: [{ channel: 'crypto.quotes', symbol: 'BTCUSD' }] } }],
  entitlementsChanged: [
    {
      name: 'plain',
      summary: "the key's account no longer has the US market",
      payload: { type: 'unsubscribed', reason: 'entitlements changed', dropped: [{ channel: 'stocks.quotes', symbol: 'US:AAPL', message: 'market US is not enabled for this account' }], subscriptions: [{ channel: 'crypto.quotes', symbol: 'BTCUSD' }] },
    },
  ],
  quote: [
    {
      name: 'plain',
      summary: 'a crypto quote',
      payload: { type: 'quote', channel: 'crypto.quotes', asset: 'crypto', symbol: 'BTCUSD', bid: 95007.84, ask: 95014.96, bid_size: 0.9, ask_size: 0.9, ts: 1772638201021, timestamp: 1772638201021, seq: 3 },
    },
    {
      name: 'composite',
      summary: 'a perpetual futures composite, with its source count',
      payload: { type: 'quote', channel: 'perpetuals.quotes', asset: 'perpetuals', symbol: 'BTCUSDT', bid: 94986.505, ask: 95003.415, bid_size: 2.4, ask_size: 2.9, ts: 1772638204397, timestamp: 1772638204397, source_count: 6, seq: 9 },
    },
    {
      name: 'snapshot',
      summary: 'the latest quote sent on subscribe with snapshot: true',
      payload: { type: 'quote', channel: 'stocks.quotes', asset: 'stocks', symbol: 'US:AAPL', bid: 261.12, ask: 261.15, bid_size: 300, ask_size: 200, ts: 1772638199800, timestamp: 1772638199800, seq: 5120, snapshot: true },
    },
  ],
  trade: [
    {
      name: 'plain',
      summary: 'a crypto trade',
      payload: { type: 'trade', channel: 'crypto.trades', asset: 'crypto', symbol: 'BTCUSD', price: 95009.11, size: 0.016, ts: 1772638201121, timestamp: 1772638201121, seq: 2 },
    },
    {
      name: 'composite',
      summary: 'a print of a source that counts in the perpetual composite',
      payload: { type: 'trade', channel: 'perpetuals.trades', asset: 'perpetuals', symbol: 'BTCUSDT', price: 94812.77, size: 0.15, ts: 1772638204414, timestamp: 1772638204414, source_count: 6, seq: 1 },
    },
  ],
  status: [
    { name: 'stale', summary: 'the last venue feeding BTCUSD died: its last quote stands, no quotes follow', payload: { type: 'status', channel: 'crypto.quotes', asset: 'crypto', symbol: 'BTCUSD', status: 'stale', sources: 0, since: 1772638211021 } },
    { name: 'live', summary: 'a venue quotes BTCUSD again', payload: { type: 'status', channel: 'crypto.quotes', asset: 'crypto', symbol: 'BTCUSD', status: 'live', sources: 1, since: 1772638274310 } },
    { name: 'snapshot', summary: 'sent on subscribe to a line that is already stale, before the ack', payload: { type: 'status', channel: 'forex.quotes', asset: 'forex', symbol: 'EURUSD', status: 'stale', sources: 0, since: 1772638100000, snapshot: true } },
  ],
  conflated: [
    {
      name: 'plain',
      summary: 'a `?slow=conflate` connection backed up for 2.4 s: 3,120 quotes replaced by newer ones; the newest quote of each of the 14 lines that moved follows',
      payload: { type: 'conflated', dropped: 3120, quotes: 14, since: 1772638212100, ts: 1772638214500 },
    },
  ],
  lag: [
    {
      name: 'disconnect',
      summary: 'a connection with the default policy has 600 kB unsent of its 1 MiB bound, falling behind for 0.35 s: it gets a 4008 close if it stays behind',
      payload: { type: 'lag', unsent_bytes: 600_112, limit_bytes: 1_048_576, slow: 'disconnect', lag_ms: 350, ts: 1772638212450 },
    },
  ],
  heartbeat: [{ name: 'plain', summary: 'every heartbeat_ms', payload: { type: 'heartbeat', ts: 1772638215000 } }],
  error: [
    { name: 'badJson', summary: 'a frame that is not JSON', payload: { type: 'error', code: 'bad_json', message: 'frame is not valid JSON' } },
    { name: 'forbidden', summary: "a class outside the key's plan, answering frame id 4", payload: { type: 'error', code: 'forbidden', message: 'asset class indices is not included in the free plan', id: 4 } },
    { name: 'unauthorized', summary: "a browser's bad key, just before close 4001", payload: { type: 'error', code: 'unauthorized', message: 'invalid API key' } },
  ],
};
