import type { Config } from '../../infra/config.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { integer, parseOptions, prefixed, required, time, UsageError } from './args.ts';
import { AUDIT_COMMANDS } from './auditCommands.ts';
import { adjustCredits, createAccount, createKey, purchaseCredits, revokeKey } from './operations.ts';
import { replayCsv, replayLedger } from './replayLedger.ts';
import { verifyAllLedgers } from './verifyAll.ts';
import { verifyLedger } from './verifyLedger.ts';
import { EVENTS_COMMANDS } from './eventsCommands.ts';
import { WEBHOOK_COMMANDS } from './webhookCommands.ts';
import { BULK_COMMANDS } from './bulkCommands.ts';
import { APPLY_COMMANDS } from './applyCommands.ts';

export interface AdminCommand<O> {
  usage: string;
  /** Checks the command line before anything touches the database. */
  parse(args: string[]): O;
  /**
   * `ok: false` prints the output and exits non-zero (ledger verify finding a difference). `text`,
   * when given, is printed as it is instead of the output's JSON (CSV, JSON lines).
   */
  run(pool: Pool, options: O, config: Config): Promise<{ output: unknown; ok: boolean; text?: string }>;
}

const command = <O>(c: AdminCommand<O>): AdminCommand<unknown> => c as AdminCommand<unknown>;
const done = (output: unknown) => ({ output, ok: true });

export const COMMANDS: Record<string, AdminCommand<unknown>> = {
  'accounts create': command({
    usage: 'accounts create --email E [--credits N] [--unlimited] [--actor WHO]',
    parse(args) {
      const o = parseOptions(args, { email: { type: 'string' }, credits: { type: 'string' }, unlimited: { type: 'boolean' }, actor: { type: 'string' } });
      return {
        email: required(o.email, 'email'),
        credits: o.credits === undefined ? 0 : integer(o.credits, 'credits', 0),
        unlimited: o.unlimited ?? false,
        actor: o.actor ?? 'admin-cli',
      };
    },
    run: async (pool, o) => done(await createAccount(pool, o)),
  }),
  'keys create': command({
    usage: 'keys create --account usr_... [--scopes audits:read,audits:write]',
    parse(args) {
      const o = parseOptions(args, { account: { type: 'string' }, scopes: { type: 'string' } });
      const scopes = (o.scopes ?? 'audits:read,audits:write').split(',').map((s) => s.trim()).filter(Boolean);
      return { accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'), scopes };
    },
    run: async (pool, o) => done(await createKey(pool, o)),
  }),
  'keys revoke': command({
    usage: 'keys revoke --key key_...',
    parse(args) {
      const o = parseOptions(args, { key: { type: 'string' } });
      return { keyId: prefixed(required(o.key, 'key'), 'key', 'key_') };
    },
    run: async (pool, o) => done(await revokeKey(pool, o)),
  }),
  'credits purchase': command({
    usage: 'credits purchase --account usr_... --credits N [--payment pay_...]',
    parse(args) {
      const o = parseOptions(args, { account: { type: 'string' }, credits: { type: 'string' }, payment: { type: 'string' } });
      return {
        accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'),
        credits: integer(required(o.credits, 'credits'), 'credits', 1),
        // Given, it makes a retried purchase a no-op (the payment is recorded once).
        paymentId: o.payment === undefined ? undefined : prefixed(o.payment, 'payment', 'pay_'),
      };
    },
    run: async (pool, o) => done(await purchaseCredits(pool, o)),
  }),
  'credits adjust': command({
    usage: 'credits adjust --account usr_... --delta N --reason TEXT --actor TEXT',
    parse(args) {
      const o = parseOptions(args, { account: { type: 'string' }, delta: { type: 'string' }, reason: { type: 'string' }, actor: { type: 'string' } });
      return {
        accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'),
        delta: integer(required(o.delta, 'delta'), 'delta', -Number.MAX_SAFE_INTEGER),
        reason: required(o.reason, 'reason'),
        actor: required(o.actor, 'actor'),
      };
    },
    run: async (pool, o) => done(await adjustCredits(pool, o)),
  }),
  'ledger verify': command({
    usage: 'ledger verify --account usr_... | --all [--progress]',
    parse(args) {
      const o = parseOptions(args, { account: { type: 'string' }, all: { type: 'boolean' }, progress: { type: 'boolean' } });
      if (o.all && o.account !== undefined) throw new UsageError('give --account or --all, not both');
      if (o.all) return { all: true as const, progress: o.progress ?? Boolean(process.stderr.isTTY) };
      return { all: false as const, accountId: prefixed(required(o.account, 'account'), 'account', 'usr_') };
    },
    async run(pool, o) {
      if (o.all) {
        const report = await verifyAllLedgers(pool, { progress: o.progress });
        return { output: report, ok: report.failed === 0 };
      }
      const report = await verifyLedger(pool, o.accountId);
      return { output: report, ok: report.ok };
    },
  }),
  'ledger replay': command({
    usage: 'ledger replay --account usr_... [--at TIME] [--format json|csv]',
    parse(args) {
      const o = parseOptions(args, { account: { type: 'string' }, at: { type: 'string' }, format: { type: 'string' } });
      const format = o.format ?? 'json';
      if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, got "${format}"`);
      return { accountId: prefixed(required(o.account, 'account'), 'account', 'usr_'), at: o.at === undefined ? undefined : time(o.at, 'at'), format };
    },
    async run(pool, o) {
      const replay = await replayLedger(pool, o.accountId, o.at);
      return { output: replay, ok: true, text: o.format === 'csv' ? replayCsv(replay) : undefined };
    },
  }),
  ...EVENTS_COMMANDS,
  ...AUDIT_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...BULK_COMMANDS,
  ...APPLY_COMMANDS,
};

export const USAGE = Object.values(COMMANDS).map((c) => c.usage);
