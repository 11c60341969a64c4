import { Type } from '@sinclair/typebox';
import { ApiVersion } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const ApplyParams = Type.Object({ id: Type.String({ description: 'Job id (job_...) or audit id (aud_...)' }) });
export const RevisionParams = Type.Object({
  id: Type.String({ description: 'Job id or audit id' }),
  revisionId: Type.String({ description: 'Revision id (rev_...)' }),
});

/** Spec 2.5. */
export const ApplyItemView = Type.Object({
  id: Type.String(),
  group: Type.Union([Type.Literal('recommendation'), Type.Literal('meta'), Type.Literal('structure')]),
  label: Type.String(),
  selectable: Type.Boolean(),
  editorialOnly: Type.Boolean(),
  authorDataOnly: Type.Boolean(),
  noChange: Type.Boolean(),
  priority: Type.String(),
  actionType: Type.String(),
  section: Type.String(),
  before: Type.String(),
  after: Type.String(),
  impact: Type.String(),
  estimatedCqsDelta: Type.Number(),
});

export const RevisionSummary = Type.Object({
  revisionId: Type.String(),
  status: Type.String(),
  selectedIds: Type.Array(Type.String()),
  createdAt: Type.String(),
  measuredCqs: Nullable(Type.Number()),
});

export const ApplyItemsView = Type.Object({
  id: Type.String(),
  auditId: Type.String(),
  cqs: Nullable(Type.Number()),
  items: Type.Array(ApplyItemView),
  revisions: Type.Array(RevisionSummary),
  apiVersion: ApiVersion,
});

export const ApplyBody = Type.Object(
  {
    selectedIds: Type.Array(Type.String({ maxLength: 200 }), {
      maxItems: 300,
      description: 'Ids from the items list; at most 300 (spec 8)',
    }),
    force: Type.Optional(
      Type.Boolean({ description: 'Generate a new version of an already finished selection (1 credit)' }),
    ),
  },
  { additionalProperties: false },
);

/** Spec 2.6. */
export const RevisionView = Type.Object({
  revisionId: Type.String(),
  id: Type.String(),
  auditId: Type.String(),
  status: Type.Union([Type.Literal('generating'), Type.Literal('completed'), Type.Literal('failed')]),
  selectedIds: Type.Array(Type.String()),
  createdAt: Type.String(),
  error: Nullable(Type.String()),
  result: Nullable(
    Type.Object({
      markdown: Type.String(),
      editedInPanel: Type.Boolean(),
      title: Nullable(Type.String()),
      description: Nullable(Type.String()),
      appliedIds: Type.Array(Type.String()),
      skipped: Type.Array(Type.Object({ id: Type.String(), reason: Type.String(), message: Type.String() })),
      previewHtml: Type.String({
        description: 'Complete HTML document; contains text from the article: render only in a sandboxed iframe',
      }),
    }),
  ),
  measurement: Nullable(
    Type.Object({
      status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('error')]),
      cqsBefore: Nullable(Type.Number()),
      cqsAfter: Nullable(Type.Number()),
    }),
  ),
  fromCache: Type.Optional(Type.Boolean({ description: 'Start response only' })),
  apiVersion: ApiVersion,
});
