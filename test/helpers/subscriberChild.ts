/**
 * A consumer in a process of its own, for crash tests: it applies batches into `applied`, and in
 * mode `hang` it stops inside its first transaction (rows written, not committed) and says so on
 * stdout, waiting to be killed.
 */
import { registerTestEvents } from './testEvents.ts';
import { createPool } from '../../infra/postgres/pool.ts';
import { makeSubscriber, type AdapterKind } from './subscribers.ts';

// A process of its own: it registers what its appends need.
registerTestEvents();

const [kind, url, groupId, mode, kafkaJson] = process.argv.slice(2) as [
  AdapterKind,
  string,
  string,
  'hang' | 'run',
  string | undefined,
];
const pool = createPool(url, 5);
const subscriber = makeSubscriber(kind, pool, kafkaJson ? JSON.parse(kafkaJson) : undefined);
await subscriber.subscribe({
  groupId,
  types: ['TestHappened'],
  async handle(events, tx) {
    for (const e of events) {
      await tx.query('INSERT INTO applied (group_id, member, event_id, account_id, n) VALUES ($1, $2, $3, $4, $5)', [
        groupId,
        'child',
        e.id,
        e.accountId,
        (e.payload as { n: number }).n,
      ]);
    }
    if (mode === 'hang') {
      process.stdout.write('IN_HANDLER\n');
      await new Promise(() => undefined);
    }
  },
});
process.stdout.write('SUBSCRIBED\n');
