import { Type, type Static } from '@sinclair/typebox';
import {
  CONTENT_MAX_CHARS,
  CONTENT_MIN_CHARS,
  IDEMPOTENCY_KEY_MAX_CHARS,
  KEYWORD_MAX_CHARS,
  PROJECT_MAX_CHARS,
  SHARE_DAYS_MAX,
  SHARE_DAYS_MIN,
  TITLE_MAX_CHARS,
} from '../../pipeline/limits.ts';
import { AuditResultV1Schema, type AuditResultV1 } from '../../engine/resultSchema.ts';
import { JOB_STATUSES, LIST_SOURCES } from '../audits/listQuery.ts';
import { ApiVersion, pageFields } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Time = Type.String({ format: 'date-time' });
const Status = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('error'),
]);

/**
 * POST /audits body (spec 4.2). The route's parser (services/pipeline/parseSubmission.ts) gives
 * each rule its own message; this schema documents the same rules for the OpenAPI document and
 * stands behind the parser. null counts as an omitted field.
 */
export const SubmitAuditBody = Type.Object(
  {
    url: Type.Optional(
      Nullable(
        Type.String({
          description: 'Page to audit (http or https; private addresses refused). Exactly one of url and content.',
        }),
      ),
    ),
    content: Type.Optional(
      Nullable(
        Type.String({
          minLength: CONTENT_MIN_CHARS,
          maxLength: CONTENT_MAX_CHARS,
          description: 'Text to audit instead of a page. Exactly one of url and content.',
        }),
      ),
    ),
    title: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: TITLE_MAX_CHARS,
          description: 'Only with content (400 with url); the keyword is used when omitted',
        }),
      ),
    ),
    keyword: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: KEYWORD_MAX_CHARS,
          description: 'Detected when omitted; one word is accepted',
        }),
      ),
    ),
    language: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[a-z]{2}$',
          description: 'ISO 639-1 code; detected when omitted; a supplied one wins',
        }),
      ),
    ),
    project: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: PROJECT_MAX_CHARS,
          description: 'Project label (exact, case-sensitive); unassigned when omitted; "__none__" is reserved',
        }),
      ),
    ),
    share: Type.Optional(
      Nullable(Type.Boolean({ description: 'Issue a public link when the audit finishes; default false' })),
    ),
    shareExpiresInDays: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: SHARE_DAYS_MIN,
          maximum: SHARE_DAYS_MAX,
          description: 'Only with share true; counted from completion',
        }),
      ),
    ),
    webhookUrl: Type.Optional(
      Nullable(Type.String({ description: 'https address for audit.completed / audit.failed' })),
    ),
  },
  { additionalProperties: false },
);

export const SubmitAuditHeaders = Type.Object(
  {
    'idempotency-key': Type.Optional(
      Type.String({
        description: `1 to ${IDEMPOTENCY_KEY_MAX_CHARS} visible ASCII characters; a retry with the same key returns the existing job with 200`,
      }),
    ),
  },
  { additionalProperties: true },
);

/** Queued or running job (spec 4.3); also the 202 of a submission. */
export const JobInProgress = Type.Object(
  {
    id: Type.String({ description: 'Job id (job_...); the audit id for an audit created in the app' }),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running')]),
    auditId: Type.String(),
    project: Nullable(Type.String()),
    createdAt: Time,
    apiVersion: ApiVersion,
  },
  { additionalProperties: false },
);

/** A job that ended in error (spec 4.3). */
export const JobFailed = Type.Object(
  {
    id: Type.String(),
    status: Type.Literal('error'),
    errorCode: Nullable(Type.String({ description: 'Spec 2.2 errorCode; always null for audits created in the app' })),
    errorMessage: Type.String(),
    createdAt: Time,
    apiVersion: ApiVersion,
  },
  { additionalProperties: false },
);

/**
 * An Idempotency-Key replay to a key without audits:read: the job in the submission's shape, in
 * its current status, with no result (docs/api-decisions.md).
 */
export const JobReceipt = Type.Object(
  {
    ...JobInProgress.properties,
    status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('completed'),
      Type.Literal('error'),
    ]),
  },
  { additionalProperties: false },
);

/**
 * GET /audits/{id} (spec 4.3): one of the three shapes, by status. (Unsafe only restates the static
 * type: the type provider cannot infer the result's mapped literal unions; the JSON schema is the union.)
 */
export const AuditView = Type.Unsafe<Static<typeof JobInProgress> | Static<typeof JobFailed> | AuditResultV1>(
  Type.Union([JobInProgress, JobFailed, AuditResultV1Schema]),
);

export const AuditIdParams = Type.Object({
  id: Type.String({ description: 'Job id (job_...) or audit id (aud_...)' }),
});

/**
 * GET /audits query (spec 4.9). Filters are strings parsed by services/api/audits/listQuery.ts (its
 * messages); page and limit behave as in GET /credits/usage.
 */
export const ListAuditsQuery = Type.Object(
  {
    project: Type.Optional(
      Type.String({ description: 'Exact project name; "__none__": unassigned only; empty: ignored' }),
    ),
    status: Type.Optional(
      Type.String({
        enum: [...JOB_STATUSES],
        description: 'queued, running, completed or error; anything else (the empty value too) 400',
      }),
    ),
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: 1,
        description: 'From 1; 400 below 1 or not an integer',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        default: 25,
        description: 'Default 25; above 100 clamped to 100; 400 below 1 or not an integer',
      }),
    ),
    bulkId: Type.Optional(
      Type.String({ description: "Only jobs of this batch (bulk_...); another account's batch gives an empty list" }),
    ),
    createdAfter: Type.Optional(
      Type.String({
        description: 'Inclusive; YYYY-MM-DD (start of the UTC day) or an ISO 8601 timestamp (no zone: UTC)',
      }),
    ),
    createdBefore: Type.Optional(
      Type.String({
        description:
          'Inclusive; YYYY-MM-DD (END of the UTC day) or an ISO 8601 timestamp (no zone: UTC); before createdAfter → 400',
      }),
    ),
    source: Type.Optional(
      Type.String({
        enum: [...LIST_SOURCES, ''],
        description: 'api (default): submitted through the API; panel: created in the app; all; empty: the default',
      }),
    ),
    domain: Type.Optional(
      Type.String({
        description: 'Host or full address; www. ignored; subdomains included; lookalikes not; invalid → 400',
      }),
    ),
  },
  { additionalProperties: true },
);

/** A job list row: every job field of spec 2.2. */
export const JobRow = Type.Object(
  {
    id: Nullable(Type.String({ description: 'Job id; null for audits created in the app' })),
    status: Status,
    auditId: Type.String(),
    project: Nullable(Type.String()),
    createdAt: Time,
    updatedAt: Time,
    input: Type.Object(
      { url: Nullable(Type.String()), keyword: Nullable(Type.String()), language: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    scores: Type.Object(
      {
        cqs: Nullable(Type.Number()),
        aiCitability: Nullable(Type.Number({ description: 'DEPRECATED: null for audits after 2026-08-27' })),
      },
      { additionalProperties: false },
    ),
    creditsCharged: Type.Integer(),
    errorCode: Nullable(
      Type.String({ description: 'Set when status is error; always null for audits created in the app' }),
    ),
    errorMessage: Nullable(Type.String({ description: 'Set when status is error, null otherwise' })),
    reportUrl: Type.String({ description: 'Full report in the app; requires login' }),
    bulkId: Nullable(Type.String()),
    source: Type.Union([Type.Literal('api'), Type.Literal('panel')]),
  },
  { additionalProperties: false },
);

export const ListAuditsResponse = Type.Object(
  {
    data: Type.Array(JobRow, { description: 'Newest first' }),
    ...pageFields,
  },
  { additionalProperties: false },
);

export type SubmitAuditBody = Static<typeof SubmitAuditBody>;
export type JobInProgress = Static<typeof JobInProgress>;
export type JobReceipt = Static<typeof JobReceipt>;
export type JobFailed = Static<typeof JobFailed>;
export type JobRow = Static<typeof JobRow>;
export type ListAuditsResponse = Static<typeof ListAuditsResponse>;

/** POST /audits' 200 (a replay): the job as GET shows it to a reading key, else its receipt. */
export const ReplayedJob = Type.Unsafe<Static<typeof AuditView> | JobReceipt>(
  Type.Union([JobInProgress, JobFailed, AuditResultV1Schema, JobReceipt]),
);
