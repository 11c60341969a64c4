/** Runs the counting projection in its own process; with `hang` it stops half-way through a batch. */
import { registerTestEvents } from './testEvents.ts';
import { createPool } from '../../infra/postgres/pool.ts';
import { startProjections } from '../../projections/runner.ts';
import { countingProjection } from './countingProjection.ts';
import { makeSubscriber, type AdapterKind } from './subscribers.ts';

// A process of its own: it registers what its appends need.
registerTestEvents();

const [kind, url, mode, kafkaJson] = process.argv.slice(2) as [AdapterKind, string, 'hang' | 'run', string | undefined];
const pool = createPool(url, 5);
const subscriber = makeSubscriber(kind, pool, kafkaJson ? JSON.parse(kafkaJson) : undefined);
await startProjections(pool, subscriber, [
  countingProjection(
    mode === 'hang'
      ? async () => {
          process.stdout.write('MID_BATCH\n');
          await new Promise(() => undefined);
        }
      : undefined,
  ),
]);
