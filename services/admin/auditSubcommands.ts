import { readFile } from 'node:fs/promises';
import { loadConfig } from '../../infra/config.ts';
import { UsageError, parseOptions, prefixed, required, type OptionSpec } from './args.ts';
import { done, subcommand, type Subcommand } from './subcommand.ts';

const createSpec = {
  account: { type: 'string' },
  url: { type: 'string' },
  'content-file': { type: 'string' },
  keyword: { type: 'string' },
  project: { type: 'string' },
} satisfies OptionSpec;

/** `audits create` and `audits assign` (issue 5): app audits and project reassignment. */
export const AUDIT_SUBCOMMANDS: Record<string, Subcommand<unknown>> = {
  'audits create': subcommand({
    usage: 'audits create --account usr_... (--url U | --content-file F) [--keyword K] [--project P]',
    parse(args) {
      const o = parseOptions(args, createSpec);
      if ((o.url === undefined) === (o['content-file'] === undefined))
        throw new UsageError('give exactly one of --url and --content-file');
      return {
        accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'),
        url: o.url,
        contentFile: o['content-file'],
        keyword: o.keyword,
        project: o.project,
      };
    },
    async run(pool, o) {
      const content = o.contentFile === undefined ? undefined : await readFile(o.contentFile, 'utf8');
      // The same acceptance rules as the API of this deployment (ALLOW_PRIVATE_ADDRESSES included).
      const { allowPrivateAddresses } = loadConfig();
      const { createPanelAudit } = await import('./audits.ts');
      return done(
        await createPanelAudit(
          pool,
          { allowPrivateAddresses },
          { accountId: o.accountId, url: o.url, content, keyword: o.keyword, project: o.project },
        ),
      );
    },
  }),
  'audits assign': subcommand({
    usage: 'audits assign --audit aud_... (--project P | --none)',
    parse(args) {
      const o = parseOptions(args, {
        audit: { type: 'string' },
        project: { type: 'string' },
        none: { type: 'boolean' },
      });
      if ((o.project === undefined) === (o.none !== true))
        throw new UsageError('give exactly one of --project and --none');
      return { auditId: prefixed(required(o.audit, 'audit'), 'audit', 'aud_'), project: o.none ? null : o.project! };
    },
    run: async (pool, o) => done(await (await import('./audits.ts')).assignProject(pool, o)),
  }),
};
