/**
 * The operator CLI: `npm run -s admin -- <group> <command> [--options]`. JSON on stdout; errors
 * as JSON on stderr with a non-zero exit. It opens the database the way `npm start` does
 * (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR, joined if running), so it works on the
 * same state whether or not the service runs.
 */
import { ConfigError, loadConfig } from '../../infra/config.ts';
import { openDatabase, type Database } from '../../infra/database.ts';
import { createLogger } from '../../infra/logger.ts';
import { isAppError } from '../../core/errors.ts';
import { UsageError } from './args.ts';
import { SUBCOMMANDS, USAGE } from './subcommands.ts';
import { serviceMigrations } from '../migrations.ts';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

const fail = (code: number, error: Record<string, unknown>): void => {
  process.stderr.write(`${JSON.stringify({ error })}\n`);
  process.exitCode = code;
};

async function main(argv: string[]): Promise<void> {
  const [group, name, ...rest] = argv;
  const command = SUBCOMMANDS[`${group} ${name}`];
  if (!command) {
    fail(EXIT_USAGE, {
      code: 'usage',
      message: group ? `unknown command "${[group, name].filter(Boolean).join(' ')}"` : 'no command given',
      usage: USAGE,
    });
    return;
  }
  let db: Database | undefined;
  try {
    const options = command.parse(rest);
    const config = loadConfig();
    const log = createLogger('admin', process.env.LOG_LEVEL ?? 'error', 2);
    db = await openDatabase(config, log, serviceMigrations, 4);
    const { output, ok, text } = await command.run(db.pool, options, config);
    process.stdout.write(text ?? `${JSON.stringify(output)}\n`);
    if (!ok) process.exitCode = EXIT_FAILED;
  } catch (e) {
    if (e instanceof UsageError) fail(EXIT_USAGE, { code: 'usage', message: e.message, usage: command.usage });
    else if (e instanceof ConfigError) fail(EXIT_FAILED, { code: 'config_error', message: e.message });
    else if (isAppError(e)) fail(EXIT_FAILED, { code: e.code, message: e.message });
    else fail(EXIT_FAILED, { code: 'internal_error', message: (e as Error)?.message ?? String(e) });
  } finally {
    await db?.close().catch(() => undefined);
  }
}

await main(process.argv.slice(2));
