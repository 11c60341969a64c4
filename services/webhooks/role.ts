import type { Config } from '../../infra/config.ts';
import { createGuard } from '../../infra/http/guard.ts';
import type { Logger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import type { Subscriber } from '../../infra/subscriptions/port.ts';
import { RESPONSE_TIMEOUT_MS } from '../domain/webhook/decider.ts';
import { startWorker } from '../../infra/taskQueue/worker.ts';
import { abandonExhausted, deliveryStep } from './deliveryStep.ts';
import { WEBHOOK } from './deliveryTasks.ts';
import { startReactions } from '../../infra/reactions.ts';

export interface WebhookRoleOptions {
  /** Tests only: a CA to trust besides the system's (a self-signed local receiver). */
  extraCa?: string;
}

/**
 * Claims of one delivery before it is given up as `worker_failed`. One claim normally carries all
 * three attempts; each further claim means a worker died holding it.
 */
const MAX_CLAIMS = 6;

/**
 * The webhooks role: its reactions (finished audits into deliveries, services/reactions.ts) and
 * the workers sending them. Any number of processes can run it.
 */
export async function startWebhookRole(
  config: Config,
  pool: Pool,
  subscriber: Subscriber,
  log: Logger,
  options: WebhookRoleOptions = {},
): Promise<(() => Promise<void>)[]> {
  if (!config.roles.includes('webhooks')) return [];
  const roleLog = log.child({ role: 'webhooks' });
  const reactions = await startReactions(config, subscriber, ['webhooks']);
  // HTTPS only, whatever ALLOW_PRIVATE_ADDRESSES says (that lifts the address rules alone).
  const guard = createGuard({ allowPrivateAddresses: config.allowPrivateAddresses, httpsOnly: true });
  let stopping = false;
  const deps = {
    pool,
    log: roleLog,
    guard,
    timeoutMs: RESPONSE_TIMEOUT_MS,
    leaseSeconds: config.webhooks.leaseSeconds,
    extraCa: options.extraCa,
    stopping: () => stopping,
  };
  const worker = startWorker({
    pool,
    kind: WEBHOOK,
    log: roleLog,
    concurrency: config.webhooks.concurrency,
    leaseSeconds: config.webhooks.leaseSeconds,
    maxAttempts: MAX_CLAIMS,
    run: deliveryStep(deps),
    exhausted: abandonExhausted(deps),
  });
  return [
    ...reactions,
    async () => {
      stopping = true;
      await worker.stop();
    },
  ];
}
