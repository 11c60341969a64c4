/** The pipeline roles in a process of their own, for crash tests. Prints READY once running. */
import { loadConfig } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import { createPool } from '../../infra/postgres/pool.ts';
import { startPipelineRoles } from '../../services/pipeline/roles.ts';
import { makeSubscriber, type AdapterKind } from './subscribers.ts';
import { registerService } from '../../services/registration.ts';

// A process of its own: it registers what its appends need.
registerService();

const [kind, url, kafkaJson] = process.argv.slice(2) as [AdapterKind, string, string | undefined];
const pool = createPool(url, 10);
const subscriber = makeSubscriber(kind, pool, kafkaJson ? JSON.parse(kafkaJson) : undefined);
// Enough attempts that the crash test's repeated kills never exhaust a task.
const config = loadConfig({
  ALLOW_PRIVATE_ADDRESSES: '1',
  PIPELINE_LEASE_SECONDS: '3',
  PIPELINE_MAX_ATTEMPTS: '20',
  DATABASE_URL: url,
  ROLES: 'crawler,auditor',
});
await startPipelineRoles(config, pool, subscriber, createLogger('pipeline-child'));
process.stdout.write('READY\n');
