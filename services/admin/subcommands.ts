import { done, subcommand, type Subcommand } from './subcommand.ts';
import { integer, parseOptions, prefixed, required, time, UsageError } from './args.ts';
import { AUDIT_SUBCOMMANDS } from './auditSubcommands.ts';
import { EVENTS_SUBCOMMANDS } from './eventsSubcommands.ts';
import { WEBHOOK_SUBCOMMANDS } from './webhookSubcommands.ts';
import { BULK_SUBCOMMANDS } from './bulkSubcommands.ts';
import { APPLY_SUBCOMMANDS } from './applySubcommands.ts';
import { PRIVACY_SUBCOMMANDS } from './privacySubcommands.ts';

// Each command's implementation is imported when it runs: the table itself (usage and command-line
// checks) stays light, so --help, a usage error or one command loads only what it needs.
const operations = () => import('./operations.ts');

export const SUBCOMMANDS: Record<string, Subcommand<unknown>> = {
  'accounts create': subcommand({
    usage: 'accounts create --email E [--credits N] [--unlimited] [--actor WHO]',
    parse(args) {
      const o = parseOptions(args, {
        email: { type: 'string' },
        credits: { type: 'string' },
        unlimited: { type: 'boolean' },
        actor: { type: 'string' },
      });
      return {
        email: required(o.email, 'email'),
        credits: o.credits === undefined ? 0 : integer(o.credits, 'credits', 0),
        unlimited: o.unlimited ?? false,
        actor: o.actor ?? 'admin-cli',
      };
    },
    run: async (pool, o) => done(await (await operations()).createAccount(pool, o)),
  }),
  'keys create': subcommand({
    usage: 'keys create --account usr_... [--scopes audits:read,audits:write]',
    parse(args) {
      const o = parseOptions(args, { account: { type: 'string' }, scopes: { type: 'string' } });
      const scopes = (o.scopes ?? 'audits:read,audits:write')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return { accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'), scopes };
    },
    run: async (pool, o) => done(await (await operations()).createKey(pool, o)),
  }),
  'keys revoke': subcommand({
    usage: 'keys revoke --key key_...',
    parse(args) {
      const o = parseOptions(args, { key: { type: 'string' } });
      return { keyId: prefixed(required(o.key, 'key'), 'key', 'key_') };
    },
    run: async (pool, o) => done(await (await operations()).revokeKey(pool, o)),
  }),
  'credits purchase': subcommand({
    usage: 'credits purchase --account usr_... --credits N [--payment pay_...]',
    parse(args) {
      const o = parseOptions(args, {
        account: { type: 'string' },
        credits: { type: 'string' },
        payment: { type: 'string' },
      });
      return {
        accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'),
        credits: integer(required(o.credits, 'credits'), 'credits', 1),
        // Given, it makes a retried purchase a no-op (the payment is recorded once).
        paymentId: o.payment === undefined ? undefined : prefixed(o.payment, 'payment', 'pay_'),
      };
    },
    run: async (pool, o) => done(await (await operations()).purchaseCredits(pool, o)),
  }),
  'credits adjust': subcommand({
    usage: 'credits adjust --account usr_... --delta N --reason TEXT --actor TEXT',
    parse(args) {
      const o = parseOptions(args, {
        account: { type: 'string' },
        delta: { type: 'string' },
        reason: { type: 'string' },
        actor: { type: 'string' },
      });
      return {
        accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'),
        delta: integer(required(o.delta, 'delta'), 'delta', -Number.MAX_SAFE_INTEGER),
        reason: required(o.reason, 'reason'),
        actor: required(o.actor, 'actor'),
      };
    },
    run: async (pool, o) => done(await (await operations()).adjustCredits(pool, o)),
  }),
  'ledger verify': subcommand({
    usage: 'ledger verify --account usr_... | --all [--progress]',
    parse(args) {
      const o = parseOptions(args, {
        account: { type: 'string' },
        all: { type: 'boolean' },
        progress: { type: 'boolean' },
      });
      if (o.all && o.account !== undefined) throw new UsageError('give --account or --all, not both');
      if (o.all) return { all: true as const, progress: o.progress ?? Boolean(process.stderr.isTTY) };
      return { all: false as const, accountId: prefixed(required(o.account, 'account'), 'account', 'usr_') };
    },
    async run(pool, o) {
      if (o.all) {
        const { verifyAllLedgers } = await import('./verifyAll.ts');
        const report = await verifyAllLedgers(pool, { progress: o.progress });
        return { output: report, ok: report.failed === 0 };
      }
      const { verifyLedger } = await import('./verifyLedger.ts');
      const report = await verifyLedger(pool, o.accountId);
      return { output: report, ok: report.ok };
    },
  }),
  'ledger replay': subcommand({
    usage: 'ledger replay --account usr_... [--at TIME] [--format json|csv]',
    parse(args) {
      const o = parseOptions(args, { account: { type: 'string' }, at: { type: 'string' }, format: { type: 'string' } });
      const format = o.format ?? 'json';
      if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, got "${format}"`);
      return {
        accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'),
        at: o.at === undefined ? undefined : time(o.at, 'at'),
        format,
      };
    },
    async run(pool, o) {
      const { replayCsv, replayLedger } = await import('./replayLedger.ts');
      const replay = await replayLedger(pool, o.accountId, o.at);
      return { output: replay, ok: true, text: o.format === 'csv' ? replayCsv(replay) : undefined };
    },
  }),
  ...EVENTS_SUBCOMMANDS,
  ...AUDIT_SUBCOMMANDS,
  ...WEBHOOK_SUBCOMMANDS,
  ...BULK_SUBCOMMANDS,
  ...APPLY_SUBCOMMANDS,
  ...PRIVACY_SUBCOMMANDS,
};
