/**
 * Why the guard refused a URL. It is not an AppError on purpose: the same refusal is a 400
 * invalid_request at acceptance, a crawl_failed job in the crawler and a failed attempt for a
 * webhook, so each caller maps it to its own code.
 */
export type GuardReason = 'invalid_url' | 'scheme' | 'credentials' | 'port' | 'blocked_address' | 'dns_failed';

export class GuardError extends Error {
  /** Node-style code, so it survives HTTP clients that wrap errors by copying `code`. */
  readonly code = 'ERR_URL_GUARD';

  constructor(
    readonly reason: GuardReason,
    message: string,
  ) {
    super(message);
    this.name = 'GuardError';
  }
}

/** Finds a GuardError in an error or its `cause` chain (got and undici wrap errors). */
export function findGuardError(e: unknown): GuardError | undefined {
  for (let cur = e, depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof GuardError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}
