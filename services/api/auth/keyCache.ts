import pg from 'pg';
import type { Logger } from '../../../infra/logger.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { API_KEYS_CHANNEL } from '../../../projections/accounts/projection.ts';
import { findApiKeyByHash, type ApiKeyOwner } from '../../../projections/accounts/queries.ts';

/** How long a cached key is trusted without a word from the database (the fallback bound). */
export const KEY_CACHE_TTL_MS = 30_000;

export interface KeyCache {
  /** The key with this hash (cached), or null. */
  find(keyHash: string): Promise<ApiKeyOwner | null>;
  close(): Promise<void>;
}

/**
 * API keys cached in the API process, so a request does not look its key up again. A revocation
 * is NOTIFYed in the transaction that records it (projections/accounts), and every process
 * LISTENs: the cache is dropped the moment the revocation commits. The cache is used only while
 * the LISTEN connection is up; when it drops (and until it is back and listening) every request
 * reads the table, so a lost notification can never keep a revoked key alive. Entries also expire
 * after KEY_CACHE_TTL_MS. Unknown keys are not cached: a key issued a moment ago works at once.
 */
export function createKeyCache(pool: Pool, log: Logger, ttlMs = KEY_CACHE_TTL_MS): KeyCache {
  const entries = new Map<string, { owner: ApiKeyOwner; until: number }>();
  let listening = false;
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (closed) return;
    // A connection of its own (not the pool's): the pool can end while this one listens. Neither
    // it nor the retry timer keeps the process alive.
    const c = new pg.Client({
      ...(pool as unknown as { options: pg.ClientConfig }).options,
      application_name: 'audit-service-key-cache',
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      listening = false;
      entries.clear();
      client = null;
      c.end().catch(() => undefined);
      if (!closed) {
        if (err)
          log.warn({ err }, 'key cache: LISTEN connection lost; keys are read from the database until it is back');
        retry = setTimeout(() => void connect(), 1_000);
        retry.unref();
      }
    };
    client = c;
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', () => entries.clear());
    try {
      await c.connect();
      (c as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      if (closed) return void c.end().catch(() => undefined);
      await c.query(`LISTEN ${API_KEYS_CHANNEL}`);
      // Anything cached before LISTEN took effect may have missed a revocation.
      entries.clear();
      listening = true;
    } catch (err) {
      lost(err as Error);
    }
  };
  void connect();

  return {
    async find(keyHash) {
      const now = Date.now();
      if (listening) {
        const hit = entries.get(keyHash);
        if (hit && hit.until > now) return hit.owner;
      }
      const owner = await findApiKeyByHash(pool, keyHash);
      // Only keys read while listening are kept; a revoked key is kept as revoked (it stays so).
      if (owner && listening) {
        if (entries.size > 100_000) entries.clear();
        entries.set(keyHash, { owner, until: now + ttlMs });
      }
      return owner;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      listening = false;
      entries.clear();
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
