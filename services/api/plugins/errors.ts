import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../shared/errors.ts';
import { API_VERSION } from '../schemas/error.ts';

const body = (request: FastifyRequest, e: AppError) => ({
  error: { code: e.code, message: e.message, requestId: String(request.id), ...e.extra },
  apiVersion: API_VERSION,
});

/**
 * One root error handler: domain errors and the transport's own failures (validation, malformed
 * JSON, wrong content type, oversized body, unknown route) become the spec's shape; anything else
 * is logged and masked, so no database or stack detail reaches a client.
 */
export const errorsPlugin = fp(async (app) => {
  app.setErrorHandler((err: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const e = toAppError(err);
    if (e.code === 'internal_error') request.log.error({ err }, 'unexpected error');
    if (e.code === 'rate_limited' && typeof e.extra.retryAfter === 'number') reply.header('Retry-After', String(e.extra.retryAfter));
    return reply.status(e.status).send(body(request, e));
  });
  app.setNotFoundHandler((request, reply) => {
    const e = new AppError('not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`);
    return reply.status(404).send(body(request, e));
  });
}, { name: 'errors' });

export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const f = err as FastifyError;
  if (f.validation) {
    const first = f.validation[0];
    const where = f.validationContext ?? 'request';
    const path = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : (first?.params as { missingProperty?: string })?.missingProperty;
    return new AppError('invalid_request', `Invalid ${where}${path ? ` field ${path}` : ''}: ${first?.message ?? 'invalid'}`);
  }
  switch (f.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'Request body is too large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_request', 'Body must not be empty when Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Body is not valid JSON');
    default:
      break;
  }
  if (f.statusCode === 400 && /JSON/i.test(f.message)) return new AppError('invalid_request', 'Body is not valid JSON');
  return new AppError('internal_error', 'Internal error; quote the requestId when reporting it');
}
