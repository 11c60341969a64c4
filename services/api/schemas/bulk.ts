import { Type, type Static } from '@sinclair/typebox';
import { ApiVersion } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const BulkStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('error'),
  Type.Literal('cancelled'),
]);
const EntryStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('error'),
  Type.Literal('skipped'),
]);

export const BulkIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200, description: 'Batch id (bulk_...)' }),
});

export const SubmitBulkHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description: 'A retry with the same key returns the same batch with 200 and starts no second crawl',
    }),
  ),
});

/** Spec 4.4. The parser (services/bulk/parseBulk.ts) gives each rule its exact message; this documents them. */
export const SubmitBulkBody = Type.Object(
  {
    urls: Type.Array(
      Type.Union([
        Type.String(),
        Type.Object({ url: Type.String(), keyword: Type.Optional(Nullable(Type.String({ maxLength: 200 }))) }),
      ]),
      {
        minItems: 1,
        maxItems: 100,
        description: '1 to 100 entries; a string URL or {url, keyword?}; duplicates are removed',
      },
    ),
    project: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    webhookUrl: Type.Optional(
      Nullable(Type.String({ description: 'HTTPS; one event per audit, no whole-batch event' })),
    ),
  },
  { additionalProperties: false },
);

export const BulkAccepted = Type.Object({
  id: Type.String(),
  status: Type.Literal('queued'),
  urlCount: Type.Integer(),
  project: Nullable(Type.String()),
  apiVersion: ApiVersion,
});

/** An Idempotency-Key replay to a key without audits:read: the 202's fields, status as it is now. */
export const BulkReceipt = Type.Object(
  { ...BulkAccepted.properties, status: BulkStatus },
  { additionalProperties: false },
);

export const BulkEntryView = Type.Object({
  url: Type.String(),
  keyword: Nullable(Type.String()),
  status: EntryStatus,
  jobId: Nullable(Type.String()),
  auditId: Nullable(Type.String()),
  cqs: Nullable(Type.Number()),
  aiCitability: Type.Null({ description: 'DEPRECATED: always null for batches submitted from 2026-08-27' }),
  error: Nullable(Type.String()),
});

/** Spec 2.4, plus createdAt. */
export const BulkView = Type.Object({
  id: Type.String(),
  status: BulkStatus,
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  urlCount: Type.Integer(),
  project: Nullable(Type.String()),
  creditsCharged: Type.Integer(),
  counts: Type.Object({
    total: Type.Integer(),
    completed: Type.Integer(),
    failed: Type.Integer(),
    pending: Type.Integer(),
    skipped: Type.Integer(),
  }),
  entries: Type.Array(BulkEntryView),
  createdAt: Type.String(),
  apiVersion: ApiVersion,
});

/** Spec 4.6 names creditsRefunded; the rest is the batch as GET shows it after the cancel. */
export const BulkCancelView = Type.Object({
  ...BulkView.properties,
  creditsRefunded: Type.Integer({
    description:
      'credits given back by this cancel: entries that never started, and the running one unless it had been charged',
  }),
});

export type BulkReceipt = Static<typeof BulkReceipt>;

/** POST /audits/bulk's 200 (a replay): the batch as GET shows it to a reading key, else its receipt. */
export const BulkReplayed = Type.Union([BulkView, BulkReceipt]);
