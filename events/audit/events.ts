import { Type } from '@sinclair/typebox';
import { Str, NonEmpty, Nullable } from '../schemaTypes.ts';
import { defineEvent, type EventOf } from '../define.ts';
import { streamIdOf, type StreamId } from '../streamId.ts';

/**
 * The audit stream (`audit-<auditId>`): one audit from request to outcome. Supplied content and
 * fetched pages are kept in the store's content table (claim check: the events carry the SHA-256
 * `contentRef`), so messages stay small while the log still holds everything needed to replay.
 */

export const AUDIT_SOURCES = ['api', 'panel'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

/** Accepted: what was asked for, exactly as validated at submission (spec 4.2). */
export const AuditRequested = defineEvent(
  'AuditRequested',
  'audit',
  Type.Object({
    auditId: NonEmpty,
    /** null for audits created in the app (spec 2.2). */
    jobId: Nullable(NonEmpty),
    source: Type.Union([Type.Literal('api'), Type.Literal('panel')]),
    url: Nullable(Str),
    /** SHA-256 of supplied content in the content table; null for a URL audit. */
    contentRef: Nullable(Str),
    title: Nullable(Str),
    keyword: Nullable(Str),
    language: Nullable(Str),
    project: Nullable(Str),
    share: Type.Boolean(),
    shareExpiresInDays: Nullable(Type.Integer()),
    webhookUrl: Nullable(Str),
    bulkId: Nullable(Str),
    idempotencyKey: Nullable(Str),
  }),
);

/**
 * The audit was taken up: the job is `running`. By the fetch step for a page; with its request for
 * supplied content.
 */
export const AuditStarted = defineEvent(
  'AuditStarted',
  'audit',
  Type.Object({ attempt: Type.Integer({ minimum: 1 }) }),
);

/** The content to audit is at hand: fetched (url) or supplied. */
export const ContentFetched = defineEvent(
  'ContentFetched',
  'audit',
  Type.Object({
    contentRef: NonEmpty,
    format: Type.Union([Type.Literal('html'), Type.Literal('text')]),
    /** Where the page was finally fetched from, after redirects; null for supplied content. */
    finalUrl: Nullable(Str),
    chars: Type.Integer({ minimum: 0 }),
  }),
);

/** Keyword, language and central search intent are known: the point where the credit is taken. */
export const CsiDerived = defineEvent(
  'CsiDerived',
  'audit',
  Type.Object({
    keyword: NonEmpty,
    language: NonEmpty,
    centralEntity: Str,
    sourceContext: Str,
    centralSearchIntent: Str,
    predicate: Str,
  }),
);

/** The audit's credit was taken (credits 0 for an unlimited account); the ledger entry is on the account stream. */
export const AuditCharged = defineEvent(
  'AuditCharged',
  'audit',
  Type.Object({ chargeId: Nullable(Str), credits: Type.Integer({ minimum: 0 }) }),
);

const AuditCompletedV1 = Type.Object({ cqs: Nullable(Type.Number()), resultJson: NonEmpty });

/**
 * Finished: the engine's result (AuditResultV1 without id/status/timestamps/meta) as JSON. v2 adds
 * `benchmarkRef`: the SERP benchmark input the engine scored against (keyword data and the
 * competitor pages as fetched), kept in the content store so that apply's measurement re-scores a
 * rewrite against the same baseline (spec 2.6); null without a benchmark and for v1 events.
 */
export const AuditCompleted = defineEvent(
  'AuditCompleted',
  'audit',
  Type.Object({
    cqs: Nullable(Type.Number()),
    resultJson: NonEmpty,
    benchmarkRef: Nullable(Str),
  }),
  [
    {
      schema: AuditCompletedV1,
      upcast: (p: { cqs: number | null; resultJson: string }) => ({ ...p, benchmarkRef: null }),
    },
  ],
);

/** Failed, with the spec's errorCode (2.2) and a message for the caller. */
export const AuditFailed = defineEvent(
  'AuditFailed',
  'audit',
  Type.Object({
    errorCode: Type.Union([
      Type.Literal('crawl_failed'),
      Type.Literal('keyword_required'),
      Type.Literal('csi_failed'),
      Type.Literal('content_too_large'),
      Type.Literal('insufficient_credits'),
      Type.Literal('audit_failed'),
      Type.Literal('config_error'),
      Type.Literal('internal_error'),
    ]),
    errorMessage: NonEmpty,
    stage: Type.Union([Type.Literal('fetch'), Type.Literal('analyse'), Type.Literal('charge'), Type.Literal('score')]),
  }),
);

/** The audit's project label changed (spec 2.3 input.project: reassignment in the app is visible). */
export const AuditProjectAssigned = defineEvent(
  'AuditProjectAssigned',
  'audit',
  Type.Object({ project: Nullable(Str), actor: NonEmpty }),
);

export type AuditRequested = EventOf<typeof AuditRequested>;
export type AuditStarted = EventOf<typeof AuditStarted>;
export type ContentFetched = EventOf<typeof ContentFetched>;
export type CsiDerived = EventOf<typeof CsiDerived>;
export type AuditCharged = EventOf<typeof AuditCharged>;
export type AuditCompleted = EventOf<typeof AuditCompleted>;
export type AuditFailed = EventOf<typeof AuditFailed>;
export type AuditProjectAssigned = EventOf<typeof AuditProjectAssigned>;
export type AuditEvent =
  | AuditRequested
  | AuditStarted
  | ContentFetched
  | CsiDerived
  | AuditCharged
  | AuditCompleted
  | AuditFailed
  | AuditProjectAssigned;
export type AuditErrorCode = AuditFailed['data']['errorCode'];

export const auditEvents = [
  AuditRequested,
  AuditStarted,
  ContentFetched,
  CsiDerived,
  AuditCharged,
  AuditCompleted,
  AuditFailed,
  AuditProjectAssigned,
];
export const auditStreamId = (auditId: string): StreamId<'audit'> => streamIdOf('audit', auditId);
