import t from 'tap';
import { registerTestEvents, TestHappened } from '../../helpers/testEvents.ts';
import { getContent, putContent } from '../../../infra/eventStore/contentStore.ts';
import { appendToStream, readStream } from '../../../infra/eventStore/eventStore.ts';
import { withTransaction } from '../../../infra/postgres/pool.ts';
import { storableJson, storableText } from '../../../infra/postgres/storableText.ts';
import { testDatabase } from '../../helpers/db.ts';

registerTestEvents();

/**
 * Text from clients, crawled pages and SERP providers reaches the store through three doors: event
 * payloads, content blobs and JSON documents (the audit result). A NUL or a lone surrogate must
 * pass each of them (as U+FFFD) where PostgreSQL alone would refuse it.
 */
t.test('NUL and lone surrogates pass every door into the store', async (t) => {
  const { pool } = await testDatabase(t);
  const nasty = 'a\u0000b \ud800 c\udc00 \u{1F6B2} end';
  const clean = 'a\uFFFDb \uFFFD c\uFFFD \u{1F6B2} end';
  t.equal(storableText(nasty), clean, 'each becomes U+FFFD; a proper surrogate pair stays');
  t.equal(storableText('plain'), 'plain');

  await t.rejects(
    pool.query('SELECT $1::jsonb', [JSON.stringify({ x: nasty })]),
    'PostgreSQL alone refuses it (the bug this guards)',
  );
  await t.rejects(pool.query('SELECT $1::text', [nasty]), 'in text too');

  await withTransaction(pool, (tx) =>
    appendToStream(tx, {
      streamId: 's-nul',
      accountId: 'acc_1',
      expectedVersion: 0,
      now: new Date(),
      events: [TestHappened({ n: 1, note: nasty })],
    }),
  );
  t.equal(
    ((await readStream(pool, 's-nul'))[0]!.payload as { note: string }).note,
    clean,
    'an event payload (a crawled title, a keyword)',
  );

  const ref = await putContent(pool, `page ${nasty}`);
  t.equal(await getContent(pool, ref), `page ${clean}`, 'a content blob (a fetched page, supplied text)');

  // The audit result is JSON text stored as jsonb by the audits projection: SERP titles and
  // competitor pages end up in it.
  const result = { benchmark: { competitors: [{ title: nasty, [`k${nasty}`]: [nasty] }] } };
  const r = await pool.query('SELECT $1::jsonb AS doc', [storableJson(result)]);
  t.same(
    r.rows[0].doc,
    { benchmark: { competitors: [{ title: clean, [`k${clean}`]: [clean] }] } },
    'a JSON document, keys included',
  );
});
