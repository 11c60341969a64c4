import { Type, type Static } from '@sinclair/typebox';
import { ApiVersion } from './common.ts';

/** Spec 2.7: a project is a label on audits; grouped by exact, case-sensitive name. */
export const Project = Type.Object(
  {
    name: Type.String(),
    auditCount: Type.Integer({ description: 'Audits of the account (API and app) currently labelled with this name' }),
    lastAuditAt: Type.String({ format: 'date-time', description: 'createdAt of the newest of those audits' }),
  },
  { additionalProperties: false },
);

export const ProjectsResponse = Type.Object(
  {
    data: Type.Array(Project, { description: 'By name, in code-point order' }),
    total: Type.Integer(),
    apiVersion: ApiVersion,
  },
  { additionalProperties: false },
);
export type ProjectsResponse = Static<typeof ProjectsResponse>;
