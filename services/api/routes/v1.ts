import type { FastifyPluginAsync } from 'fastify';
import type { RateLimitSettings } from '../../../infra/config.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { ACCESS } from '../auth/access.ts';
import { authPlugin } from '../plugins/auth.ts';
import { declareCommonResponses } from '../plugins/commonResponses.ts';
import { rateLimitPlugin } from '../plugins/rateLimit.ts';
import { apiValidatorCompiler } from '../plugins/validation.ts';
import type { AuditApiSettings } from '../audits/settings.ts';
import { auditRoutes } from './audits/index.ts';
import { bulkRoutes } from './bulk/index.ts';
import { creditUsageRoutes } from './credits/usage.ts';
import { meRoutes } from './me.ts';
import { projectsRoutes } from './projects.ts';

export interface V1Deps {
  pool: Pool;
  rateLimits: RateLimitSettings;
  /** PUBLIC_BASE_URL and ALLOW_PRIVATE_ADDRESSES for the audit routes. */
  audits: AuditApiSettings;
  /** More route plugins for this scope (they get authentication, scopes and rate limits). */
  routes?: readonly FastifyPluginAsync[];
}

/**
 * Everything under /api/v1: one encapsulated scope whose every route declares its access (auth
 * plugin) and, where limited, its rate-limit window. Register with `{ prefix: '/api/v1' }`.
 */
export const v1Routes =
  (deps: V1Deps): FastifyPluginAsync =>
  async (app) => {
    app.setValidatorCompiler(apiValidatorCompiler());
    app.addHook('onRoute', declareCommonResponses);
    await app.register(authPlugin, { pool: deps.pool });
    await app.register(rateLimitPlugin, { pool: deps.pool, limits: deps.rateLimits });

    app.get('/openapi.json', { config: { access: ACCESS['GET /openapi.json'] }, schema: { hide: true } }, async () =>
      app.swagger(),
    );
    await app.register(meRoutes, { pool: deps.pool });
    await app.register(creditUsageRoutes, { pool: deps.pool });
    await app.register(auditRoutes, { pool: deps.pool, settings: deps.audits });
    await app.register(bulkRoutes, { pool: deps.pool, settings: deps.audits });
    await app.register(projectsRoutes, { pool: deps.pool });
    for (const routes of deps.routes ?? []) await app.register(routes);
  };
