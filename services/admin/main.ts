/**
 * The operator CLI: `audit-service <group> <command> [--options]` (or `npm run -s admin -- ...`).
 * JSON on stdout; errors as JSON on stderr with a non-zero exit; `--help` on any group or command
 * prints its usage and exits 0. It opens the database the way `npm start` does (DATABASE_URL, or
 * the embedded PostgreSQL under DATA_DIR, joined if running, started if stopped) so it works on the
 * same state whether or not the service runs, but never creates one: with no state where it looks
 * it says where it looked and exits non-zero.
 */
import { ConfigError, loadConfig } from '../../infra/config.ts';
import type { Database } from '../../infra/database.ts';
import { isAppError } from '../../core/errors.ts';
import { closest, HelpRequested, UsageError, wantsHelp } from '../../infra/cli/options.ts';
import { SUBCOMMANDS } from './subcommands.ts';
import { adminHelp, commandHelp, groupHelp } from './help.ts';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

const fail = (code: number, error: Record<string, unknown>): void => {
  process.stderr.write(`${JSON.stringify({ error })}\n`);
  process.exitCode = code;
};

const GROUPS = [...new Set(Object.keys(SUBCOMMANDS).map((k) => k.split(' ')[0]!))];

/** Runs one operator command; `argv` is what follows the program's name. */
export async function adminMain(argv: string[]): Promise<void> {
  const [group, name, ...rest] = argv;
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') {
    process.stdout.write(adminHelp());
    return;
  }
  const command = SUBCOMMANDS[`${group} ${name}`];
  if (!command) {
    if (GROUPS.includes(group) && (name === undefined || wantsHelp([name]))) {
      process.stdout.write(groupHelp(group));
      return;
    }
    const asked = [group, name].filter(Boolean).join(' ');
    fail(EXIT_USAGE, {
      code: 'usage',
      message: `unknown command "${asked}"; the closest is "${closest(asked, Object.keys(SUBCOMMANDS))}" (see --help)`,
    });
    return;
  }
  let db: Database | undefined;
  try {
    const options = await command.parse(rest);
    const config = loadConfig();
    // The database side (pg, the store's schemas, the logger) once the command line is good.
    const [{ openDatabase }, { createLogger }, { serviceMigrations }, { registerService }] = await Promise.all([
      import('../../infra/database.ts'),
      import('../../infra/logger.ts'),
      import('../migrations.ts'),
      import('../registration.ts'),
    ]);
    registerService();
    const log = createLogger('admin', process.env.LOG_LEVEL ?? 'error', 2);
    db = await openDatabase(config, log, serviceMigrations, 4, { create: false });
    const { output, ok, text } = await command.run(db.pool, options, config);
    process.stdout.write(text ?? `${JSON.stringify(output)}\n`);
    if (!ok) process.exitCode = EXIT_FAILED;
  } catch (e) {
    if (e instanceof HelpRequested) process.stdout.write(commandHelp(`${group} ${name}`));
    else if (e instanceof UsageError) fail(EXIT_USAGE, { code: 'usage', message: e.message, usage: command.usage });
    else if (e instanceof ConfigError) fail(EXIT_FAILED, { code: 'config_error', message: e.message });
    else if (isAppError(e)) fail(EXIT_FAILED, { code: e.code, message: e.message });
    else fail(EXIT_FAILED, { code: 'internal_error', message: (e as Error)?.message ?? String(e) });
  } finally {
    await db?.close().catch(() => undefined);
  }
}
