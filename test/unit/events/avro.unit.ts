import t from 'tap';
import { readFileSync, existsSync } from 'node:fs';
import avro from 'avsc';
import { avscFiles } from '../../../events/avscFiles.ts';
import { TestHappened, TestHappenedV1 } from '../../../events/test/index.ts';
import { typeboxToAvro } from '../../../events/avro.ts';
import { Type } from '@sinclair/typebox';

const envelope = (version: number, payload: unknown) => ({
  id: 'e1',
  type: 'TestHappened',
  version,
  accountId: 'acc_1',
  streamId: 's',
  streamVersion: 1,
  position: '10:1',
  occurredAt: '2026-11-01T00:00:00.000Z',
  causationId: null,
  correlationId: 'c1',
  payload,
});

t.test('the checked-in .avsc files are exactly what the event declarations produce', async (t) => {
  for (const f of avscFiles()) {
    t.ok(existsSync(f.path), `${f.path} is checked in (npm run events:avsc)`);
    if (existsSync(f.path)) t.equal(readFileSync(f.path, 'utf8'), f.content, `${f.path} is current`);
  }
});

t.test('a reader with the older schema decodes an event written with the newer one', async (t) => {
  const writer = TestHappened.avroType(2);
  const olderReader = avro.Type.forSchema(TestHappened.avroSchema(1) as avro.Schema);
  const buf = writer.toBuffer(envelope(2, { n: 7, note: 'added in v2' }));
  const decoded = olderReader.fromBuffer(buf, olderReader.createResolver(writer)) as {
    payload: { n: number; note?: unknown };
    id: string;
  };
  t.equal(decoded.id, 'e1');
  t.equal(decoded.payload.n, 7);
  t.notOk('note' in decoded.payload, 'the field the old reader does not know is dropped');
});

t.test('a reader with the newer schema decodes an old event, the new field taking its default', async (t) => {
  const oldWriter = TestHappened.avroType(1);
  const reader = TestHappened.avroType(2);
  const buf = oldWriter.toBuffer(envelope(1, { n: 3 }));
  const decoded = reader.fromBuffer(buf, reader.createResolver(oldWriter)) as { payload: { n: number; note: unknown } };
  t.same({ ...decoded.payload }, { n: 3, note: null });
});

t.test('an old payload is upcast to the current version', async (t) => {
  t.same(TestHappened.upcast(1, { n: 1 }), { n: 1, note: null });
  t.same(TestHappened.upcast(2, { n: 1, note: 'x' }), { n: 1, note: 'x' });
  t.equal(TestHappened.latest, 2);
  t.same(TestHappened.schemaOf(1), TestHappenedV1);
});

t.test('TypeBox to Avro: nullable fields get a null default; Optional is refused', async (t) => {
  t.same(
    typeboxToAvro(Type.Object({ a: Type.Union([Type.String(), Type.Null()]), b: Type.Array(Type.Integer()) }), 'X'),
    {
      type: 'record',
      name: 'X',
      fields: [
        { name: 'a', type: ['null', 'string'], default: null },
        { name: 'b', type: { type: 'array', items: 'long' } },
      ],
    },
  );
  t.same(
    typeboxToAvro(Type.Union([Type.Literal('a'), Type.Literal('b')]), 'E'),
    'string',
    'literal unions stay strings: adding one breaks no reader',
  );
  t.throws(() => typeboxToAvro(Type.Object({ a: Type.Optional(Type.String()) }), 'X'), /Nullable/);
});
