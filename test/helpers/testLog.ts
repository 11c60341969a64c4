import type { Test } from 'tap';
import type { KafkaSettings } from '../../infra/kafka/client.ts';
import { createLogger } from '../../infra/logger.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { startRelay } from '../../services/relay/relay.ts';
import { testKafka } from './kafka.ts';
import type { AdapterKind } from './subscribers.ts';

/**
 * The log a test's consumers read, as in production: the embedded log needs nothing more; Kafka
 * gets a topic of the test's own and a relay publishing the store to it, stopped at teardown.
 * Returns the Kafka settings to hand to makeSubscriber (or to a child process).
 */
export async function testLog(
  t: Test,
  kind: AdapterKind,
  pool: Pool,
  partitions = 2,
): Promise<{ kafkaSettings?: KafkaSettings }> {
  if (kind === 'store') return {};
  const { kafka, settings } = await testKafka(t, partitions);
  const relay = await startRelay({ pool, kafka, settings, log: createLogger('test-relay'), pollMs: 10 });
  t.teardown(() => relay.stop());
  return { kafkaSettings: settings };
}
