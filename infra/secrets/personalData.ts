import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../postgres/pool.ts';
import { keyring, openWithKey, sealWithKey } from './keyring.ts';

/**
 * Personal data in the log (the email) is sealed under a key of its account's own, kept outside
 * the log (account_data_keys, itself sealed under the master key). Destroying that key
 * (`accounts forget`) makes every copy in the log, on the topic and in every export unreadable,
 * while the events themselves, and so the ledger's hash chain over them, stay as they were.
 */

/** What every read shows in place of personal data whose key was destroyed. */
export const ERASED = '[erased]';

const context = (accountId: string): string => `personal:${accountId}`;

/** The account's key: a new one the first time, the existing one after (a retry). Refused once forgotten. */
export async function dataKeyFor(db: Queryable, accountId: string): Promise<Buffer> {
  const fresh = randomBytes(32);
  const r = await db.query<{ wrapped: string | null }>(
    `INSERT INTO account_data_keys (account_id, wrapped) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET account_id = EXCLUDED.account_id
     RETURNING wrapped`,
    [accountId, keyring().seal('data-key-wrap', fresh, accountId)],
  );
  const key = unwrap(r.rows[0]!.wrapped, accountId);
  if (!key) throw new AppError('invalid_request', `the personal data of account ${accountId} was erased`);
  return key;
}

const unwrap = (wrapped: string | null, accountId: string): Buffer | null =>
  wrapped === null ? null : keyring().open('data-key-wrap', wrapped, accountId);

export const sealPersonal = (key: Buffer, text: string, accountId: string): string =>
  sealWithKey(key, Buffer.from(text, 'utf8'), context(accountId));

/**
 * Personal data as the log holds it (sealed) read with the account's wrapped key: the text, or
 * ERASED when the key is gone or does not open it.
 */
export function openPersonal(wrapped: string | null, sealed: string | null, accountId: string): string {
  const key = unwrap(wrapped, accountId);
  const plain = key && sealed ? openWithKey(key, sealed, context(accountId)) : null;
  return plain ? plain.toString('utf8') : ERASED;
}

/** Destroys the account's key (a row stays, so no later write can make a new one for it). */
export async function destroyDataKey(db: Queryable, accountId: string): Promise<void> {
  await db.query(
    `INSERT INTO account_data_keys (account_id, wrapped, forgotten_at) VALUES ($1, NULL, now())
     ON CONFLICT (account_id) DO UPDATE SET wrapped = NULL, forgotten_at = COALESCE(account_data_keys.forgotten_at, now())`,
    [accountId],
  );
}
