import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from '../../infra/logger.ts';
import type { Readiness } from '../readiness.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { requestIdOptions, requestIdPlugin } from './plugins/requestId.ts';
import { healthRoutes } from './routes/health.ts';

export interface AppDeps {
  log: Logger;
  readiness: Readiness;
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Builds the API without listening (main.ts listens; tests inject). */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    ...requestIdOptions,
    bodyLimit: 1_048_576, // 200,000 characters of content fit with room; larger bodies are 413
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  await app.register(requestIdPlugin);
  await app.register(errorsPlugin);
  await app.register(healthRoutes(deps.readiness));
  return app;
}
