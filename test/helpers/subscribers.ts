import type { KafkaSettings } from '../../infra/kafka/client.ts';
import { createKafka } from '../../infra/kafka/client.ts';
import { createKafkaSubscriber } from '../../infra/subscriptions/kafkaSubscriber.ts';
import { createLogger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import type { Subscriber } from '../../infra/subscriptions/port.ts';
import { createStoreSubscriber } from '../../infra/subscriptions/storeSubscriber.ts';

export type AdapterKind = 'store' | 'kafka';

/** Either adapter behind the one port, tuned for tests (short heartbeats and session timeouts). */
export function makeSubscriber(kind: AdapterKind, pool: Pool, kafkaSettings?: KafkaSettings): Subscriber {
  const log = createLogger(`test-${kind}-subscriber`);
  if (kind === 'store')
    return createStoreSubscriber(pool, {
      log,
      pollMs: 20,
      memberTtlMs: 1500,
      retry: { maxAttempts: 3, baseDelayMs: 20 },
    });
  if (!kafkaSettings) throw new Error('kafka settings needed');
  return createKafkaSubscriber(pool, {
    kafka: createKafka(kafkaSettings, log),
    settings: kafkaSettings,
    log,
    sessionTimeoutMs: 6000, // the broker's minimum: a killed member is noticed as fast as Kafka allows
    retry: { maxAttempts: 3, baseDelayMs: 20 },
  });
}
