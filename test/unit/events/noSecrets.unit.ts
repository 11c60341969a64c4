import t from 'tap';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { catalogue } from '../../../events/catalogue.ts';
import { AccountOpened } from '../../../events/account/index.ts';
import { ShareIssued } from '../../../events/share/events.ts';

/**
 * No event type can carry a secret or a person's data in clear: every field (at any depth, in every
 * version) whose name says it holds one uses a guarded type (events/schemaTypes.ts: Sealed,
 * SecretRef, SecretHash), whose pattern the store checks at append. The run's stored events are
 * checked by test/int/secrets/secretsOutOfLog.int.ts.
 */
const SENSITIVE = /secret|token|password|passwd|e-?mail|api_?key|credential|cookie|session|phone/i;

/** Every string field of a schema: its path and schema. */
function* fields(schema: TSchema, path: string): Generator<[string, TSchema]> {
  if (schema.type === 'object' && schema.properties)
    for (const [k, v] of Object.entries(schema.properties as Record<string, TSchema>)) yield* fields(v, `${path}.${k}`);
  else if (schema.type === 'array' && schema.items) yield* fields(schema.items as TSchema, `${path}[]`);
  else if (Array.isArray(schema.anyOf)) for (const s of schema.anyOf as TSchema[]) yield* fields(s, path);
  else if (schema.patternProperties)
    for (const v of Object.values(schema.patternProperties as Record<string, TSchema>)) yield* fields(v, `${path}{}`);
  else yield [path, schema];
}

t.test('every field of every event type and version that names a secret or personal data is guarded', async (t) => {
  let checked = 0;
  for (const d of catalogue) {
    for (let v = 1; v <= d.latest; v++) {
      for (const [path, schema] of fields(d.schemaOf(v), `${d.type}.v${v}`)) {
        const name = path.split('.').at(-1)!.replace(/\W/g, '');
        if (!SENSITIVE.test(name) || schema.type !== 'string') continue;
        checked++;
        t.ok(
          ['sealed', 'reference', 'hash'].includes(schema.guard as string),
          `${path} is sealed, a reference or a hash (events/schemaTypes.ts), not a clear value`,
        );
      }
    }
  }
  t.ok(checked >= 3, `${checked} such fields found (AccountOpened.email, .webhookSecret, ShareIssued.token at least)`);
});

t.test('the store would refuse the clear values these fields used to hold', async (t) => {
  const opened = {
    accountId: 'usr_1',
    email: 'owner@example.com',
    role: 'user',
    unlimited: false,
    webhookSecret: 'whsec_abc',
  };
  t.notOk(Value.Check(AccountOpened.schema, opened), 'AccountOpened with an address and a secret in clear');
  t.notOk(Value.Check(AccountOpened.schema, { ...opened, email: 'enc:v1:abc' }), 'with the secret in clear');
  t.ok(Value.Check(AccountOpened.schema, { ...opened, email: 'enc:v1:abc', webhookSecret: 'vault:whs_abc' }));
  const issued = {
    auditId: 'aud_1',
    token: 'AbCdEfGhIjKlMnOpQrStUvWxYz012345',
    lang: 'en',
    expiresAt: null,
    trigger: 'api',
  };
  t.notOk(Value.Check(ShareIssued.schema, issued), 'ShareIssued with the token');
  t.ok(Value.Check(ShareIssued.schema, { ...issued, token: `sha256:${'a'.repeat(64)}` }));
});
