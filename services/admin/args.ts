import { AppError } from '../../core/errors.ts';
import { parseOptions as parseCommandLine, UsageError, type OptionSpec } from '../../infra/cli/options.ts';

export { HelpRequested, UsageError, type OptionSpec } from '../../infra/cli/options.ts';

/** Options only (no stray words): unknown ones name the closest valid one, `--help` asks for usage. */
export const parseOptions = <S extends OptionSpec>(args: string[], spec: S) => parseCommandLine(args, spec).values;

export function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${option} is required`);
  return value;
}

/** A whole number written as one (no 1e3, no 1.0, no spaces), within [min, max]. */
export function integer(value: string, option: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^-?\d+$/.test(value))
    throw new AppError('invalid_request', `--${option} must be a whole number, got "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new AppError('invalid_request', `--${option} must be from ${min} to ${max}, got ${value}`);
  }
  return n;
}

export function prefixed(value: string, option: string, prefix: string): string {
  if (!value.startsWith(prefix) || value.length === prefix.length) {
    throw new AppError('invalid_request', `--${option} must be an id starting with ${prefix}, got "${value}"`);
  }
  return value;
}

/** An ISO 8601 date or date-time (`2026-11-01`, `2026-11-01T12:00:00Z`). */
export function time(value: string, option: string): Date {
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) || Number.isNaN(d.getTime())) {
    throw new AppError(
      'invalid_request',
      `--${option} must be an ISO 8601 time such as 2026-11-01T12:00:00Z, got "${value}"`,
    );
  }
  return d;
}
