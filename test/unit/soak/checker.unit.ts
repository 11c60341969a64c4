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
  // r1 written (charged once), r2 failed (charged, refunded).
  generations: { accepted: ['r1', 'r2'], completed: ['r1'], failed: ['r2'] },
  charges: ['j1', 'j2', 'r1', 'r2'],
  refunds: ['j2', 'r2'],
  ledgers: [{ accountId: 'acc_a', replay: 3, projected: 3, verifyOk: true }],
  stored,
  topic: topicOf(),
  webhookPosts: { j1: 1, j2: 3 },
  maxWebhookAttempts: 3,
  lags: { audits: 0 },
  faults: [{ kind: 'broker-kill', from: 100, to: 200 }],
  submissions: [
    { from: 50, to: 120, what: 'audit' },
    { from: 150, to: 180, what: 'generation' },
    { from: 300, to: 900, what: 'audit' },
  ],
});

t.test('a clean history passes, and a relay re-sending a batch is not a violation', async (t) => {
  const h = clean();
  // The relay crashed after sending and before saving its checkpoint: acc_a's first two again.
  h.topic.splice(2, 0, { ...h.topic[0]!, partition: 0 }, { ...h.topic[1]!, partition: 0 });
  const v = checkHistory(h);
  t.same(v.violations, []);
  t.match(v.figures, {
    generationsAccepted: 2,
    generationsCompleted: 1,
    generationsFailed: 1,
    generationsNotTerminal: 0,
  });
  t.equal(v.figures.duplicatesDroppedByConsumers, 2);
  t.equal(v.figures.worstWaitDuringFaultMs, 70, 'only submissions overlapping a fault count');
  t.same(v.figures.worstWaitDuringFaultMsByWhat, { audit: 70, generation: 30 });
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

t.test('a generation that never ends is noticed', async (t) => {
  const h = clean();
  h.generations.accepted.push('r3');
  h.charges.push('r3');
  const v = checkHistory(h);
  t.equal(v.figures.generationsNotTerminal, 1);
  t.equal(v.figures.generationsCreditWrong, 0, 'its charge is not judged before it ends');
  t.same(v.violations, ['generation r3 accepted but never terminal']);
});

t.test('a generation charged twice, and a failed one never refunded, are noticed', async (t) => {
  const h = clean();
  h.charges.push('r1');
  h.refunds = h.refunds.filter((s) => s !== 'r2');
  const v = checkHistory(h);
  t.equal(v.figures.generationsChargedTwice, 1);
  t.equal(v.figures.doubleCharges, 1);
  t.equal(v.figures.generationsCreditWrong, 2);
  t.match(v.violations.join('\n'), /subject r1 charged 2 times/);
  t.match(v.violations.join('\n'), /generation r1 completed with 2 credits net \(1 due\)/);
  t.match(v.violations.join('\n'), /generation r2 failed with 1 credits net \(0 due\)/);
});

t.test('a completed generation never charged is noticed (a credit given away)', async (t) => {
  const h = clean();
  h.charges = h.charges.filter((s) => s !== 'r1');
  const v = checkHistory(h);
  t.equal(v.figures.generationsCreditWrong, 1);
  t.match(v.violations.join('\n'), /generation r1 completed with 0 credits net \(1 due\)/);
});
