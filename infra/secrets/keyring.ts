import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SEALED_PATTERN } from '../../events/schemaTypes.ts';
import { ConfigError } from '../configError.ts';
import { loadSecretsSettings, MASTER_KEY_BYTES, parseMasterKey, type SecretsSettings } from './settings.ts';

/**
 * What the master key is used for. Each use gets a key of its own (HKDF), so a ciphertext or a MAC
 * made for one can never be passed off as another's.
 */
export type KeyPurpose = 'webhook-secret' | 'data-key-wrap' | 'share-token' | 'legacy-share-token';

export interface Keyring {
  /** AES-256-GCM under the purpose's key, bound to `context` (e.g. the account id). */
  seal(purpose: KeyPurpose, plaintext: Buffer, context: string): string;
  /** The plaintext, or null when the ciphertext does not open (another key, context or a change). */
  open(purpose: KeyPurpose, sealed: string, context: string): Buffer | null;
  /** HMAC-SHA256 under the purpose's key. */
  mac(purpose: KeyPurpose, data: string): Buffer;
}

/** The prefix of every ciphertext the service writes: a reader can tell sealed text from clear. */
const SEALED_PREFIX = 'enc:v1:';
const SEALED = new RegExp(SEALED_PATTERN);
export const isSealed = (s: string): boolean => SEALED.test(s);

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM with a random IV: `enc:v1:` + base64url(iv | ciphertext | tag). */
export function sealWithKey(key: Buffer, plaintext: Buffer, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

export function openWithKey(key: Buffer, sealed: string, context: string): Buffer | null {
  if (!isSealed(sealed)) return null;
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

export function keyringOf(master: Buffer): Keyring {
  const keys = new Map<KeyPurpose, Buffer>();
  const keyOf = (purpose: KeyPurpose): Buffer => {
    let k = keys.get(purpose);
    if (!k) {
      k = Buffer.from(hkdfSync('sha256', master, 'audit-service', purpose, 32));
      keys.set(purpose, k);
    }
    return k;
  };
  return {
    seal: (purpose, plaintext, context) => sealWithKey(keyOf(purpose), plaintext, `${purpose}:${context}`),
    open: (purpose, sealed, context) => openWithKey(keyOf(purpose), sealed, `${purpose}:${context}`),
    mac: (purpose, data) => createHmac('sha256', keyOf(purpose)).update(data, 'utf8').digest(),
  };
}

/**
 * The embedded default's key: generated once, kept (mode 0600) beside the embedded database. Two
 * processes starting at once on a fresh data dir both try to create it; `wx` lets one win and the
 * other reads the winner's.
 */
function masterKeyFile(path: string): Buffer {
  const read = (): Buffer => {
    const key = parseMasterKey(readFileSync(path, 'utf8'));
    if (!key) throw new ConfigError([`${path} does not hold a 32-byte master key (hex)`]);
    return key;
  };
  try {
    return read();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, `${randomBytes(MASTER_KEY_BYTES).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return read();
}

export const openKeyring = (settings: SecretsSettings): Keyring =>
  keyringOf(settings.masterKey ?? masterKeyFile(settings.keyFile));

let current: Keyring | undefined;

/** Entry points (main, the admin CLI) set the keyring of the configuration they loaded. */
export const useKeyring = (k: Keyring): void => {
  current = k;
};

/**
 * The process's keyring. Code that runs without an entry point (tests, benches calling operations
 * directly) gets the one the environment names, through the same settings loader.
 */
export function keyring(): Keyring {
  if (!current) {
    const problems: string[] = [];
    const settings = loadSecretsSettings(process.env, problems);
    if (problems.length) throw new ConfigError(problems);
    current = openKeyring(settings);
  }
  return current;
}
