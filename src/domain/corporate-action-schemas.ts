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

/** Massive `/v3/reference/splits`. */
export const MassiveSplitsSchema = T.Object(
  {
    results: T.Array(T.Object({ execution_date: DateStr, id: T.String(), split_from: T.Number(), split_to: T.Number(), ticker: T.String() }, { additionalProperties: false })),
    status: T.Literal('OK'),
    request_id: T.String(),
    next_url: T.Optional(T.String()),
  },
  { $id: 'MassiveSplits', additionalProperties: false },
);

/** Massive `/v3/reference/dividends`: the optional fields are left out when not known, as the vendor does. */
export const MassiveDividendsSchema = T.Object(
  {
    results: T.Array(
      T.Object(
        {
          cash_amount: T.Number(),
          currency: T.String(),
          declaration_date: T.Optional(DateStr),
          dividend_type: T.Optional(T.String()),
          ex_dividend_date: DateStr,
          frequency: T.Optional(T.Integer()),
          id: T.String(),
          pay_date: T.Optional(DateStr),
          record_date: T.Optional(DateStr),
          ticker: T.String(),
        },
        { additionalProperties: false },
      ),
    ),
    status: T.Literal('OK'),
    request_id: T.String(),
    next_url: T.Optional(T.String()),
  },
  { $id: 'MassiveDividends', additionalProperties: false },
);

const AlpacaSplit = T.Object({ id: T.String(), symbol: T.String(), cusip: T.String(), new_rate: T.Number(), old_rate: T.Number(), process_date: DateStr, ex_date: DateStr }, { additionalProperties: false });
const AlpacaDividend = T.Object(
  { id: T.String(), symbol: T.String(), cusip: T.String(), rate: T.Number(), special: T.Boolean(), foreign: T.Boolean(), process_date: DateStr, ex_date: DateStr, record_date: T.Optional(DateStr), payable_date: T.Optional(DateStr) },
  { additionalProperties: false },
);

/** Alpaca `/v1/corporate-actions`: the types with items on this page, grouped. */
export const AlpacaCorporateActionsSchema = T.Object(
  {
    corporate_actions: T.Object({ forward_splits: T.Optional(T.Array(AlpacaSplit)), reverse_splits: T.Optional(T.Array(AlpacaSplit)), cash_dividends: T.Optional(T.Array(AlpacaDividend)) }, { additionalProperties: false }),
    next_page_token: T.Union([T.String(), T.Null()]),
  },
  { $id: 'AlpacaCorporateActions', additionalProperties: false },
);
