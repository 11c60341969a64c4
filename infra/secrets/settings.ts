/**
 * The server's master key, loaded by infra/config.ts (problems are reported there, together):
 *   SECRETS_MASTER_KEY  32 bytes, as 64 hex characters or base64; every secret kept outside the
 *                       log (webhook secrets, the accounts' personal-data keys, share tokens) is
 *                       derived from it or sealed under it.
 * Without it, outside production, the key is generated once and kept in DATA_DIR/secrets/master.key
 * (the embedded default). Production refuses to start without it: processes on several machines
 * must share one key, and a key made up per machine would make the others' secrets unreadable.
 */
import { resolve } from 'node:path';
import type { Env } from '../envReader.ts';

export interface SecretsSettings {
  /** The key given in the environment; undefined: the file below. */
  masterKey: Buffer | undefined;
  /** Where the embedded default keeps the generated key. */
  keyFile: string;
}

export const MASTER_KEY_BYTES = 32;

/** 64 hex characters or base64 of 32 bytes; undefined for anything else. */
export const parseMasterKey = (raw: string): Buffer | undefined => {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return undefined;
  const b = Buffer.from(s, 'base64');
  return b.length === MASTER_KEY_BYTES ? b : undefined;
};

export function loadSecretsSettings(env: Env, problems: string[]): SecretsSettings {
  const raw = env.SECRETS_MASTER_KEY ?? '';
  const keyFile = resolve(env.DATA_DIR || './.data', 'secrets', 'master.key');
  if (raw === '') {
    if (env.NODE_ENV === 'production')
      problems.push('SECRETS_MASTER_KEY is required when NODE_ENV=production (32 bytes, hex or base64)');
    return { masterKey: undefined, keyFile };
  }
  const masterKey = parseMasterKey(raw);
  if (!masterKey) problems.push('SECRETS_MASTER_KEY must be 32 bytes: 64 hex characters or base64');
  return { masterKey, keyFile };
}
