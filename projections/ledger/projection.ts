import type {
  AccountOpened,
  CreditCharged,
  CreditRefunded,
  CreditsAdjusted,
  CreditsPurchased,
  UnlimitedSet,
} from '../../events/account/index.ts';
import { typesOfStream } from '../../events/catalogue.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import type { PoolClient } from '../../infra/postgres/pool.ts';
import type { Projection } from '../projection.ts';

/**
 * The credit ledger read model behind GET /credits/usage and GET /me's auditCredits: one balance row
 * per account and one entry per credit movement, the same rules as historyOf
 * (services/domain/account/ledger.ts): a refund turns its charge's entry into `refunded, delta 0`.
 *
 * Balance and entries change in the same transaction, so any snapshot of the two tables has the sum
 * of the entries' deltas equal to the balance. Each account row remembers the stream version it has
 * folded; an event at or below it is skipped, so a redelivered event never counts twice.
 * Asynchronous: it follows the log like any projection (a read may trail a write by milliseconds).
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  version: 1,
  tables: ['ledger_accounts', 'ledger_entries'],
  createSql: `
    CREATE TABLE IF NOT EXISTS ledger_accounts (
      account_id     text    PRIMARY KEY,
      remaining      integer NOT NULL,
      used           integer NOT NULL,
      unlimited      boolean NOT NULL,
      entries        integer NOT NULL,
      stream_version integer NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ledger_entries (
      account_id text        NOT NULL,
      -- The stream version of the event that made the entry: the ledger's order.
      seq        integer     NOT NULL,
      type       text        NOT NULL,
      id         text        NOT NULL,
      delta      integer     NOT NULL,
      refunded   boolean     NOT NULL,
      url        text,
      project    text,
      charge_id  text,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, seq)
    );
    CREATE UNIQUE INDEX IF NOT EXISTS ledger_entries_charge ON ledger_entries (account_id, charge_id) WHERE charge_id IS NOT NULL;
  `,
  // Every event of the account stream as the catalogue declares it, so stream_version always
  // reaches the stream's last event (AuditAdmitted/AuditReleased included: issue 9).
  canHandle: typesOfStream('account'),
  async handle(events: EventEnvelope[], tx: PoolClient): Promise<void> {
    for (const e of events) await apply(e, tx);
  },
};

/** The account's row, at balance 0; a redelivered AccountOpened changes nothing. */
async function openAccount(e: EventEnvelope, tx: PoolClient): Promise<void> {
  const d = e.payload as AccountOpened['data'];
  await tx.query(
    `INSERT INTO ledger_accounts (account_id, remaining, used, unlimited, entries, stream_version) VALUES ($1, 0, 0, $2, 0, $3)
       ON CONFLICT (account_id) DO NOTHING`,
    [e.accountId, d.unlimited, e.streamVersion],
  );
}

/** Moves the account row to this event's version; false when it was there already (a redelivery). */
async function advance(e: EventEnvelope, tx: PoolClient, set = '', params: unknown[] = []): Promise<boolean> {
  const r = await tx.query(
    `UPDATE ledger_accounts SET stream_version = $2${set ? `, ${set}` : ''} WHERE account_id = $1 AND stream_version < $2`,
    [e.accountId, e.streamVersion, ...params],
  );
  return r.rowCount === 1;
}

/** The event's entry, at its stream version. */
const addEntry = (
  e: EventEnvelope,
  tx: PoolClient,
  entry: { type: string; id: string; delta: number; url?: string | null; project?: string | null; chargeId?: string },
) =>
  tx.query(
    `INSERT INTO ledger_entries (account_id, seq, type, id, delta, refunded, url, project, charge_id, created_at)
       VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8, $9)`,
    [
      e.accountId,
      e.streamVersion,
      entry.type,
      entry.id,
      entry.delta,
      entry.url ?? null,
      entry.project ?? null,
      entry.chargeId ?? null,
      e.occurredAt,
    ],
  );

/** A refund turns its charge's entry into `refunded, delta 0` and gives the credits back. */
async function refund(e: EventEnvelope, tx: PoolClient): Promise<void> {
  const d = e.payload as CreditRefunded['data'];
  if (!(await advance(e, tx))) return;
  // As evolve does: only a charge that exists and is not refunded yet gives credits back.
  const charge = await tx.query<{ delta: number }>(
    'SELECT delta FROM ledger_entries WHERE account_id = $1 AND charge_id = $2 AND NOT refunded',
    [e.accountId, d.chargeId],
  );
  const credits = -(charge.rows[0]?.delta ?? 0);
  if (credits <= 0) return;
  await tx.query('UPDATE ledger_entries SET delta = 0, refunded = true WHERE account_id = $1 AND charge_id = $2', [
    e.accountId,
    d.chargeId,
  ]);
  await tx.query('UPDATE ledger_accounts SET remaining = remaining + $2, used = used - $2 WHERE account_id = $1', [
    e.accountId,
    credits,
  ]);
}

async function apply(e: EventEnvelope, tx: PoolClient): Promise<void> {
  switch (e.type) {
    case 'AccountOpened':
      return openAccount(e, tx);
    case 'CreditsPurchased': {
      const d = e.payload as CreditsPurchased['data'];
      if (await advance(e, tx, 'remaining = remaining + $3, entries = entries + 1', [d.credits]))
        await addEntry(e, tx, { type: 'purchase', id: d.paymentId, delta: d.credits });
      return;
    }
    case 'CreditCharged': {
      const d = e.payload as CreditCharged['data'];
      if (await advance(e, tx, 'remaining = remaining - $3, used = used + $3, entries = entries + 1', [d.credits])) {
        const { url, project, chargeId } = d;
        await addEntry(e, tx, { type: d.kind, id: d.subjectId, delta: -d.credits, url, project, chargeId });
      }
      return;
    }
    case 'CreditRefunded':
      return refund(e, tx);
    case 'CreditsAdjusted': {
      const d = e.payload as CreditsAdjusted['data'];
      if (await advance(e, tx, 'remaining = remaining + $3, entries = entries + 1', [d.delta]))
        await addEntry(e, tx, { type: 'adjustment', id: d.adjustmentId, delta: d.delta });
      return;
    }
    case 'UnlimitedSet': {
      const d = e.payload as UnlimitedSet['data'];
      await advance(e, tx, 'unlimited = $3', [d.unlimited]);
      return;
    }
    default:
      await advance(e, tx);
  }
}
