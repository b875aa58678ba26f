// The native corporate-action routes' bodies (`/stocks/splits/{symbol}`, `/stocks/dividends/{symbol}`):
// a symbol's actions oldest first, in Massive's field names, with the adjustment version the
// bars' `adjustment=split` (or `dividend`) answers carry now.
import { Type as T, type Static } from '@sinclair/typebox';

const Version = T.String({ pattern: '^[0-9a-f]{12}$', description: 'the adjustment_version of adjustment=split (splits) or adjustment=dividend (dividends) answers for this symbol now' });
const DateStr = T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const OptionalDate = T.Union([DateStr, T.Null()]);

export const SplitItemSchema = T.Object({ execution_date: DateStr, split_from: T.Number(), split_to: T.Number() }, { additionalProperties: false });

export const SplitListSchema = T.Object(
  { symbol: T.String(), count: T.Integer(), results: T.Array(SplitItemSchema), adjustment_version: Version },
  { $id: 'SplitList', additionalProperties: false },
);

export const DividendItemSchema = T.Object(
  {
    ex_dividend_date: DateStr,
    cash_amount: T.Number(),
    pay_date: OptionalDate,
    record_date: OptionalDate,
    declaration_date: OptionalDate,
    frequency: T.Union([T.Integer(), T.Null()]),
    dividend_type: T.Union([T.String(), T.Null()]),
  },
  { additionalProperties: false },
);

export const DividendListSchema = T.Object(
  { symbol: T.String(), count: T.Integer(), results: T.Array(DividendItemSchema), adjustment_version: Version },
  { $id: 'DividendList', additionalProperties: false },
);

export type SplitItem = Static<typeof SplitItemSchema>;
export type DividendItem = Static<typeof DividendItemSchema>;
