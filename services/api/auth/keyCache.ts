import type { Logger } from '../../../infra/logger.ts';
import { listen } from '../../../infra/postgres/listener.ts';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { API_KEYS_CHANNEL } from '../../../projections/accounts/projection.ts';
import { coalescedReads } from '../../../infra/postgres/coalescedReads.ts';
import { findApiKeysByHash, type ApiKeyOwner } from '../../../projections/accounts/queries.ts';

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
 * Requests that miss on one key at once share one read, under the rules of a hit: while listening,
 * and only if no notification came since it started (a key's first requests often come together).
 * Misses on different keys at once share one statement (coalescedReads): a process that meets many
 * keys at a time (its start, a revocation that dropped the cache) reads them together.
 */
export function createKeyCache(pool: Pool, log: Logger, ttlMs = KEY_CACHE_TTL_MS): KeyCache {
  const entries = new Map<string, { owner: ApiKeyOwner; until: number }>();
  const readKey = coalescedReads((hashes: string[]) => findApiKeysByHash(pool, hashes));
  /** Reads under way, joined only by requests of the generation they started in. */
  const reading = new Map<string, { generation: number; owner: Promise<ApiKeyOwner | null> }>();
  let listening = false;
  /** Bumped by every notification: a read that one overtook may hold the key as it was before. */
  let generation = 0;
  const stop = listen(pool, API_KEYS_CHANNEL, 'audit-service-key-cache', log, {
    // Anything cached before LISTEN took effect may have missed a revocation.
    onListening: () => {
      entries.clear();
      generation++;
      listening = true;
    },
    onLost: () => {
      listening = false;
      generation++;
      entries.clear();
    },
    onNotification: () => {
      generation++;
      entries.clear();
    },
  });

  return {
    async find(keyHash) {
      const now = Date.now();
      if (listening) {
        const hit = entries.get(keyHash);
        if (hit && hit.until > now) return hit.owner;
      }
      const since = generation;
      const under = reading.get(keyHash);
      // As a hit would: only while listening, and only a read no notification has overtaken.
      if (listening && under && under.generation === since) return under.owner;
      const read = readKey(keyHash);
      reading.set(keyHash, { generation: since, owner: read });
      let owner: ApiKeyOwner | null;
      try {
        owner = await read;
      } finally {
        if (reading.get(keyHash)?.owner === read) reading.delete(keyHash);
      }
      // Only keys read while listening are kept, and only if no notification came meanwhile (the
      // revocation it announces may have committed after the read); a revoked key is kept as
      // revoked (it stays so).
      if (owner && listening && generation === since) {
        if (entries.size > 100_000) entries.clear();
        entries.set(keyHash, { owner, until: now + ttlMs });
      }
      return owner;
    },
    async close() {
      listening = false;
      entries.clear();
      await stop();
    },
  };
}
