import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RateLimitSettings } from '../../infra/config.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import type { Readiness } from '../readiness.ts';
import type { AuditApiSettings } from './audits/settings.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { requestIdOptions, requestIdPlugin } from './plugins/requestId.ts';
import { healthRoutes } from './routes/health.ts';
import { v1Routes } from './routes/v1.ts';
import { reportPages } from './routes/pages/index.ts';

export interface AppDeps {
  log: Logger;
  readiness: Readiness;
  pool: Pool;
  rateLimits: RateLimitSettings;
  /**
   * PUBLIC_BASE_URL and ALLOW_PRIVATE_ADDRESSES for the audit routes; by default the config's own
   * defaults (reports on http://127.0.0.1:8080, private addresses refused).
   */
  audits?: AuditApiSettings;
  /** Extra route plugins for the /api/v1 scope (auth, scopes and rate limits apply to them). */
  v1Routes?: readonly FastifyPluginAsync[];
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Builds the API without listening (main.ts listens; tests inject). */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    ...requestIdOptions,
    frameworkErrors,
    clientErrorHandler,
    bodyLimit: 1_048_576, // 200,000 characters of content fit with room; larger bodies are 413
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Bodies are JSON (forms only on the sign-in page): text/plain is a 415 like any other type,
  // not a string handed to a JSON route to fail there as a 400.
  app.removeContentTypeParser('text/plain');
  await app.register(requestIdPlugin);
  await app.register(errorsPlugin);
  await app.register(openApiPlugin);
  await app.register(healthRoutes(deps.readiness));
  const audits = deps.audits ?? { publicBaseUrl: 'http://127.0.0.1:8080', allowPrivateAddresses: false };
  await app.register(v1Routes({ pool: deps.pool, rateLimits: deps.rateLimits, audits, routes: deps.v1Routes }), {
    prefix: '/api/v1',
  });
  await app.register(reportPages({ pool: deps.pool, settings: audits }));
  return app;
}
