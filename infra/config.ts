/**
 * The one configuration loader: environment variables, validated at start. Every bad value is
 * reported at once, each with its own message, so an operator fixes them in one go.
 */
import { ConfigError } from './configError.ts';
import { envReader, type Env } from './envReader.ts';
import { loadCrawlSettings, type CrawlSettings } from './http/crawlSettings.ts';
import { loadSerpSettings, type SerpSettings } from './serp/settings.ts';
import { loadLlmSettings, type LlmSettings } from './llm/settings.ts';
import type { SchemaRegistrySettings } from './kafka/schemaRegistry.ts';
import { defaultCpuPoolSettings, type CpuPoolSettings } from './workers/cpuPoolSettings.ts';
import { loadSecretsSettings, type SecretsSettings } from './secrets/settings.ts';

// Roles arrive with the features that need them (crawler, auditor, webhooks, ...).
export const ALL_ROLES = [
  'api',
  'relay',
  'projections',
  'crawler',
  'auditor',
  'webhooks',
  'bulk',
  'scheduler',
  'apply',
] as const;
export type Role = (typeof ALL_ROLES)[number];

export interface Config {
  nodeEnv: string;
  host: string;
  port: number;
  /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is not given. */
  dataDir: string;
  databaseUrl: string | undefined;
  kafkaBrokers: string[] | undefined;
  /** Topic names are `<prefix>.events` etc., so several deployments or test runs can share a cluster. */
  kafkaTopicPrefix: string;
  /** SCHEMA_REGISTRY_URL (+ SCHEMA_REGISTRY_AUTH user:password): Confluent wire format on the topic; undefined: plain Avro. */
  schemaRegistry: SchemaRegistrySettings | undefined;
  /** Partitions of the events topic and of the embedded log's virtual partitions. */
  partitions: number;
  roles: Role[];
  allowPrivateAddresses: boolean;
  publicBaseUrl: string;
  /** Default (audit submission) window: spec 8's "20 requests per minute per key". */
  rateLimitPerMinute: number;
  /** Spec 8 leaves the other windows' sizes open; see docs/api-decisions.md. */
  rateLimits: RateLimitSettings;
  logLevel: string;
  /** Crawler limits and the competitor crawl (infra/http/crawlSettings.ts). */
  crawl: CrawlSettings;
  /** SERP and keyword-data provider (infra/serp/settings.ts). */
  serp: SerpSettings;
  pipeline: PipelineSettings;
  /** ENGINE_THREADS, ENGINE_TIME_LIMIT_MS: the worker threads that run the engine (infra/workers/cpuPool.ts). */
  engine: CpuPoolSettings;
  webhooks: WebhookSettings;
  share: ShareSettings;
  scheduler: SchedulerSettings;
  bulk: BulkSettings;
  /** APPLY_LLM_*: apply's optional writer model (infra/llm/settings.ts); null: off (the default). */
  applyLlm: LlmSettings | null;
  /** SECRETS_MASTER_KEY, or the embedded default's key file (infra/secrets/settings.ts). */
  secrets: SecretsSettings;
}

/** Public share links (spec 3.3, 4.7). */
export interface ShareSettings {
  /** Length of one of shareExpiresInDays' days: 86,400 s; shorter only in development and tests. */
  daySeconds: number;
}

/** The scheduler role's timers (services/scheduler): the safety-net look for a due timer (it sleeps until the next one). */
export interface SchedulerSettings {
  pollMs: number;
  leaseSeconds: number;
}

/** Bulk batches (services/bulk) and their inactivity timeout (spec 3.2). */
export interface BulkSettings {
  /** A batch with no progress for this long is closed as error (spec: 15 minutes). */
  inactivitySeconds: number;
  /** Batch advances worked on at once per process. */
  concurrency: number;
}

/** The webhooks role's workers (services/webhooks); the delivery rules themselves are spec 6's, in code. */
export interface WebhookSettings {
  /** Deliveries worked on at once per process. */
  concurrency: number;
  /** How long a claimed delivery stays with its worker without a heartbeat before another resumes it. */
  leaseSeconds: number;
}

/** The audit pipeline's workers (services/pipeline). */
export interface PipelineSettings {
  /** How long a claimed task stays with its worker without a heartbeat before another may take it. */
  leaseSeconds: number;
  /** Claims after which a task that keeps dying ends its audit with internal_error. */
  maxAttempts: number;
  /** Fetches (crawler role) and analyses (auditor role) run at once per process. */
  crawlerConcurrency: number;
  auditorConcurrency: number;
  /** The safety net: an idle worker is woken by the commit of a task (infra/wakeups) and looks anyway this often. */
  pollMs: number;
}

/** Requests per window per API key, by window; each window counts separately. */
export interface RateLimitSettings {
  windowSeconds: number;
  submission: number;
  share: number;
  apply: number;
  bulkCancel: number;
  read: number;
}

export { ConfigError };

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = envReader(env, problems);
  const { str, int } = read;
  const { databaseUrl, kafkaBrokers } = connectionsOf(env, problems);
  const roles = rolesOf(read, problems);
  const net = networkOf(read, problems);
  const schemaRegistry = schemaRegistryOf(read, problems, kafkaBrokers);
  const shareDaySeconds = int('SHARE_DAY_SECONDS', 86_400, 1, 86_400);
  if (shareDaySeconds !== 86_400 && net.nodeEnv === 'production')
    problems.push('SHARE_DAY_SECONDS is for development and tests only; it is refused when NODE_ENV=production');
  const rateLimitPerMinute = int('RATE_LIMIT_PER_MINUTE', 20, 1, 1_000_000);
  const config: Config = {
    ...net,
    dataDir: str('DATA_DIR', './.data'),
    databaseUrl,
    kafkaBrokers,
    schemaRegistry,
    partitions: int('PARTITIONS', 8, 1, 256),
    roles,
    rateLimitPerMinute,
    rateLimits: rateLimitsOf(read, rateLimitPerMinute),
    logLevel: str('LOG_LEVEL', 'info'),
    crawl: loadCrawlSettings(env, problems),
    serp: loadSerpSettings(env, problems),
    ...workOf(read),
    share: { daySeconds: shareDaySeconds },
    ...backgroundOf(read),
    applyLlm: loadLlmSettings(env, problems),
    secrets: loadSecretsSettings(env, problems),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

type Reader = ReturnType<typeof envReader>;

function connectionsOf(env: Env, problems: string[]): { databaseUrl?: string; kafkaBrokers?: string[] } {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL must be a postgres:// or postgresql:// URL`);
  }
  let kafkaBrokers: string[] | undefined;
  if (env.KAFKA_BROKERS) {
    kafkaBrokers = env.KAFKA_BROKERS.split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    for (const b of kafkaBrokers) {
      if (!/^[^\s:]+:\d{1,5}$/.test(b)) problems.push(`KAFKA_BROKERS entries must be host:port, got "${b}"`);
    }
  }
  return { databaseUrl, kafkaBrokers };
}

function rolesOf({ str }: Reader, problems: string[]): Role[] {
  const roles = str('ROLES', ALL_ROLES.join(','))
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean) as Role[];
  for (const r of roles) {
    if (!(ALL_ROLES as readonly string[]).includes(r))
      problems.push(`ROLES has unknown role "${r}" (known: ${ALL_ROLES.join(', ')})`);
  }
  return roles;
}

function networkOf({ str, int, bool }: Reader, problems: string[]) {
  const nodeEnv = str('NODE_ENV', 'development');
  const allowPrivateAddresses = bool('ALLOW_PRIVATE_ADDRESSES');
  if (allowPrivateAddresses && nodeEnv === 'production') {
    problems.push(
      'ALLOW_PRIVATE_ADDRESSES=1 is for local development and tests only; it is refused when NODE_ENV=production',
    );
  }
  const host = str('HOST', '127.0.0.1');
  const port = int('PORT', 8080, 0, 65535);
  const publicBaseUrl = str('PUBLIC_BASE_URL', `http://${host}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(publicBaseUrl)) problems.push('PUBLIC_BASE_URL must start with http:// or https://');
  const kafkaTopicPrefix = str('KAFKA_TOPIC_PREFIX', 'audit');
  if (!/^[a-zA-Z0-9._-]{1,100}$/.test(kafkaTopicPrefix))
    problems.push('KAFKA_TOPIC_PREFIX may hold only letters, digits, ".", "_" and "-"');
  return { nodeEnv, host, port, allowPrivateAddresses, publicBaseUrl, kafkaTopicPrefix };
}

function schemaRegistryOf(
  { str }: Reader,
  problems: string[],
  kafkaBrokers: string[] | undefined,
): Config['schemaRegistry'] {
  const schemaRegistryUrl = str('SCHEMA_REGISTRY_URL', '').replace(/\/+$/, '');
  const schemaRegistryAuth = str('SCHEMA_REGISTRY_AUTH', '');
  if (schemaRegistryUrl && !/^https?:\/\/[^\s]+$/.test(schemaRegistryUrl))
    problems.push('SCHEMA_REGISTRY_URL must start with http:// or https://');
  if (schemaRegistryAuth && !schemaRegistryAuth.includes(':'))
    problems.push('SCHEMA_REGISTRY_AUTH must be user:password');
  if (schemaRegistryAuth && !schemaRegistryUrl)
    problems.push('SCHEMA_REGISTRY_AUTH is set without SCHEMA_REGISTRY_URL');
  if (schemaRegistryUrl && !kafkaBrokers) problems.push('SCHEMA_REGISTRY_URL is set without KAFKA_BROKERS');
  return schemaRegistryUrl ? { url: schemaRegistryUrl, auth: schemaRegistryAuth || undefined } : undefined;
}

function rateLimitsOf({ int }: Reader, perMinute: number): Config['rateLimits'] {
  return {
    windowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    submission: perMinute,
    share: int('RATE_LIMIT_SHARE_PER_MINUTE', perMinute, 1, 1_000_000),
    apply: int('RATE_LIMIT_APPLY_PER_MINUTE', perMinute, 1, 1_000_000),
    bulkCancel: int('RATE_LIMIT_BULK_CANCEL_PER_MINUTE', perMinute, 1, 1_000_000),
    read: int('RATE_LIMIT_READS_PER_MINUTE', 600, 1, 1_000_000),
  };
}

/** The audit's workers: the pipeline's steps, the engine's threads, webhook deliveries. */
function workOf({ int }: Reader): Pick<Config, 'pipeline' | 'engine' | 'webhooks'> {
  return {
    pipeline: {
      leaseSeconds: int('PIPELINE_LEASE_SECONDS', 120, 2, 3600),
      maxAttempts: int('PIPELINE_MAX_ATTEMPTS', 3, 1, 20),
      crawlerConcurrency: int('CRAWLER_CONCURRENCY', 4, 1, 64),
      auditorConcurrency: int('AUDITOR_CONCURRENCY', 2, 1, 64),
      pollMs: int('PIPELINE_POLL_MS', 1000, 10, 10_000),
    },
    engine: {
      threads: int('ENGINE_THREADS', defaultCpuPoolSettings().threads, 1, 64),
      timeLimitMs: int('ENGINE_TIME_LIMIT_MS', defaultCpuPoolSettings().timeLimitMs, 1000, 3_600_000),
    },
    webhooks: {
      concurrency: int('WEBHOOK_CONCURRENCY', 8, 1, 256),
      leaseSeconds: int('WEBHOOK_LEASE_SECONDS', 30, 2, 3600),
    },
  };
}

/** Timers and batches. */
function backgroundOf({ int }: Reader): Pick<Config, 'scheduler' | 'bulk'> {
  return {
    scheduler: {
      pollMs: int('SCHEDULER_POLL_MS', 1000, 10, 60_000),
      leaseSeconds: int('SCHEDULER_LEASE_SECONDS', 30, 2, 3600),
    },
    bulk: {
      inactivitySeconds: int('BULK_INACTIVITY_SECONDS', 900, 1, 86_400),
      concurrency: int('BULK_CONCURRENCY', 4, 1, 64),
    },
  };
}
