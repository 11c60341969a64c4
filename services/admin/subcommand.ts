import type { Config } from '../../infra/config.ts';
import type { Pool } from '../../infra/postgres/pool.ts';

/** One subcommand of the operator CLI (`npm run -s admin -- <subcommand> [options]`). */
export interface Subcommand<O> {
  usage: string;
  /** Checks the command line before anything touches the database (async to load what it checks against). */
  parse(args: string[]): O | Promise<O>;
  /**
   * `ok: false` prints the output and exits non-zero (ledger verify finding a difference). `text`,
   * when given, is printed as it is instead of the output's JSON (CSV, JSON lines).
   */
  run(pool: Pool, options: O, config: Config): Promise<{ output: unknown; ok: boolean; text?: string }>;
}

/** Declares a subcommand, keeping its options' type between parse and run. */
export const subcommand = <O>(c: Subcommand<O>): Subcommand<unknown> => c as Subcommand<unknown>;

/** A successful run printing `output` as JSON. */
export const done = (output: unknown) => ({ output, ok: true });
