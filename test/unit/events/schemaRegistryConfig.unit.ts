import t from 'tap';
import { loadConfig } from '../../../infra/config.ts';
import { subjectFor } from '../../../infra/kafka/schemaRegistry.ts';

t.test('SCHEMA_REGISTRY_URL and _AUTH: off by default, read and checked when set', async (t) => {
  t.equal(loadConfig({}).schemaRegistry, undefined, 'no registry: unframed values, as before');
  t.same(loadConfig({ KAFKA_BROKERS: 'k:9092', SCHEMA_REGISTRY_URL: 'http://reg:8081/' }).schemaRegistry, {
    url: 'http://reg:8081',
    auth: undefined,
  });
  t.same(
    loadConfig({ KAFKA_BROKERS: 'k:9092', SCHEMA_REGISTRY_URL: 'https://reg', SCHEMA_REGISTRY_AUTH: 'u:p:w' })
      .schemaRegistry,
    { url: 'https://reg', auth: 'u:p:w' },
  );
  t.throws(
    () => loadConfig({ KAFKA_BROKERS: 'k:9092', SCHEMA_REGISTRY_URL: 'reg:8081', SCHEMA_REGISTRY_AUTH: 'nopassword' }),
    {
      message:
        /SCHEMA_REGISTRY_URL must start with http:\/\/ or https:\/\/[\s\S]*SCHEMA_REGISTRY_AUTH must be user:password/,
    },
  );
  t.throws(() => loadConfig({ SCHEMA_REGISTRY_URL: 'http://reg' }), {
    message: /SCHEMA_REGISTRY_URL is set without KAFKA_BROKERS/,
  });
  t.throws(() => loadConfig({ SCHEMA_REGISTRY_AUTH: 'u:p' }), {
    message: /SCHEMA_REGISTRY_AUTH is set without SCHEMA_REGISTRY_URL/,
  });
});

t.test('subjects follow TopicRecordNameStrategy: <topic>-<record full name>', async (t) => {
  t.equal(
    subjectFor('audit.events', { type: 'AccountOpened', stream: 'account' }),
    'audit.events-audit.events.account.AccountOpened',
  );
});
