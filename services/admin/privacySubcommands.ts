import { parseOptions, prefixed, required } from './args.ts';
import { done, subcommand, type Subcommand } from './subcommand.ts';

/** Erasure and the one-time move of old secrets out of the log (docs/privacy.md). */
export const PRIVACY_SUBCOMMANDS: Record<string, Subcommand<unknown>> = {
  'accounts forget': subcommand({
    usage: 'accounts forget --account usr_... [--actor WHO] [--reason TEXT]',
    parse(args) {
      const o = parseOptions(args, {
        account: { type: 'string' },
        actor: { type: 'string' },
        reason: { type: 'string' },
      });
      return {
        accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'),
        actor: o.actor ?? 'admin-cli',
        reason: o.reason ?? 'erasure requested',
      };
    },
    run: async (pool, o) => done(await (await import('../accounts/forget.ts')).forgetAccount(pool, o)),
  }),
  'secrets migrate': subcommand({
    usage: 'secrets migrate',
    parse(args) {
      parseOptions(args, {});
      return {};
    },
    run: async (pool) => done(await (await import('../secrets/migrateLegacy.ts')).migrateLegacySecrets(pool)),
  }),
};
