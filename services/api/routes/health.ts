import type { FastifyPluginAsync } from 'fastify';
import type { Readiness } from '../../readiness.ts';

/** GET /healthz: the process is up. GET /readyz: its dependencies answer and projections keep up. */
export const healthRoutes =
  (readiness: Readiness): FastifyPluginAsync =>
  async (app) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => {
      const report = await readiness.check();
      return reply.status(report.ready ? 200 : 503).send(report);
    });
  };
