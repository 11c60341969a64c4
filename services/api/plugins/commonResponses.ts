import type { RouteOptions } from 'fastify';
import { ErrorBody } from '../schemas/error.ts';

const error = (description: string) => ({ ...ErrorBody, description });

/**
 * The answers any route can give besides its own, declared on every /api/v1 route as it is added
 * (an onRoute hook), so the OpenAPI document lists every status a route can answer, for new routes
 * too: a malformed request (400), a body refused by the transport (413, 415), an id that cannot
 * exist (404), authentication and scope (401, 403), its rate window (429), and the masked 500.
 * A route's own description of a status wins.
 */
export function declareCommonResponses(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as { response?: Record<string, unknown>; hide?: boolean };
  if (schema.hide) return;
  const response = (schema.response ??= {});
  const add = (status: number, description: string) => {
    if (!(status in response) && !(String(status) in response)) response[status] = error(description);
  };
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  add(400, 'invalid_request: a malformed request (path escapes, query, headers or body)');
  if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH' || m === 'DELETE')) {
    if (!route.config?.oversizedBody)
      add(413, "payload_too_large: the body is over the route's limit (1 MiB unless documented otherwise)");
    add(415, 'unsupported_media_type: the body is not application/json');
  }
  if (route.url.includes(':')) add(404, 'not_found: no such resource on this account');
  const access = route.config?.access;
  if (access !== 'public') {
    add(401, 'invalid_api_key: missing, bad or revoked key');
    if (access !== 'anyKey') add(403, 'insufficient_scope: the key lacks the required scope');
  }
  if (route.config?.rateLimit) add(429, 'rate_limited: carries retryAfter, Retry-After and X-RateLimit-*');
  add(500, 'internal_error: unexpected error; quote requestId');
}
