// The Massive-compatible tick history bodies as TypeBox schemas (v3 trades and quotes), for
// /openapi.json and the route contract test. Field names are the vendor's.
import { Type as T } from '@sinclair/typebox';

const Ns = T.Integer({ description: 'nanoseconds since the epoch (the ms time with six zeros)' });
const Int = T.Integer();

export const MassiveTradeSchema = T.Object(
  { conditions: T.Array(Int), exchange: Int, id: T.String(), participant_timestamp: Ns, price: T.Number(), sequence_number: Int, sip_timestamp: Ns, size: T.Number(), decimal_size: T.String() },
  { $id: 'MassiveTrade' },
);
export const MassiveQuoteSchema = T.Object(
  { ask_exchange: Int, ask_price: T.Number(), ask_size: T.Number(), bid_exchange: Int, bid_price: T.Number(), bid_size: T.Number(), participant_timestamp: Ns, sequence_number: Int, sip_timestamp: Ns },
  { $id: 'MassiveQuote' },
);

const page = { status: T.Literal('OK'), request_id: T.String(), next_url: T.Optional(T.String()) };
export const MassiveTradesSchema = T.Object({ ...page, results: T.Array(MassiveTradeSchema) }, { $id: 'MassiveTrades' });
export const MassiveQuotesSchema = T.Object({ ...page, results: T.Array(MassiveQuoteSchema) }, { $id: 'MassiveQuotes' });
