import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

const MAX_ID = 200;

/** A fresh request id, for a request that brought none (or one that could not be read). */
export const newRequestId = (): string => `req_${randomUUID()}`;

/** X-Request-Id: a supplied (sane) value is echoed, otherwise one is generated; on every response. */
export const requestIdOptions: Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> = {
  requestIdHeader: false,
  genReqId: (req) => {
    const supplied = req.headers['x-request-id'];
    const v = Array.isArray(supplied) ? supplied[0] : supplied;
    return v && v.length <= MAX_ID && /^[\x21-\x7e]+$/.test(v) ? v : newRequestId();
  },
};

export const requestIdPlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('X-Request-Id', request.id);
    });
  },
  { name: 'request-id' },
);
