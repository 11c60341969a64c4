/**
 * The baseline of the API bench: bare Fastify routes answering the same shapes as POST /audits and
 * GET /audits/{id}, with no auth, validation, database or events. Prints its address.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/api/v1/audits', async (_req, reply) =>
  reply.status(202).send({ id: 'job_x', status: 'queued', createdAt: new Date().toISOString(), apiVersion: 'v1.4' }),
);
app.get('/api/v1/audits/:id', async (req) => ({
  id: (req.params as { id: string }).id,
  status: 'queued',
  auditId: 'aud_x',
  project: null,
  createdAt: new Date().toISOString(),
  apiVersion: 'v1.4',
}));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${address}`);
