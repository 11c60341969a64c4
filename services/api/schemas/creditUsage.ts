import { Type, type Static } from '@sinclair/typebox';
import { pageFields } from './common.ts';

export const CREDIT_USAGE_DEFAULT_LIMIT = 50;
export const CREDIT_USAGE_MAX_LIMIT = 100;

/** GET /credits/usage query (spec 4.14; defaults and maximum decided in docs/api-decisions.md). */
export const CreditUsageQuery = Type.Object(
  {
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: 1,
        description: 'From 1 (at most 1,000,000); 400 outside that or not an integer',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        default: CREDIT_USAGE_DEFAULT_LIMIT,
        description: `Entries per page, default ${CREDIT_USAGE_DEFAULT_LIMIT}; above ${CREDIT_USAGE_MAX_LIMIT} clamped to ${CREDIT_USAGE_MAX_LIMIT}; 400 below 1 or not an integer`,
      }),
    ),
  },
  { additionalProperties: true },
);
export type CreditUsageQuery = Static<typeof CreditUsageQuery>;

/** Spec 2.8, with the ledger's additions: types `apply` and `adjustment`. */
export const CreditHistoryEntry = Type.Object(
  {
    type: Type.Union([
      Type.Literal('audit'),
      Type.Literal('apply'),
      Type.Literal('purchase'),
      Type.Literal('adjustment'),
    ]),
    id: Type.String({ description: 'aud_ audit id, apply revision id, pay_ payment id or adj_ adjustment id' }),
    delta: Type.Integer({ description: 'Negative for a charge, positive for a top-up; 0 for a refunded charge' }),
    refunded: Type.Boolean(),
    url: Type.Union([Type.String(), Type.Null()]),
    project: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const CreditUsageResponse = Type.Object(
  {
    remaining: Type.Integer({ description: 'Balance: always the sum of every history entry delta' }),
    used: Type.Integer({ description: 'Credits charged and not refunded' }),
    unlimited: Type.Boolean(),
    history: Type.Array(CreditHistoryEntry, { description: 'Newest first' }),
    ...pageFields,
  },
  { additionalProperties: false },
);
export type CreditUsageResponse = Static<typeof CreditUsageResponse>;
