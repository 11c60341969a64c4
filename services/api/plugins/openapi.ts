import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { API_VERSION } from '../../../core/apiVersion.ts';

/**
 * The OpenAPI 3 document, generated from the routes' own TypeBox schemas (so it cannot drift from
 * what the routes validate and send). Register before the routes: it collects them as they are
 * added. Served at GET /api/v1/openapi.json (routes/v1.ts).
 */
export const openApiPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Audit Service API',
          version: API_VERSION,
          description:
            'Content audits, credits and account. Every response carries X-Request-Id and, except the full audit result and the health endpoints, apiVersion at top level. Errors: {error: {code, message, requestId}}.',
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
          },
        },
      },
    });
  },
  { name: 'openapi' },
);
