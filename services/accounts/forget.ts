import { transact } from '../../infra/eventStore/eventStore.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { destroyDataKey, ERASED } from '../../infra/secrets/personalData.ts';
import { API_KEYS_CHANNEL } from '../../projections/accounts/projection.ts';
import { runAccountCommandInTransaction } from './accountCommand.ts';

/**
 * `accounts forget` (crypto-shredding): destroys the account's personal-data key and records that
 * it did (PersonalDataErased), in one transaction. The events stay as they are, so the ledger's
 * hash chain and the credit history are untouched; every sealed field of the account, in the store,
 * on the topic and in any export, can no longer be opened. API processes drop their cached keys
 * (which hold the address read before) through the revocation channel, at commit.
 */
export async function forgetAccount(
  pool: Pool,
  input: { accountId: string; actor: string; reason: string; now?: Date },
): Promise<{ accountId: string; email: string; erased: true }> {
  await transact(pool, async (tx) => {
    // The decision first: an unknown account is refused before any key is touched.
    await runAccountCommandInTransaction(tx, {
      accountId: input.accountId,
      now: input.now ?? new Date(),
      command: { type: 'ErasePersonalData', data: { actor: input.actor, reason: input.reason } },
    });
    await destroyDataKey(tx, input.accountId);
    await tx.query(`SELECT pg_notify($1, $2)`, [API_KEYS_CHANNEL, input.accountId]);
  });
  return { accountId: input.accountId, email: ERASED, erased: true };
}
