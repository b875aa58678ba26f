// The AsyncAPI 3.0 document of the WebSocket stream, generated once from the frame schemas
// (domain/stream-frames.ts) and the close-code table: one channel (the stream on `/`), the client's
// send operations with their replies, the server's messages, and the key schemes the upgrade accepts.
import type { TSchema } from '@sinclair/typebox';
import { STREAM_CLOSE_CODES } from '../domain/stream-close-codes.ts';
import {
  STREAM_CLASSES, STREAM_ERROR_CODES, StreamConflatedSchema, StreamEntitlementsChangedSchema, StreamLagSchema, StreamErrorSchema, StreamHeartbeatSchema, StreamQuoteSchema, StreamReadySchema,
  StreamStatusSchema, StreamSubscribedSchema, StreamSubscribeSchema, StreamTradeSchema, StreamUnsubscribedSchema, StreamUnsubscribeSchema,
} from '../domain/stream-frames.ts';
import { VERSION } from '../version.ts';
import { STREAM_EXAMPLES } from './asyncapi-examples.ts';
import { Components, type Json, type JsonObject } from './openapi.ts';

export interface MessageRow {
  key: string;
  title: string;
  schema: TSchema;
}

/** Client frames: what the client sends, each answered by a reply. */
const CLIENT_MESSAGES: MessageRow[] = [
  { key: 'subscribe', title: 'Subscribe', schema: StreamSubscribeSchema },
  { key: 'unsubscribe', title: 'Unsubscribe', schema: StreamUnsubscribeSchema },
];

/** Server frames, in the order a session meets them. */
const SERVER_MESSAGES: MessageRow[] = [
  { key: 'ready', title: 'Ready', schema: StreamReadySchema },
  { key: 'subscribed', title: 'Subscribed', schema: StreamSubscribedSchema },
  { key: 'unsubscribed', title: 'Unsubscribed', schema: StreamUnsubscribedSchema },
  { key: 'quote', title: 'Quote', schema: StreamQuoteSchema },
  { key: 'trade', title: 'Trade', schema: StreamTradeSchema },
  { key: 'status', title: 'Status', schema: StreamStatusSchema },
  { key: 'conflated', title: 'Conflated', schema: StreamConflatedSchema },
  { key: 'lag', title: 'Lag', schema: StreamLagSchema },
  { key: 'heartbeat', title: 'Heartbeat', schema: StreamHeartbeatSchema },
  { key: 'entitlementsChanged', title: 'Entitlements changed', schema: StreamEntitlementsChangedSchema },
  { key: 'error', title: 'Error', schema: StreamErrorSchema },
];

/** Every message of the document by its key, with the frame schema its payload is. */
export const STREAM_MESSAGES: readonly MessageRow[] = [...CLIENT_MESSAGES, ...SERVER_MESSAGES];

/** Server messages the client does not ask for (the acks come as replies of its send operations). */
const RECEIVED = ['ready', 'quote', 'trade', 'status', 'conflated', 'lag', 'heartbeat', 'entitlementsChanged', 'error'];

const CHANNEL_REF = { $ref: '#/channels/stream' };
const messageRef = (key: string) => ({ $ref: `#/channels/stream/messages/${key}` });
const upper = (key: string) => key[0]!.toUpperCase() + key.slice(1);

function closeCodeTable(): string {
  const rows = STREAM_CLOSE_CODES.map((c) => `| ${c.code} | ${c.reason} | ${c.when} |`);
  return ['| code | reason | when |', '|---|---|---|', ...rows].join('\n');
}

const CHANNEL_DESCRIPTION = [
  'The stream, on the same port as REST. Upgrade `GET /?apiKey=KEY` (or the key in the `x-api-key` header, which wins); add `&format=msgpack` for msgpack binary server frames (the same objects; client frames stay JSON text).',
  '',
  `Topics: subscribe frames name channels \`{class}.quotes\` and \`{class}.trades\` for the classes ${STREAM_CLASSES.map((c) => `\`${c}\``).join(', ')} (the \`StreamChannel\` schema), and symbols of that class, or \`*\` for all of them. The \`ready\` frame lists the channels the key's plan includes.`,
  '',
  '`seq` counts each symbol\'s quotes and trades separately, from 1, across restarts: resume after a reconnect with `since` (the last `seq` seen); the `subscribed` ack reports per pair where the replay starts (`first_seq`) and whether ticks are missing for good (`gap: true`: fill them from REST bars).',
  '',
  'Freshness: when a subscribed line loses its last live source (every venue feeding it went stale or was dropped, or none quoted within the stale window), its quotes channel gets a `status` frame with `status: "stale"`, and `status: "live"` when a source quotes it again. A subscription to a line that is already stale gets that `status` frame at once, before the ack. Silence after a `live` (or no status at all) is a quiet market, not a dead feed.',
  '',
  'Slow consumers: `?slow=` on the upgrade URL chooses what happens when the client reads slower than the server sends. `disconnect` (the default) closes the connection with 4008 once more than `slow_consumer_bytes` (the `ready` frame\'s limits) are unsent. `conflate` is for dashboards that want the latest price, not every tick: once a quarter of that bound is unsent, the connection gets no more quotes, and the server keeps each subscribed line\'s newest quote instead; when the client has read what was queued, it gets a `conflated` frame (`dropped`: quotes it missed, `quotes`: how many follow), then each moved line\'s newest quote, then live quotes again. A quote is never older than one the client already has. Trades are never conflated: past the bound a `conflate` connection is closed with 4008 as well. Under either policy, once half of where it acts is unsent the connection first gets one `lag` warning (queued behind what is unsent).',
  '',
  `Error codes: ${STREAM_ERROR_CODES.map((c) => `\`${c}\``).join(', ')}. A frame with an error changes nothing.`,
  '',
  'Close codes:',
  '',
  closeCodeTable(),
].join('\n');

function messageOf(row: MessageRow, components: Components): JsonObject {
  const description = typeof row.schema.description === 'string' ? row.schema.description : undefined;
  const message: JsonObject = { name: row.key, title: row.title, contentType: 'application/json', payload: components.ref(row.schema) };
  if (description) message.summary = description;
  const examples = STREAM_EXAMPLES[row.key];
  if (examples) message.examples = examples as unknown as Json;
  return message;
}

/** The document for a server that serves plain `ws`, or `wss` itself (`--tls-cert`). */
export function buildAsyncApi(opts: { tls?: boolean } = {}): JsonObject {
  const tls = opts.tls === true;
  const components = new Components();
  const messages: JsonObject = {};
  for (const row of STREAM_MESSAGES) messages[row.key] = messageOf(row, components);
  const channelMessages: JsonObject = Object.fromEntries(Object.keys(messages).map((key) => [key, { $ref: `#/components/messages/${key}` }]));
  const operations: JsonObject = {
    subscribe: {
      action: 'send',
      channel: CHANNEL_REF,
      summary: 'subscribe channel × symbol pairs, optionally resuming with `since` or starting with `snapshot`',
      messages: [messageRef('subscribe')],
      reply: { channel: CHANNEL_REF, messages: [messageRef('subscribed'), messageRef('error')] },
    },
    unsubscribe: {
      action: 'send',
      channel: CHANNEL_REF,
      summary: 'end channel × symbol pairs',
      messages: [messageRef('unsubscribe')],
      reply: { channel: CHANNEL_REF, messages: [messageRef('unsubscribed'), messageRef('error')] },
    },
  };
  for (const key of RECEIVED) {
    const row = SERVER_MESSAGES.find((r) => r.key === key)!;
    operations[`receive${upper(key)}`] = { action: 'receive', channel: CHANNEL_REF, summary: `${row.title} frames`, messages: [messageRef(key)] };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'mds market data stream',
      version: VERSION,
      description: 'Live quotes and trades over one WebSocket per client, the moment the pipeline consolidates them. The REST routes are described by /openapi.json.',
    },
    defaultContentType: 'application/json',
    servers: {
      mds: {
        host: '{host}',
        protocol: tls ? 'wss' : 'ws',
        pathname: '/',
        description: tls ? 'the mds server that serves this document, over TLS (its --tls-cert)' : 'the mds server that serves this document (wss behind a TLS proxy)',
        variables: { host: { default: 'localhost:8080', description: 'host and port of the mds server (`--port`, the same as REST)' } },
        security: [{ $ref: '#/components/securitySchemes/apiKeyQuery' }, { $ref: '#/components/securitySchemes/apiKeyHeader' }],
      },
    },
    channels: {
      stream: {
        address: '/',
        title: 'Stream',
        description: CHANNEL_DESCRIPTION,
        messages: channelMessages,
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                apiKey: { type: 'string', description: 'the API key (or send it in the x-api-key header)' },
                format: { type: 'string', enum: ['json', 'msgpack'], default: 'json', description: 'msgpack: every server frame as msgpack binary' },
                slow: { type: 'string', enum: ['disconnect', 'conflate'], default: 'disconnect', description: 'when the client cannot keep up: disconnect (close 4008 past the bound) or conflate (only the newest quote of each line while backed up, then a `conflated` frame; trades are never conflated)' },
              },
            },
            headers: { type: 'object', properties: { 'x-api-key': { type: 'string', description: 'the API key; wins over ?apiKey=' } } },
            bindingVersion: '0.1.0',
          },
        },
        'x-close-codes': STREAM_CLOSE_CODES.map((c) => ({ ...c })),
      },
    },
    operations,
    components: {
      schemas: components.schemas,
      messages,
      securitySchemes: {
        apiKeyQuery: { type: 'httpApiKey', in: 'query', name: 'apiKey', description: 'the key in the upgrade URL: /?apiKey=KEY' },
        apiKeyHeader: { type: 'httpApiKey', in: 'header', name: 'x-api-key', description: 'the key as a header of the upgrade request (wins over the query)' },
      },
    },
  };
}
