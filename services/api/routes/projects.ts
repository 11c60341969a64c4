import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { listProjects } from '../../../projections/audits/queries.ts';
import { presentProject } from '../audits/present.ts';
import { ACCESS } from '../auth/access.ts';
import { authErrors, ok, rateLimitedError } from '../schemas/common.ts';
import { API_VERSION } from '../../../core/apiVersion.ts';
import { ProjectsResponse } from '../schemas/projects.ts';

/** GET /projects (spec 4.13, 2.7): the labels on the account's audits, with counts. */
export const projectsRoutes: FastifyPluginAsyncTypebox<{ pool: Pool }> = async (app, { pool }) => {
  app.get(
    '/projects',
    {
      config: { access: ACCESS['GET /projects'], rateLimit: 'read' },
      schema: {
        summary: "Projects: the labels on the account's audits",
        tags: ['projects'],
        security: [{ bearer: [] }],
        response: {
          200: ok(ProjectsResponse, 'Every project of the account (spec 2.7)'),
          ...authErrors,
          ...rateLimitedError,
        },
      },
    },
    async (request) => {
      const projects = await listProjects(pool, request.auth!.accountId);
      return { data: projects.map(presentProject), total: projects.length, apiVersion: API_VERSION };
    },
  );
};
