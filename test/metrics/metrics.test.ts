// GET /metrics on a real server: the text parses strictly, the REST counters move by exactly the
// requests made, the token guards the main port, the metrics port serves only /metrics, the stream
// counters follow a real WebSocket client, and no key or query string reaches a label.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { parseServeConfig, UsageError } from '../../src/config.ts';
import { delta, scrape, series, type Scrape } from '../support/prometheus.ts';
import { until } from '../support/cli.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

const TOKEN = 'metrics-token-0123456789';
const QUOTE = '/crypto/quote/:symbol';
const requests = (route: string, status: number) => series('mds_http_requests_total', { route, status: String(status) });

describe('metrics port', () => {
  let server: TestServer;
  let metricsUrl: string;
  beforeAll(async () => {
    server = await startServer({ args: ['--metrics-port', '0'] });
    metricsUrl = `http://127.0.0.1:${server.metricsPort}/metrics`;
  });
  afterAll(() => server.stop());

  test('REST counters move by exactly the requests made: by route template and status, 401s, latency per route', async () => {
    const before = await scrape(metricsUrl);
    for (const symbol of ['BTCUSD', 'ETHUSD', 'BTCUSD']) expect((await server.get(`/crypto/quote/${symbol}`)).status).toBe(200);
    expect((await server.get('/crypto/quote/BTCUSD', { key: null })).status).toBe(401);
    expect((await server.get('/crypto/quote/BTCUSD', { key: 'not-a-key-0123456789' })).status).toBe(401);
    expect((await server.get('/no/such/path')).status).toBe(404);
    expect((await server.get('/crypto/quote/NOSUCH')).status).toBe(404);
    const after = await scrape(metricsUrl);

    const moved = Object.fromEntries(
      [...after.values.keys()].filter((k) => k.startsWith('mds_http_requests_total') || k.startsWith('mds_http_auth') || k.startsWith('mds_http_rate') || k.startsWith('mds_http_request_duration_seconds_count')).map((k) => [k, delta(before, after, k)]).filter(([, d]) => d !== 0),
    );
    expect(moved).toEqual({
      [requests(QUOTE, 200)]: 3,
      [requests(QUOTE, 401)]: 2,
      [requests(QUOTE, 404)]: 1,
      [requests('(unmatched)', 404)]: 1,
      mds_http_auth_failures_total: 2,
      [series('mds_http_request_duration_seconds_count', { route: QUOTE })]: 6,
      [series('mds_http_request_duration_seconds_count', { route: '(unmatched)' })]: 1,
    });
    // Every quote took some time, and each bucket holds at least the ones below it.
    expect(delta(before, after, series('mds_http_request_duration_seconds_sum', { route: QUOTE }))).toBeGreaterThan(0);
    expect(delta(before, after, series('mds_http_request_duration_seconds_bucket', { route: QUOTE, le: '+Inf' }))).toBe(6);
  });

  test('every metric has help and a type, and is named mds_*', async () => {
    const s = await scrape(metricsUrl);
    expect(s.families.filter((f) => !f.name.startsWith('mds_') || f.help.length < 10)).toEqual([]);
    const names = s.families.map((f) => f.name);
    for (const name of ['mds_http_requests_total', 'mds_stream_connections', 'mds_feed_state', 'mds_ingest_ticks_total', 'mds_store_flush_duration_seconds', 'mds_store_file_bytes', 'mds_cache_lookups_total', 'mds_process_resident_memory_bytes', 'mds_event_loop_lag_seconds']) {
      expect(names).toContain(name);
    }
  });

  test('the simulator feed is reported live, and ticks and flushes are counted', async () => {
    const s = await scrape(metricsUrl);
    expect(s.values.get(series('mds_feed_state', { feed: 'sim', state: 'live' }))).toBe(1);
    expect(s.values.get(series('mds_feed_up', { feed: 'sim' }))).toBe(1);
    expect(s.values.get(series('mds_ingest_ticks_total', { kind: 'quote' }))).toBeGreaterThan(0);
    expect(s.values.get('mds_store_flush_duration_seconds_count')).toBeGreaterThan(0);
    expect(s.values.get('mds_store_file_bytes')).toBeGreaterThan(0);
    expect(s.values.get(series('mds_process_resident_memory_bytes'))).toBeGreaterThan(0);
  });

  test('a repeated range request is a range body cache hit', async () => {
    // A series that does not tick meanwhile (Tokyo is closed at the server's clock): a body is kept
    // as long as its series' newest and live bars stay as they were, so a BTCUSD tick between the
    // two requests (likely on a busy machine) would make the second a miss too.
    const path = '/stocks/agg/JP:7203/1/minute/2026-03-02/2026-03-03?limit=50';
    const before = await scrape(metricsUrl);
    expect((await server.get(path)).status).toBe(200);
    expect((await server.get(path)).status).toBe(200);
    const after = await scrape(metricsUrl);
    const lookups = (result: string) => delta(before, after, series('mds_cache_lookups_total', { cache: 'range_body', result }));
    // The first may hit too, when an earlier test asked for the same window.
    expect(lookups('hit') + lookups('miss')).toBe(2);
    expect(lookups('hit')).toBeGreaterThanOrEqual(1);
  });

  test('a window of past days stays a cache hit while its series ticks on', async () => {
    const path = '/crypto/agg/BTCUSD/1/minute/2026-03-02/2026-03-03?limit=50';
    expect((await server.get(path)).status).toBe(200);
    // BTCUSD ticks between the two requests: its bar in progress changes, the window does not.
    const tsOf = async () => (await server.json('/crypto/quote/BTCUSD')).body.timestamp as number;
    const seen = await tsOf();
    await until(async () => (await tsOf()) !== seen, 'a new BTCUSD quote');
    const before = await scrape(metricsUrl);
    expect((await server.get(path)).status).toBe(200);
    const after = await scrape(metricsUrl);
    expect(delta(before, after, series('mds_cache_lookups_total', { cache: 'range_body', result: 'hit' }))).toBe(1);
    expect(delta(before, after, series('mds_cache_lookups_total', { cache: 'range_body', result: 'miss' }))).toBe(0);
  });

  test('the metrics port serves /metrics only, and scrapes are not counted as REST requests', async () => {
    const before = await scrape(metricsUrl);
    const other = await fetch(`http://127.0.0.1:${server.metricsPort}/health`);
    expect(other.status).toBe(404);
    const after = await scrape(metricsUrl);
    expect([...after.values.keys()].filter((k) => k.startsWith('mds_http_requests_total') && delta(before, after, k) !== 0)).toEqual([]);
  });

  test('on the main port without a token /metrics answers 404, naming the metrics port', async () => {
    const res = await server.get('/metrics', { key: null });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain('--metrics-port');
  });

  test('no API key, symbol or query string reaches a label', async () => {
    const secret = 'secret-key-in-query-987654';
    await server.get(`/crypto/quote/SOLUSD?apiKey=${secret}`, { key: null });
    await server.get(`/crypto/quote/BTCUSD?apiKey=${TEST_KEY}`, { key: null });
    await server.get(`/nothing/here?apiKey=${secret}&x=1`, { key: null });
    const { text } = await scrape(metricsUrl);
    for (const needle of [secret, TEST_KEY, 'SOLUSD', 'apiKey', '/nothing']) expect(text).not.toContain(needle);
  });

  test('stream counters follow a client that subscribes, receives ticks and leaves', async () => {
    const before = await scrape(metricsUrl);
    {
      await using c = await connect(`ws://127.0.0.1:${server.port}/?apiKey=${TEST_KEY}`);
      await c.next((m) => m.type === 'ready');
      c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD', 'ETHUSD'] });
      await c.next((m) => m.type === 'subscribed');
      await c.next((m) => m.type === 'quote');
      const during = await scrape(metricsUrl);
      expect(during.values.get('mds_stream_connections')).toBe(1);
      expect(during.values.get('mds_stream_subscriptions')).toBe(2);
      expect(delta(before, during, 'mds_stream_connections_opened_total')).toBe(1);
      expect(delta(before, during, 'mds_stream_frames_received_total')).toBe(1);
      // The ready frame and the acknowledgement.
      expect(delta(before, during, series('mds_stream_messages_sent_total', { kind: 'reply' }))).toBe(2);
      expect(delta(before, during, series('mds_stream_messages_sent_total', { kind: 'fanout' }))).toBeGreaterThanOrEqual(1);
      expect(delta(before, during, series('mds_stream_sent_bytes_total', { kind: 'fanout' }))).toBeGreaterThan(0);
    }
    // The client closes without a status code (1005): one close, under that reason.
    const closes = (s: Scrape) => [...s.values.keys()].filter((k) => k.startsWith('mds_stream_connections_closed_total') && delta(before, s, k) !== 0).map((k) => [k, delta(before, s, k)]);
    let after: Scrape = await scrape(metricsUrl);
    for (let i = 0; i < 200 && closes(after).length === 0; i++) after = await scrape(metricsUrl);
    expect(Object.fromEntries(closes(after))).toEqual({ [series('mds_stream_connections_closed_total', { reason: 'no_status' })]: 1 });
    expect(after.values.get('mds_stream_connections')).toBe(0);
  });

  test('a connection evicted for flooding is counted as a flood close', async () => {
    const before = await scrape(metricsUrl);
    await using c = await connect(`ws://127.0.0.1:${server.port}/?apiKey=${TEST_KEY}`);
    await c.next((m) => m.type === 'ready');
    for (let i = 0; i < 101; i++) c.send('{}');
    expect((await c.closed).code).toBe(4029);
    const flood = series('mds_stream_connections_closed_total', { reason: 'flood' });
    let after = await scrape(metricsUrl);
    for (let i = 0; i < 200 && delta(before, after, flood) === 0; i++) after = await scrape(metricsUrl);
    expect(delta(before, after, flood)).toBe(1);
    expect(delta(before, after, 'mds_stream_frames_received_total')).toBe(101);
  });

  test('a refused stream upgrade is counted by status', async () => {
    const before = await scrape(metricsUrl);
    const res = await fetch(`http://127.0.0.1:${server.port}/?apiKey=bad-key-0123456789`, { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } });
    expect(res.status).toBe(401);
    const after = await scrape(metricsUrl);
    expect(delta(before, after, series('mds_stream_upgrades_refused_total', { status: '401' }))).toBe(1);
  });
});

describe('metrics token on the main port', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ args: ['--metrics-token', TOKEN, '--rate-limit', '3'] });
  });
  afterAll(() => server.stop());

  test('without the token, or with another, /metrics answers 401', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN, `Basic ${TOKEN}`]) {
      const res = await fetch(`${server.base}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
    }
  });

  test('with the token it answers the metrics, no API key needed', async () => {
    const s = await scrape(`${server.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(s.values.has('mds_http_auth_failures_total')).toBe(true);
    expect(server.metricsPort).toBeNull();
  });

  test('requests refused over the rate limit count as 429s', async () => {
    const url = `${server.base}/metrics`;
    const init = { headers: { authorization: `Bearer ${TOKEN}` } };
    const before = await scrape(url, init);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.get('/crypto/quote/BTCUSD')).status);
    const after = await scrape(url, init);
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(delta(before, after, 'mds_http_rate_limited_total')).toBe(refused);
    expect(delta(before, after, requests(QUOTE, 429))).toBe(refused);
    expect(delta(before, after, requests(QUOTE, 200))).toBe(4 - refused);
  });
});

describe('metrics off', () => {
  test('without --metrics-port or --metrics-token, /metrics answers 404 saying how to turn them on', async () => {
    await using server = await startServer();
    const res = await server.get('/metrics', { key: null });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain('metrics are off');
    expect(server.metricsPort).toBeNull();
  });

  test('a metrics token shorter than 16 characters is refused at start', () => {
    expect(() => parseServeConfig(['--metrics-token', 'short'], {})).toThrow(UsageError);
    expect(parseServeConfig([], { MDS_METRICS_TOKEN: TOKEN })).toMatchObject({ metricsToken: TOKEN, metricsPort: null });
  });
});
