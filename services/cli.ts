/**
 * `audit-service`, the one program for operators (the package's bin; `npx audit-service ...`):
 * `audit FILE|URL ...` runs the offline audit, anything else is an operator command.
 */
const help = async (): Promise<string> => {
  const { adminHelp, PROGRAM } = await import('./admin/help.ts');
  return `usage: ${PROGRAM} <command> [--options]    (${PROGRAM} <command> --help for one)

Offline audit:
  ${PROGRAM} audit FILE|URL [--keyword K] [--language L] [--serp-file F] [--title T]

${adminHelp()}`;
};

const [first, ...rest] = process.argv.slice(2);
if (first === undefined || first === 'help' || first === '--help' || first === '-h') process.stdout.write(await help());
// Each side loaded only when asked for: the engine's word lists and language model, or the
// database's, are most of a command's start-up.
else if (first === 'audit') await (await import('./offlineAudit/cli.ts')).auditMain(rest);
else await (await import('./admin/main.ts')).adminMain(process.argv.slice(2));
