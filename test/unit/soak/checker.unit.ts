import t from 'tap';
import { checkHistory, type History, type TopicRecord } from '../../../bench/cluster/checker.ts';

// Two accounts on two partitions, three events each, committed in turn.
const stored = [1, 2, 3].flatMap((v) =>
  ['a', 'b'].map((acc, i) => ({
    id: `e-${acc}${v}`,
    streamId: `acc_${acc}`,
    streamVersion: v,
    position: `${10 * v + i}:0`,
  })),
);
const topicOf = (records = stored): TopicRecord[] =>
  [0, 1].flatMap((p) =>
    records.filter((r) => r.streamId === (p === 0 ? 'acc_a' : 'acc_b')).map((r) => ({ ...r, partition: p })),
  );

const clean = (): History => ({
  accepted: ['j1', 'j2'],
  terminal: ['j1', 'j2'],
  charges: ['j1', 'j2'],
  refunds: ['j2'],
  ledgers: [{ accountId: 'acc_a', replay: 3, projected: 3, verifyOk: true }],
  stored,
  topic: topicOf(),
  webhookPosts: { j1: 1, j2: 3 },
  maxWebhookAttempts: 3,
  lags: { audits: 0 },
  faults: [{ kind: 'broker-kill', from: 100, to: 200 }],
  submissions: [
    { from: 50, to: 120 },
    { from: 300, to: 900 },
  ],
});

t.test('a clean history passes, and a relay re-sending a batch is not a violation', async (t) => {
  const h = clean();
  // The relay crashed after sending and before saving its checkpoint: acc_a's first two again.
  h.topic.splice(2, 0, { ...h.topic[0]!, partition: 0 }, { ...h.topic[1]!, partition: 0 });
  const v = checkHistory(h);
  t.same(v.violations, []);
  t.equal(v.figures.duplicatesDroppedByConsumers, 2);
  t.equal(v.figures.worstWaitDuringFaultMs, 70, 'only submissions overlapping a fault count');
});

t.test('a duplicate past de-duplication is noticed', async (t) => {
  const h = clean();
  // The same event published again at a later position (e.g. appended twice): consumers keep it.
  h.topic.splice(2, 0, { ...h.topic[1]!, id: 'e-a2-copy', position: '25:0' });
  const v = checkHistory(h);
  t.equal(v.figures.duplicatesPastDedup, 1);
  t.match(v.violations.join('\n'), /acc_a v2 again after v2 \(duplicate\)/);
});

t.test('a gap on the topic is noticed, and the event it lost', async (t) => {
  const h = clean();
  h.topic = h.topic.filter((r) => r.id !== 'e-b2');
  const v = checkHistory(h);
  t.equal(v.figures.gaps, 1);
  t.equal(v.figures.missingFromTopic, 1);
  t.match(v.violations.join('\n'), /acc_b v3 where v2 was due/);
});

t.test('a double charge, a false ledger, a job never ended, a webhook sent too often, a lag', async (t) => {
  const h = clean();
  h.charges.push('j1');
  h.ledgers.push({ accountId: 'acc_b', replay: 2, projected: 3, verifyOk: true });
  h.accepted.push('j3');
  h.webhookPosts.j1 = 4;
  h.lags.ledger = 2;
  const v = checkHistory(h);
  t.equal(v.figures.doubleCharges, 1);
  t.equal(v.figures.ledgersTrue, 1);
  t.equal(v.figures.notTerminal, 1);
  t.equal(v.figures.webhooksOverLimit, 1);
  t.equal(v.figures.maxLag, 2);
  t.equal(v.violations.length, 5, v.violations.join('\n'));
});
