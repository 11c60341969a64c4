/**
 * `audit-service`, the one program for operators (the package's bin; `npx audit-service ...`):
 * `audit FILE|URL ...` runs the offline audit, anything else is an operator command.
 */
import { auditMain } from './engine/cli.ts';
import { adminHelp, PROGRAM } from './admin/help.ts';
import { adminMain } from './admin/main.ts';

const HELP = `usage: ${PROGRAM} <command> [--options]    (${PROGRAM} <command> --help for one)

Offline audit:
  ${PROGRAM} audit FILE|URL [--keyword K] [--language L] [--serp-file F] [--title T]

${adminHelp()}`;

const [first, ...rest] = process.argv.slice(2);
if (first === undefined || first === 'help' || first === '--help' || first === '-h') process.stdout.write(HELP);
else if (first === 'audit') await auditMain(rest);
else await adminMain(process.argv.slice(2));
