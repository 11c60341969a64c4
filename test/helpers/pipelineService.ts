import type { Test } from 'tap';
import { loadConfig } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { auditsProjection } from '../../projections/audits/projection.ts';
import { startProjections } from '../../projections/runner.ts';
import type { AuditRequestInput } from '../../services/pipeline/submitAudit.ts';
import { startPipelineRoles } from '../../services/pipeline/roles.ts';
import { startWebhookRole } from '../../services/webhooks/role.ts';
import { testDatabase } from './db.ts';
import { makeSubscriber, type AdapterKind } from './subscribers.ts';
import { testLog } from './testLog.ts';

/** An audit request with nothing but what the test names. */
export const auditRequest = (over: Partial<AuditRequestInput>): AuditRequestInput => ({
  url: null,
  content: null,
  title: null,
  keyword: null,
  language: null,
  project: null,
  share: false,
  shareExpiresInDays: null,
  webhookUrl: null,
  ...over,
});

/**
 * The audits projection, the pipeline roles and (with `webhooks`) the webhook role in this process
 * on a fresh database, on either adapter (Kafka with its relay). Private addresses are allowed: the
 * web is a local server.
 */
export async function startPipelineService(
  t: Test,
  kind: AdapterKind,
  opts: { env?: Record<string, string>; webhooks?: { extraCa: string } } = {},
): Promise<{ pool: Pool; url: string }> {
  const { pool, url } = await testDatabase(t);
  const { kafkaSettings } = await testLog(t, kind, pool);
  const subscriber = makeSubscriber(kind, pool, kafkaSettings);
  const config = loadConfig({
    ALLOW_PRIVATE_ADDRESSES: '1',
    PIPELINE_LEASE_SECONDS: '5',
    DATABASE_URL: url,
    ROLES: 'crawler,auditor,projections,webhooks',
    ...opts.env,
  });
  await startProjections(pool, subscriber, [auditsProjection]);
  const stops = await startPipelineRoles(config, pool, subscriber, createLogger('test-pipeline'));
  if (opts.webhooks)
    stops.push(...(await startWebhookRole(config, pool, subscriber, createLogger('test-webhooks'), opts.webhooks)));
  t.teardown(async () => {
    for (const stop of stops.reverse()) await stop();
    await subscriber.close();
  });
  return { pool, url };
}
