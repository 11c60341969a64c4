/**
 * The one error type of the service. Deciders throw it, the API maps it to the spec's shape
 * {error: {code, message, requestId}}, background steps turn it into a job's errorCode.
 */
export type ErrorCode =
  // HTTP-layer codes of spec section 7
  | 'invalid_request'
  | 'invalid_api_key'
  | 'insufficient_credits'
  | 'insufficient_scope'
  | 'not_found'
  | 'bulk_in_progress'
  | 'already_finished'
  | 'not_completed'
  | 'rate_limited'
  | 'internal_error'
  // background errorCodes of spec 2.2
  | 'crawl_failed'
  | 'keyword_required'
  | 'csi_failed'
  | 'content_too_large'
  | 'audit_failed'
  | 'config_error'
  // internal: optimistic concurrency lost, the caller reloads and decides again
  | 'concurrency_conflict'
  // HTTP-layer extras the spec does not list but the transport needs
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'method_not_allowed';

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_api_key: 401,
  insufficient_credits: 402,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  bulk_in_progress: 409,
  already_finished: 409,
  not_completed: 409,
  concurrency_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  crawl_failed: 422,
  keyword_required: 422,
  csi_failed: 422,
  content_too_large: 422,
  audit_failed: 500,
  config_error: 500,
};

/** Codes whose operation may succeed if run again on fresh state (a caller retries them itself). */
const RETRIABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['concurrency_conflict']);

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Running the same operation again may succeed: `transact` and batch application retry it. */
  readonly retriable: boolean;
  /** Extra fields of the error object (spec 7: invalidUrls, retryAfter, blockingBulkId, ...). */
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS[code];
    this.retriable = RETRIABLE.has(code);
    this.extra = extra;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/**
 * SQLSTATE classes a database uses for "try again": serialization failure and deadlock (40001,
 * 40P01), a lost connection (08xxx), an operator shutdown or restart (57P01-57P03), too many
 * connections (53300); and the socket errors of a database or broker going away.
 */
const TRANSIENT = /^(40001|40P01|08...|57P0[123]|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE)$/;

/** Whether running the operation again may succeed: a retriable AppError or a transient database error. */
export const isRetriable = (e: unknown): boolean => {
  if (e instanceof AppError) return e.retriable;
  const code = typeof e === 'object' && e !== null && 'code' in e ? (e as { code: unknown }).code : undefined;
  return typeof code === 'string' && TRANSIENT.test(code);
};
