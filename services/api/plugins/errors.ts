import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError, isAppError } from '../../../core/errors.ts';
import { API_VERSION } from '../../../core/apiVersion.ts';
import { newRequestId } from './requestId.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For a route whose every field has a maximum (POST /audits), a body over its bodyLimit cannot
     * be valid: it is a 400 invalid_request with this message rather than a 413.
     */
    oversizedBody?: string;
  }
}

const body = (request: FastifyRequest, e: AppError) => ({
  error: { code: e.code, message: e.message, requestId: String(request.id), ...e.extra },
  apiVersion: API_VERSION,
});

/**
 * One root error handler: domain errors and the transport's own failures (validation, malformed
 * JSON, wrong content type, oversized body, unknown route) become the spec's shape; anything else
 * is logged and masked, so no database or stack detail reaches a client.
 */
export const errorsPlugin = fp(
  async (app) => {
    const routes = routeTable();
    app.addHook('onRoute', (route) => routes.add(route.method, route.url));
    // No route for this method and path: 405 with Allow when the path has other methods, else 404.
    const noRoute = (request: FastifyRequest, reply: FastifyReply): AppError => {
      const path = request.url.split('?')[0]!;
      const allowed = routes.methodsOf(path);
      if (allowed.length === 0) return new AppError('not_found', `Route ${request.method} ${path} not found`);
      reply.header('Allow', allowed.join(', '));
      return new AppError(
        'method_not_allowed',
        `Method ${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      );
    };
    app.setErrorHandler((err: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
      // Fastify may refuse a request for a route that does not exist (a body without Content-Type
      // on a method such as QUERY) before the not-found handler runs: it is still a missing route.
      let e = request.is404 && !isAppError(err) ? noRoute(request, reply) : toAppError(err);
      const oversized = request.routeOptions?.config?.oversizedBody;
      if (e.code === 'payload_too_large' && oversized) e = new AppError('invalid_request', oversized);
      if (e.code === 'internal_error') request.log.error({ err }, 'unexpected error');
      if (e.code === 'rate_limited' && typeof e.extra.retryAfter === 'number')
        reply.header('Retry-After', String(e.extra.retryAfter));
      return reply.status(e.status).send(body(request, e));
    });
    // A NUL can be neither stored nor looked up (PostgreSQL refuses it in any text parameter), and
    // no id, name or filter holds one: refused for the whole request, before anything reads it.
    app.addHook('onRequest', async (request) => {
      if (/%00/.test(request.url))
        throw new AppError('invalid_request', 'The path or query string contains a NUL character (%00)');
    });
    app.setNotFoundHandler((request, reply) => {
      const e = noRoute(request, reply);
      return reply.status(e.status).send(body(request, e));
    });
  },
  { name: 'errors' },
);

/**
 * The declared routes by path pattern (`:id` matches one segment), to tell a 405 from a 404. A
 * path that several patterns match is the resource of the most specific one, as the router has it
 * (a fixed segment wins over a parameter): /audits/bulk is the bulk resource, not an audit id, so
 * its Allow lists bulk's methods only.
 */
function routeTable() {
  const byPattern = new Map<string, { re: RegExp; fixed: number; methods: Set<string> }>();
  return {
    add(method: string | string[], url: string) {
      let entry = byPattern.get(url);
      if (!entry) {
        const re = new RegExp(
          `^${url
            .split('/')
            .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/')}/?$`,
        );
        const fixed = url.split('/').filter((s) => s && !s.startsWith(':')).length;
        byPattern.set(url, (entry = { re, fixed, methods: new Set() }));
      }
      for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m);
    },
    methodsOf(path: string): string[] {
      const matching = [...byPattern.values()].filter(({ re }) => re.test(path));
      const mostFixed = Math.max(...matching.map((p) => p.fixed));
      const methods = new Set<string>();
      for (const p of matching) if (p.fixed === mostFixed) p.methods.forEach((m) => methods.add(m));
      return [...methods].sort();
    },
  };
}

/**
 * Errors Fastify raises before a route is found (and so before any hook or the error handler): a
 * bad percent-escape in the path, a path parameter over maxParamLength. Same shape, same headers.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (err, request, reply) => {
  const e =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? // No resource has an id that long (ids are at most 100 characters): it cannot exist.
        new AppError(
          'not_found',
          `Not found: a path segment is longer than ${MAX_PARAM_LENGTH} characters, and no id is`,
        )
      : err.code === 'FST_ERR_BAD_URL'
        ? new AppError(
            'invalid_request',
            'The path is not valid: it holds a malformed percent-escape (% must be followed by two hex digits of UTF-8)',
          )
        : toAppError(err);
  const r = reply as FastifyReply;
  r.header('X-Request-Id', request.id);
  return r.status(e.status).send(body(request as FastifyRequest, e));
};

/**
 * Requests node's HTTP parser refuses (a CR, LF or NUL inside a header, a header section over
 * the size limit, a request not received in time) never reach Fastify: there is no request, no
 * reply and no hook, only the socket. The answer is written raw, in the spec's shape, with a fresh
 * X-Request-Id (the request's own could not be read). The status tells the cases apart (400, 408,
 * 431); the code is invalid_request for all three (docs/api-decisions.md).
 */
export function clientErrorHandler(
  this: { log: { debug(o: object, msg: string): void } },
  err: NodeJS.ErrnoException,
  socket: Duplex,
): void {
  // A reset connection has no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? CLIENT_ERRORS.default!;
  const requestId = newRequestId();
  this.log.debug({ err, requestId }, 'request refused by the HTTP parser');
  if (socket.writable) {
    const payload = JSON.stringify({
      error: { code: 'invalid_request', message, requestId },
      apiVersion: API_VERSION,
    });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `Connection: close\r\n\r\n${payload}`,
    );
  }
  socket.destroy(err);
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large (16 KB at most, all headers together)'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request was not received in time'],
  default: [
    400,
    'The request is not valid HTTP: a header name or value holds a character HTTP does not allow (CR, LF, NUL, ...), or the request line or framing is malformed',
  ],
};

/** Fastify's default limit for one path parameter (maxParamLength), named here for the message. */
export const MAX_PARAM_LENGTH = 100;

export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const f = err as FastifyError;
  if (f.validation) {
    const first = f.validation[0];
    const where = f.validationContext ?? 'request';
    const path = first?.instancePath
      ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
      : (first?.params as { missingProperty?: string })?.missingProperty;
    return new AppError(
      'invalid_request',
      `Invalid ${where}${path ? ` field ${path}` : ''}: ${first?.message ?? 'invalid'}`,
    );
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
  // Any other refusal of the transport (e.g. a body without Content-Type on a method such as
  // QUERY, which no route declares) is the client's: a 400 in the spec's shape, never a 500.
  if (
    typeof f.code === 'string' &&
    f.code.startsWith('FST_ERR') &&
    typeof f.statusCode === 'number' &&
    f.statusCode >= 400 &&
    f.statusCode < 500
  ) {
    return new AppError('invalid_request', `The request was refused: ${f.message.slice(0, 200)}`);
  }
  return new AppError('internal_error', 'Internal error; quote the requestId when reporting it');
}
