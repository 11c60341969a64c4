import { parseArgs } from 'node:util';
import { AppError } from '../../core/errors.ts';

/** A bad command line: printed as a JSON error on stderr with the usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Parses `--name value` options strictly: unknown options and stray words are usage errors. */
export function parseOptions<S extends OptionSpec>(
  args: string[],
  spec: S,
): { [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : string } {
  // `--delta -3`: parseArgs would take "-3" for an option; a negative number is the value.
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!.startsWith('--') ? args[i]!.slice(2) : undefined;
    if (name && spec[name]?.type === 'string' && /^-\d/.test(args[i + 1] ?? '')) joined.push(`--${name}=${args[++i]}`);
    else joined.push(args[i]!);
  }
  try {
    const { values } = parseArgs({ args: joined, options: spec, strict: true, allowPositionals: false });
    return values as never;
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

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
