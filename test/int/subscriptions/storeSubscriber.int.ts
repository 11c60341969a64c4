import t from 'tap';
import { LOG_PARTITIONS } from '../../../infra/eventStore/schema.ts';
import { makeSubscriber } from '../../helpers/subscribers.ts';
import { subscriptionContract } from './contract.ts';

subscriptionContract(t, 'store', async (t, db) => {
  const subscriber = makeSubscriber('store', db.pool);
  t.teardown(() => subscriber.close());
  return { ...db, subscriber, partitions: LOG_PARTITIONS };
});
