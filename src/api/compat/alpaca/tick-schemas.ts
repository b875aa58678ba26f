// The Alpaca-compatible tick history bodies as TypeBox schemas (historical trades and quotes of
// stocks and crypto), for /openapi.json and the route contract test. Field names are the vendor's.
import { Type as T, type TSchema } from '@sinclair/typebox';
import { AlpacaCryptoQuoteSchema, AlpacaCryptoTradeSchema, AlpacaStockQuoteSchema, AlpacaStockTradeSchema } from './schemas.ts';

const Token = T.Union([T.String(), T.Null()]);
const bySymbol = (tick: TSchema) => T.Record(T.String(), T.Array(tick));

export const AlpacaStockTradesHistorySchema = T.Object({ trades: bySymbol(AlpacaStockTradeSchema), next_page_token: Token }, { $id: 'AlpacaStockTradesHistory' });
export const AlpacaStockQuotesHistorySchema = T.Object({ quotes: bySymbol(AlpacaStockQuoteSchema), next_page_token: Token }, { $id: 'AlpacaStockQuotesHistory' });
export const AlpacaStockTradesSingleSchema = T.Object({ trades: T.Array(AlpacaStockTradeSchema), symbol: T.String(), next_page_token: Token }, { $id: 'AlpacaStockTradesSingle' });
export const AlpacaStockQuotesSingleSchema = T.Object({ quotes: T.Array(AlpacaStockQuoteSchema), symbol: T.String(), next_page_token: Token }, { $id: 'AlpacaStockQuotesSingle' });
export const AlpacaCryptoTradesHistorySchema = T.Object({ trades: bySymbol(AlpacaCryptoTradeSchema), next_page_token: Token }, { $id: 'AlpacaCryptoTradesHistory' });
export const AlpacaCryptoQuotesHistorySchema = T.Object({ quotes: bySymbol(AlpacaCryptoQuoteSchema), next_page_token: Token }, { $id: 'AlpacaCryptoQuotesHistory' });
