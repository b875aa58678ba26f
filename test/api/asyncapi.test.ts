// The AsyncAPI document of the stream: valid AsyncAPI 3.0 by @asyncapi/parser, served without a
// key, generated from the frame schemas (its examples fit them, its channels and close codes are
// the stream's), and the frame checker the test clients use rejects what the schemas do not allow.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Parser } from '@asyncapi/parser';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { STREAM_EXAMPLES } from '../../src/api/asyncapi-examples.ts';
import { buildAsyncApi, STREAM_MESSAGES } from '../../src/api/asyncapi.ts';
import { CLOSE_FLOOD, CLOSE_KEY_INVALID, CLOSE_SLOW_CONSUMER } from '../../src/stream/connections.ts';
import { STREAM_CLOSE_CODES } from '../../src/domain/stream-close-codes.ts';
import { STREAM_ERROR_CODES } from '../../src/domain/stream-frames.ts';
import { CHANNELS } from '../../src/stream/protocol.ts';
import { clientFrameMismatches, serverFrameMismatches } from '../support/frame-contract.ts';
import { startServer, type TestServer } from '../support/server.ts';

const doc = buildAsyncApi() as any;

describe('the AsyncAPI document', () => {
  test('validates with @asyncapi/parser: no errors and no warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    // Severity 0 is an error, 1 a warning; 2 and 3 are hints (such as "3.1.0 is out").
    const problems = diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code} ${d.message} at ${d.path.join('/')}`);
    expect(problems).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.version()).toBe('3.0.0');
    expect(document!.operations().all().map((op) => `${op.action()} ${op.id()}`).sort()).toEqual([
      'receive receiveConflated', 'receive receiveEntitlementsChanged', 'receive receiveError', 'receive receiveHeartbeat', 'receive receiveLag', 'receive receiveQuote', 'receive receiveReady', 'receive receiveStatus', 'receive receiveTrade',
      'send subscribe', 'send unsubscribe',
    ]);
  });

  test('names ws for a plain server and wss for one with its own TLS; the rest is the same document', async () => {
    expect(doc.servers.mds.protocol).toBe('ws');
    const tls = buildAsyncApi({ tls: true }) as any;
    expect(tls.servers.mds.protocol).toBe('wss');
    expect({ ...tls, servers: undefined }).toEqual({ ...doc, servers: undefined });
    const { diagnostics } = await new Parser().parse(JSON.stringify(tls));
    expect(diagnostics.filter((d) => d.severity <= 1)).toEqual([]);
  });

  test('has one message per frame schema, each payload the named schema, and both key schemes', () => {
    expect(Object.keys(doc.components.messages).sort()).toEqual(STREAM_MESSAGES.map((m) => m.key).sort());
    for (const row of STREAM_MESSAGES) expect(doc.components.messages[row.key].payload).toEqual({ $ref: `#/components/schemas/${row.schema.$id}` });
    expect(doc.components.securitySchemes).toMatchObject({ apiKeyQuery: { type: 'httpApiKey', in: 'query', name: 'apiKey' }, apiKeyHeader: { type: 'httpApiKey', in: 'header', name: 'x-api-key' } });
  });

  test.each(STREAM_MESSAGES.map((m) => [m.key, m] as const))('every %s example fits its frame schema', (key, row) => {
    const examples = STREAM_EXAMPLES[key] ?? [];
    expect(examples.length).toBeGreaterThan(0);
    const check = TypeCompiler.Compile(row.schema);
    expect(examples.flatMap((ex) => [...check.Errors(ex.payload)].map((e) => `${ex.name} ${e.path}: ${e.message}`))).toEqual([]);
    const general = row.key === 'subscribe' || row.key === 'unsubscribe' ? clientFrameMismatches : serverFrameMismatches;
    expect(examples.flatMap((ex) => general(ex.payload))).toEqual([]);
  });

  test("names the stream's channels, error codes and close codes", () => {
    expect(doc.components.schemas.StreamChannel.anyOf.map((s: { const: string }) => s.const)).toEqual([...CHANNELS]);
    expect(doc.components.schemas.StreamErrorCode.anyOf.map((s: { const: string }) => s.const)).toEqual([...STREAM_ERROR_CODES]);
    const closeCodes = doc.channels.stream['x-close-codes'].map((c: { code: number }) => c.code);
    expect(closeCodes).toEqual(STREAM_CLOSE_CODES.map((c) => c.code));
    expect(closeCodes).toEqual(expect.arrayContaining([1001, 1009, CLOSE_KEY_INVALID, CLOSE_SLOW_CONSUMER, CLOSE_FLOOD]));
    for (const code of closeCodes) expect(doc.channels.stream.description).toContain(`| ${code} |`);
  });
});

describe('the frame checker of the test clients', () => {
  const quote = STREAM_EXAMPLES.quote![0]!.payload;

  test.each([
    ['an unknown type', { type: 'nope' }, '/type: not a server frame type'],
    ['a field the schema does not name', { ...quote, extra: 1 }, 'extra'],
    ['a missing seq', Object.fromEntries(Object.entries(quote).filter(([k]) => k !== 'seq')), '/seq'],
    ['a string ts', { ...quote, ts: '1772638201021' }, '/ts'],
    ['a quote on a trades channel', { ...quote, channel: 'crypto.trades' }, '/channel'],
    ['snapshot: false (the marker is true or absent)', { ...quote, snapshot: false }, '/snapshot'],
    ['an error code outside the table', { type: 'error', code: 'oops', message: 'x' }, '/code'],
  ])('rejects %s', (_label, frame, where) => {
    const problems = serverFrameMismatches(frame);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toContain(where);
  });

  test('tells the two unsubscribed shapes apart and rejects a mix of them', () => {
    expect(serverFrameMismatches({ type: 'unsubscribed', id: 3, subscriptions: [] })).toEqual([]);
    expect(serverFrameMismatches({ type: 'unsubscribed', reason: 'entitlements changed', dropped: [], subscriptions: [] })).toEqual([]);
    expect(serverFrameMismatches({ type: 'unsubscribed', id: 3, reason: 'entitlements changed', dropped: [], subscriptions: [] }).length).toBeGreaterThan(0);
  });

  test.each([
    ['no action', { channels: ['crypto.quotes'], symbols: ['BTCUSD'] }],
    ['an empty symbol list', { action: 'subscribe', channels: ['crypto.quotes'], symbols: [] }],
    ['a negative since', { action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], since: -1 }],
    ['a since table keyed by a channel that does not exist', { action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], since: { 'crypto.bars': { BTCUSD: 1 } } }],
    ['a non-boolean snapshot', { action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], snapshot: 'yes' }],
  ])('rejects a client frame with %s', (_label, frame) => {
    expect(clientFrameMismatches(frame).length).toBeGreaterThan(0);
  });
});

describe('GET /asyncapi.json', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  test('is served without a key: the generated document, as JSON', async () => {
    const res = await server.get('/asyncapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toStartWith('application/json');
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
