import type { ApiKeyScope } from '../../../events/account/index.ts';

/**
 * What a route asks of the caller:
 * - `public`: no key (the OpenAPI document);
 * - `anyKey`: any valid key, whatever its scopes;
 * - a scope: a valid key holding that scope (spec 5.4).
 */
export type RouteAccess = 'public' | 'anyKey' | ApiKeyScope;

/**
 * The scope table: spec 5.4 plus the endpoints whose scopes spec 5.7 leaves open (decisions in
 * docs/api-decisions.md). Routes take their `access` from here, so the table is the one place to
 * read and to test.
 */
export const ACCESS = {
  'GET /me': 'anyKey',
  'GET /credits/usage': 'audits:read',
  'GET /projects': 'audits:read',
  'GET /audits': 'audits:read',
  'GET /audits/:id': 'audits:read',
  'GET /audits/bulk/:id': 'audits:read',
  'GET /audits/:id/apply/items': 'audits:read',
  'GET /audits/:id/apply/:revisionId': 'audits:read',
  'POST /audits': 'audits:write',
  'POST /audits/bulk': 'audits:write',
  'POST /audits/bulk/:id/cancel': 'audits:write',
  'POST /audits/:id/share': 'audits:write',
  'DELETE /audits/:id/share': 'audits:write',
  'POST /audits/:id/apply': 'audits:write',
  'GET /openapi.json': 'public',
} as const satisfies Record<string, RouteAccess>;
