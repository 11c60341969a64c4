import { AuditAdmitted, AuditReleased } from '../../events/account/admission.ts';
import { accountStreamId, type AccountEvent } from '../../events/account/index.ts';
import type { DomainEvent } from '../../core/decider.ts';
import { appendToStream } from '../../infra/eventStore/eventStore.ts';
import { withTransaction, type Pool } from '../../infra/postgres/pool.ts';
import { accountDecider, type AccountCommand, type AccountState } from '../../services/domain/account/decider.ts';
import { isAppError } from '../../core/errors.ts';

/** A small seeded generator (mulberry32), so a failing run can be repeated from its seed. */
export const seededRandom = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/**
 * The events of one account after a random run of the domain's own commands (decided by the
 * account decider, so every rule holds): purchases, audit charges with their admission events,
 * apply charges, refunds of earlier charges, adjustments both ways; refused commands (no credit)
 * are simply left out, as the API would answer 402.
 */
export function randomAccountEvents(accountId: string, steps: number, random: () => number): DomainEvent[] {
  let state: AccountState = accountDecider.initialState();
  const events: DomainEvent[] = [];
  const charges: { kind: 'audit' | 'apply'; subjectId: string }[] = [];
  const run = (command: AccountCommand): boolean => {
    try {
      const decided = accountDecider.decide(command, state);
      for (const e of decided) state = accountDecider.evolve(state, e as AccountEvent);
      events.push(...decided);
      return decided.length > 0;
    } catch (e) {
      if (isAppError(e)) return false;
      throw e;
    }
  };
  run({
    type: 'OpenAccount',
    data: {
      accountId,
      email: `${accountId}@example.com`,
      sealedEmail: 'enc:v1:c2VhbGVk',
      role: 'user',
      unlimited: false,
      webhookSecretRef: 'vault:whs_abcdefgh',
    },
  });
  for (let i = 0; i < steps; i++) {
    const r = random();
    if (r < 0.25)
      run({
        type: 'PurchaseCredits',
        data: { paymentId: `pay_${accountId}_${i}`, credits: 1 + Math.floor(random() * 20) },
      });
    else if (r < 0.6) {
      const auditId = `aud_${accountId}_${i}`;
      events.push(AuditAdmitted({ auditId }));
      if (
        run({
          type: 'ChargeCredit',
          data: {
            kind: 'audit',
            subjectId: auditId,
            jobId: `job_${i}`,
            url: `https://example.com/${i}`,
            project: random() < 0.5 ? 'p' : null,
          },
        })
      ) {
        charges.push({ kind: 'audit', subjectId: auditId });
      }
      events.push(AuditReleased({ auditId }));
    } else if (r < 0.7) {
      const subjectId = `rev_${accountId}_${i}`;
      if (run({ type: 'ChargeCredit', data: { kind: 'apply', subjectId, jobId: null, url: null, project: null } }))
        charges.push({ kind: 'apply', subjectId });
    } else if (r < 0.85) {
      const charge = charges[Math.floor(random() * charges.length)];
      // A repeat refund decides nothing, as on the API.
      if (charge) run({ type: 'RefundCharge', data: { ...charge, reason: 'audit failed' } });
    } else {
      const delta = Math.floor(random() * 21) - 8 || 1;
      run({
        type: 'AdjustCredits',
        data: { adjustmentId: `adj_${accountId}_${i}`, delta, actor: 'ops', reason: 'correction' },
      });
    }
  }
  return events;
}

/**
 * Appends random accounts through the event store itself (validation, versions, hash chain), many
 * accounts per transaction for speed. Returns their ids.
 */
export async function appendRandomAccounts(
  pool: Pool,
  options: { accounts: number; steps: number; seed: number; prefix?: string; perTransaction?: number },
): Promise<string[]> {
  const random = seededRandom(options.seed);
  const ids = Array.from({ length: options.accounts }, (_, i) => `usr_${options.prefix ?? 'r'}${options.seed}_${i}`);
  const per = options.perTransaction ?? 50;
  for (let from = 0; from < ids.length; from += per) {
    const batch = ids
      .slice(from, from + per)
      .map((accountId) => ({ accountId, events: randomAccountEvents(accountId, options.steps, random) }));
    await withTransaction(pool, async (tx) => {
      for (const { accountId, events } of batch) {
        // One INSERT holds at most 65,535 parameters: 12 per event.
        for (let at = 0; at < events.length; at += 2_000) {
          await appendToStream(tx, {
            streamId: accountStreamId(accountId),
            accountId,
            expectedVersion: at,
            now: new Date(),
            events: events.slice(at, at + 2_000),
          });
        }
      }
    });
  }
  return ids;
}
