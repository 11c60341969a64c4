import t from 'tap';
import { ConfigError, loadConfig } from '../../infra/config.ts';

/** The problems as the loader found them before it was split into steps: all at once, in this order. */
const PROBLEMS = [
  'DATABASE_URL must be a postgres:// or postgresql:// URL',
  'KAFKA_BROKERS entries must be host:port, got "bad"',
  'ROLES has unknown role "nope" (known: api, relay, projections, crawler, auditor, webhooks, bulk, scheduler, apply)',
  'ALLOW_PRIVATE_ADDRESSES=1 is for local development and tests only; it is refused when NODE_ENV=production',
  'PUBLIC_BASE_URL must start with http:// or https://',
  'KAFKA_TOPIC_PREFIX may hold only letters, digits, ".", "_" and "-"',
  'SCHEMA_REGISTRY_AUTH must be user:password',
  'SCHEMA_REGISTRY_AUTH is set without SCHEMA_REGISTRY_URL',
  'SHARE_DAY_SECONDS is for development and tests only; it is refused when NODE_ENV=production',
  'PARTITIONS must be an integer from 1 to 256, got "0"',
  'RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 3600, got "0"',
  'BULK_CONCURRENCY must be an integer from 1 to 64, got "0"',
  'SECRETS_MASTER_KEY must be 32 bytes: 64 hex characters or base64',
];

t.test('every problem of the configuration at once, in the order of the variables', async (t) => {
  const env = {
    DATABASE_URL: 'mysql://x',
    KAFKA_BROKERS: 'a:1,bad',
    ROLES: 'api,nope',
    NODE_ENV: 'production',
    ALLOW_PRIVATE_ADDRESSES: '1',
    PUBLIC_BASE_URL: 'ftp://x',
    KAFKA_TOPIC_PREFIX: 'a b',
    SCHEMA_REGISTRY_AUTH: 'x',
    SHARE_DAY_SECONDS: '5',
    PARTITIONS: '0',
    RATE_LIMIT_WINDOW_SECONDS: '0',
    SECRETS_MASTER_KEY: 'zz',
    BULK_CONCURRENCY: '0',
  };
  const error = t.throws(() => loadConfig(env)) as unknown;
  t.ok(error instanceof ConfigError);
  t.strictSame((error as ConfigError).problems, PROBLEMS);
});

t.test('the defaults', async (t) => {
  const c = loadConfig({ DATA_DIR: '/tmp/x', SECRETS_MASTER_KEY: 'a'.repeat(64) });
  t.equal(c.publicBaseUrl, 'http://127.0.0.1:8080');
  t.equal(c.kafkaTopicPrefix, 'audit');
  t.equal(c.schemaRegistry, undefined);
  t.strictSame(c.rateLimits, { windowSeconds: 60, submission: 20, share: 20, apply: 20, bulkCancel: 20, read: 600 });
  t.strictSame(c.bulk, { inactivitySeconds: 900, concurrency: 4 });
  t.equal(c.share.daySeconds, 86_400);
});
