import type { FastifyPluginAsync } from 'fastify';
import type { Pool } from '../../../../infra/postgres/pool.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';
import { applyRoutes } from './apply.ts';
import { getAuditRoute } from './get.ts';
import { listAuditsRoute } from './list.ts';
import { shareRoutes } from './share.ts';
import { submitAuditRoute } from './submit.ts';

/** The audit routes of issue 5: submit, poll, list. */
export const auditRoutes: FastifyPluginAsync<{ pool: Pool; settings: AuditApiSettings }> = async (app, options) => {
  await app.register(submitAuditRoute, options);
  await app.register(getAuditRoute, options);
  await app.register(listAuditsRoute, options);
  await app.register(shareRoutes, options);
  await app.register(applyRoutes, { pool: options.pool, writer: options.settings?.applyWriter ?? false });
};
