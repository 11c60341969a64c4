import { Type, type Static } from '@sinclair/typebox';
import { DIMENSION_IDS, PROFILE_IDS } from './types.ts';

/**
 * TypeBox schema of AuditResultV1 (spec 2.3): EngineResultSchema is what the engine returns;
 * AuditResultV1Schema adds what the service sets (id, status, timestamps, meta). Extra fields the
 * engine adds beside the contract's (recommendation id/section/insertAt, benchmark competitors,
 * summary languageSupport) are declared too, so the schema stays closed.
 */

const Score10 = Type.Number({ minimum: 0, maximum: 10 });
const Str = Type.String();
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Closed = { additionalProperties: false } as const;
const IsoTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$' });

const DimensionIdSchema = Type.Union(DIMENSION_IDS.map((id) => Type.Literal(id)));
const ActionTypeSchema = Type.Union([
  Type.Literal('add'),
  Type.Literal('replace'),
  Type.Literal('remove'),
  Type.Literal('restructure'),
]);
const PrioritySchema = Type.Union([
  Type.Literal('critical'),
  Type.Literal('high'),
  Type.Literal('medium'),
  Type.Literal('bonus'),
]);

export const ProblemSchema = Type.Object(
  {
    title: Str,
    problem: Str,
    suggestion: Str,
    impact: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]),
    section: Str,
    actionType: ActionTypeSchema,
  },
  Closed,
);

export const DimensionSchema = Type.Object(
  {
    id: DimensionIdSchema,
    name: Str,
    score: Score10,
    summary: Str,
    strengths: Type.Array(Str),
    problems: Type.Array(ProblemSchema),
  },
  Closed,
);

export const RecommendationSchema = Type.Object(
  {
    id: Type.String({ pattern: '^rec:[0-9]+$' }),
    priority: PrioritySchema,
    title: Str,
    dimension: DimensionIdSchema,
    actionType: ActionTypeSchema,
    section: Str,
    before: Str,
    after: Str,
    insertAt: Type.Union([
      Type.Object(
        { placement: Type.Union([Type.Literal('after'), Type.Literal('before'), Type.Literal('end')]), anchor: Str },
        Closed,
      ),
      Type.Null(),
    ]),
    impact: Str,
    estimatedCqsDelta: Type.Number(),
    // Added by issue 12; optional so that results stored before it stay valid.
    authorDataOnly: Type.Optional(Type.Boolean()),
    // Added by issue 23; optional so that results stored before it stay valid.
    task: Type.Optional(Type.Union([Str, Type.Null()])),
    evidence: Type.Optional(
      Type.Object(
        {
          rule: Str,
          figure: Type.Union([Str, Type.Null()]),
          competitors: Type.Array(Type.Object({ url: Str, domain: Str, quote: Str }, Closed)),
          questions: Type.Array(Str),
        },
        Closed,
      ),
    ),
    competitorUrls: Type.Array(Type.Object({ url: Str, domain: Str }, Closed)),
  },
  Closed,
);

export const EeatSchema = Type.Object(
  { experience: Score10, expertise: Score10, authority: Score10, trust: Score10, average: Score10 },
  Closed,
);

export const BenchmarkSchema = Type.Object(
  {
    keyword: Str,
    searchVolume: Type.Integer(),
    serpOrganicCount: Type.Integer(),
    paa: Type.Array(Str),
    related: Type.Array(Str),
    competitors: Type.Array(
      Type.Object(
        {
          url: Str,
          domain: Str,
          cqs: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]),
          excluded: Type.Boolean(),
          reason: Nullable(Str),
        },
        Closed,
      ),
    ),
  },
  Closed,
);

export const SummarySchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('warn'), Type.Literal('critical')]),
    top10AvgCqs: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]),
    problemCounts: Type.Object(
      {
        critical: Type.Integer({ minimum: 0 }),
        high: Type.Integer({ minimum: 0 }),
        total: Type.Integer({ minimum: 0 }),
      },
      Closed,
    ),
    topChange: Type.Union([RecommendationSchema, Type.Null()]),
    profile: Type.Object({ id: Type.Union(PROFILE_IDS.map((p) => Type.Literal(p))), label: Str }, Closed),
    quickWins: Type.Array(
      Type.Object(
        { id: Str, label: Str, source: Type.Literal('recommendation'), dimension: DimensionIdSchema },
        Closed,
      ),
    ),
    languageSupport: Type.Union([Type.Literal('full'), Type.Literal('partial')]),
  },
  Closed,
);

const engineProperties = {
  input: Type.Object(
    { url: Nullable(Str), keyword: Nullable(Str), language: Nullable(Str), project: Nullable(Str) },
    Closed,
  ),
  scores: Type.Object(
    {
      cqs: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
      aiCitability: Type.Union([Type.Number({ minimum: 0, maximum: 10 }), Type.Null()]),
    },
    Closed,
  ),
  csi: Type.Object({ centralEntity: Str, sourceContext: Str, centralSearchIntent: Str, predicate: Str }, Closed),
  dimensions: Type.Array(DimensionSchema),
  eeat: Type.Union([EeatSchema, Type.Null()]),
  recommendations: Type.Array(RecommendationSchema),
  benchmark: Type.Union([BenchmarkSchema, Type.Null()]),
  summary: Type.Union([SummarySchema, Type.Null()]),
};

/** The engine's part of AuditResultV1. */
export const EngineResultSchema = Type.Object(engineProperties, Closed);

export const MetaSchema = Type.Object(
  {
    creditsCharged: Type.Integer({ minimum: 0 }),
    apiVersion: Str,
    reportUrl: Str,
    shareUrl: Nullable(Str),
    shareExpiresAt: Type.Union([IsoTime, Type.Null()]),
  },
  Closed,
);

/** The full AuditResultV1 of a completed audit (spec 2.3). */
export const AuditResultV1Schema = Type.Object(
  {
    id: Str,
    status: Type.Literal('completed'),
    createdAt: IsoTime,
    completedAt: IsoTime,
    ...engineProperties,
    meta: MetaSchema,
  },
  Closed,
);

export type EngineResultV1 = Static<typeof EngineResultSchema>;
export type AuditResultV1 = Static<typeof AuditResultV1Schema>;
