import { SUBCOMMANDS } from './subcommands.ts';

/** The program's name as operators type it (`npx audit-service ...`, the package's bin). */
export const PROGRAM = 'audit-service';

const WHERE = `The database: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (default ./.data), the
service's own; the CLI joins it when the service runs and never creates a new one.
Output: JSON on stdout; errors as JSON on stderr, exit 1 (refused) or 2 (bad command line).`;

const usages = (prefix: string) =>
  Object.entries(SUBCOMMANDS)
    .filter(([k]) => k.startsWith(prefix))
    .map(([, c]) => `  ${PROGRAM} ${c.usage}`)
    .join('\n');

/** Every operator command, one usage line each. */
export const adminHelp = (): string => `Operator commands:\n${usages('')}\n\n${WHERE}\n`;

export const groupHelp = (group: string): string =>
  `usage:\n${usages(`${group} `)}\n\n${PROGRAM} ${group} <command> --help for one command.\n`;

export const commandHelp = (key: string): string => `usage: ${PROGRAM} ${SUBCOMMANDS[key]!.usage}\n\n${WHERE}\n`;
