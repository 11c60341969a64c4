import { Type, type TSchema } from '@sinclair/typebox';
import { API_VERSION } from '../../../core/apiVersion.ts';
import { ErrorBody } from './error.ts';

/** `apiVersion` at the top level of every response (spec 9.3). */
export const ApiVersion = Type.Literal(API_VERSION, { description: 'Full API version (spec 9.2)' });

/** Spec 7 errors every authenticated route can give. */
export const authErrors = {
  401: { ...ErrorBody, description: 'invalid_api_key: missing, bad or revoked key' },
  403: { ...ErrorBody, description: 'insufficient_scope: the key lacks the required scope' },
  500: { ...ErrorBody, description: 'internal_error: unexpected error; quote requestId' },
} as const;

export const rateLimitedError = {
  429: { ...ErrorBody, description: 'rate_limited: carries retryAfter, Retry-After and X-RateLimit-*' },
} as const;

export const invalidRequestError = { 400: { ...ErrorBody, description: 'invalid_request' } } as const;

/** A 200 response schema with a description for the OpenAPI document. */
export const ok = <T extends TSchema>(schema: T, description: string): T => ({ ...schema, description });

/** The paging fields of every list response (jobs, credit history). */
export const pageFields = {
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
  apiVersion: ApiVersion,
};
