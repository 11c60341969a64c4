import levenshtein from 'fast-levenshtein';
import { parseArgs } from 'node:util';

/** A bad command line: the command prints it with its usage and exits non-zero. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `--help` or `-h` anywhere on a command line: the command prints its usage and exits 0. */
export class HelpRequested extends Error {
  constructor() {
    super('help requested');
    this.name = 'HelpRequested';
  }
}

export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

export const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

/** The candidate nearest to `word` by edit distance (ties: the first). */
export const closest = (word: string, candidates: readonly string[]): string | undefined =>
  candidates.reduce<{ c?: string; d: number }>(
    (best, c) => {
      const d = levenshtein.get(word, c);
      return d < best.d ? { c, d } : best;
    },
    { d: Infinity },
  ).c;

/**
 * Parses `--name value` options strictly (node:util parseArgs): an unknown option is a usage error
 * that names the closest valid one, a stray word too unless `positionals` allows it; `--help`
 * anywhere asks for the usage instead.
 */
export function parseOptions<S extends OptionSpec>(
  args: string[],
  spec: S,
  positionals = false,
): { values: { [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : string }; positionals: string[] } {
  if (wantsHelp(args)) throw new HelpRequested();
  // `--delta -3`: parseArgs would take "-3" for an option; a negative number is the value.
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!.startsWith('--') ? args[i]!.slice(2) : undefined;
    if (name && spec[name]?.type === 'string' && /^-\d/.test(args[i + 1] ?? '')) joined.push(`--${name}=${args[++i]}`);
    else joined.push(args[i]!);
  }
  try {
    const parsed = parseArgs({ args: joined, options: spec, strict: true, allowPositionals: positionals });
    return { values: parsed.values as never, positionals: parsed.positionals };
  } catch (e) {
    const message = (e as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    const unknown = /Unknown option '--?([^'=]+)'/.exec(message)?.[1];
    const near = unknown === undefined ? undefined : closest(unknown, [...Object.keys(spec), 'help']);
    throw new UsageError(near ? `${message}; the closest valid option is --${near}` : message);
  }
}
