/**
 * Runs the service: every role in one process by default (the embedded default: PostgreSQL under
 * DATA_DIR, consumers reading the event store), or the roles named in ROLES, on Kafka and an
 * existing PostgreSQL when KAFKA_BROKERS and DATABASE_URL are given.
 */
import { ConfigError, loadConfig, type Config } from '../infra/config.ts';
import { openDatabase } from '../infra/database.ts';
import { createKafka, type KafkaSettings } from '../infra/kafka/client.ts';
import { createKafkaSubscriber } from '../infra/subscriptions/kafkaSubscriber.ts';
import { createLogger, expectConnectionLoss, isConnectionLoss } from '../infra/logger.ts';
import { closeCpuPool, configureCpuPool } from '../infra/workers/cpuPool.ts';
import { createStoreSubscriber } from '../infra/subscriptions/storeSubscriber.ts';
import type { Subscriber } from '../infra/subscriptions/port.ts';
import { asyncProjections } from '../projections/index.ts';
import { projectionGroupId } from '../projections/projection.ts';
import { createProjectionTables, startProjections } from '../projections/runner.ts';
import { buildApp } from './api/app.ts';
import { createReadiness } from './readiness.ts';
import { startPipelineRoles } from './pipeline/roles.ts';
import { startRelay } from './relay/relay.ts';
import { startWebhookRole } from './webhooks/role.ts';
import { startBulkRole } from './bulk/role.ts';
import { startSchedulerRole } from './scheduler/role.ts';
import { startApplyRole } from './apply/role.ts';
import { serviceMigrations } from './migrations.ts';
import { registerService } from './registration.ts';
import { openKeyring, useKeyring } from '../infra/secrets/keyring.ts';
import { migrateLegacySecrets } from './secrets/migrateLegacy.ts';

let config: Config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}

const log = createLogger('main', config.logLevel);
/** What to stop, in start order; stopped in reverse, one log line each. */
const stops: { name: string; stop: () => Promise<unknown> }[] = [];
const push = (name: string, stop: () => Promise<unknown>) => stops.push({ name, stop });
let stopping = false;
/** A role's several stops as one, last started first. */
const inOrder =
  (fns: (() => Promise<unknown>)[]): (() => Promise<void>) =>
  async () => {
    for (const fn of [...fns].reverse()) await fn();
  };

async function shutdown(code: number, signal?: NodeJS.Signals): Promise<never> {
  if (!stopping) {
    stopping = true;
    // A terminal's Ctrl-C (or a kill of the whole group) also reaches the embedded PostgreSQL, which
    // then ends every connection at once: the roles' lost connections are expected from here on.
    expectConnectionLoss();
    if (signal) log.info({ signal }, 'stopping');
    for (const { name, stop } of stops.reverse()) {
      try {
        await stop();
        log.info({ part: name }, `stopped ${name}`);
      } catch (e) {
        const err = e as Error & { code?: string };
        if (isConnectionLoss(err))
          log.info({ part: name }, `stopped ${name} (its database connection was already closed)`);
        else log.error({ part: name, code: err.code, reason: err.message }, `error while stopping ${name}`);
      }
    }
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));

registerService();
configureCpuPool(config.engine);
push('engine threads', () => closeCpuPool());

try {
  useKeyring(openKeyring(config.secrets));
  const db = await openDatabase(config, log, serviceMigrations);
  push('database', () => db.close());
  // Events from before secrets left the log (docs/privacy.md); nothing to do after the first start.
  const migrated = await migrateLegacySecrets(db.pool);
  if (migrated.accounts + migrated.shares > 0) log.info(migrated, 'moved old secrets out of the log');

  let kafka: { kafka: ReturnType<typeof createKafka>; settings: KafkaSettings } | undefined;
  if (config.kafkaBrokers) {
    const settings: KafkaSettings = {
      brokers: config.kafkaBrokers,
      topicPrefix: config.kafkaTopicPrefix,
      partitions: config.partitions,
      schemaRegistry: config.schemaRegistry,
    };
    kafka = { kafka: createKafka(settings, log), settings };
  }
  const subscriber: Subscriber = kafka
    ? createKafkaSubscriber(db.pool, { kafka: kafka.kafka, settings: kafka.settings, log })
    : createStoreSubscriber(db.pool, { log });
  // The projections and every role's subscriptions end with it.
  push('subscriptions', () => subscriber.close());

  if (config.roles.includes('relay') && kafka) {
    const relay = await startRelay({
      pool: db.pool,
      kafka: kafka.kafka,
      settings: kafka.settings,
      log: log.child({ role: 'relay' }),
    });
    push('relay', () => relay.stop());
  }
  if (config.roles.includes('projections')) {
    await startProjections(db.pool, subscriber, asyncProjections);
  }
  push('crawler and auditor', inOrder(await startPipelineRoles(config, db.pool, subscriber, log)));
  push('webhooks', inOrder(await startWebhookRole(config, db.pool, subscriber, log)));
  push('bulk', inOrder(startBulkRole(config, db.pool, log)));
  push('scheduler', inOrder(startSchedulerRole(config, db.pool, log)));
  push('apply', inOrder(startApplyRole(config, db.pool, log)));
  if (config.roles.includes('api')) {
    const readiness = createReadiness({
      pool: db.pool,
      kafka,
      groups: asyncProjections.map(projectionGroupId),
      maxLag: 1000,
    });
    // The API reads the projections' tables even when another process runs the projections role.
    await createProjectionTables(db.pool, asyncProjections);
    const app = await buildApp({
      log: log.child({ role: 'api' }),
      readiness,
      pool: db.pool,
      rateLimits: config.rateLimits,
      audits: {
        publicBaseUrl: config.publicBaseUrl,
        allowPrivateAddresses: config.allowPrivateAddresses,
        shareDaySeconds: config.share.daySeconds,
        bulkInactivitySeconds: config.bulk.inactivitySeconds,
        applyWriter: config.applyLlm !== null,
      },
    });
    await app.listen({ host: config.host, port: config.port });
    push('api', () => app.close());
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(
      `audit service listening on http://${config.host}:${port} (roles: ${config.roles.join(',')}; log: ${kafka ? 'kafka' : 'embedded'})`,
    );
  } else {
    console.log(`audit service running (roles: ${config.roles.join(',')}; log: ${kafka ? 'kafka' : 'embedded'})`);
  }
} catch (e) {
  log.error({ err: e }, 'failed to start');
  console.error(`failed to start: ${(e as Error).message}`);
  await shutdown(1);
}
