import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * Stuffing spread thin (issue 23, blind review r18): a page that says its keyphrase once in nearly
 * every sentence, never twice in one, had no task for its body (the sentence-level rewrite needs
 * a sentence that repeats it). Now it gets one, in place, at the first sentence that repeats the
 * phrase where a pronoun would do, ranked high where the stuffing takes density to 0. Made-up pages.
 */
const stuffed = [
  '# Garden hose care',
  '',
  'A garden hose lasts for years with a little care. Coil the garden hose after use. Drain the garden hose before winter comes. Store the garden hose out of the sun.',
  '',
  'A cracked garden hose leaks at the tap. Check the garden hose washer each spring. Replace the garden hose washer when it hardens. A new garden hose washer costs little.',
  '',
  'Kinks shorten the life of a garden hose. A reel keeps the garden hose tidy. Hang the garden hose on a bracket in the shed. Never drive over a garden hose.',
].join('\n');
const natural = [
  '# Garden hose care',
  '',
  'A garden hose lasts for years with a little care. Coil it after use and drain it before winter. Store it out of the sun, which hardens the rubber within two seasons.',
  '',
  'A cracked hose leaks at the tap. Check the washer each spring and replace it when it hardens; a new one costs about a euro.',
  '',
  'Kinks shorten its life. A reel keeps it tidy, and a bracket in the shed keeps it off the floor. Never drive over it.',
].join('\n');

const audit = (content: string) =>
  auditContent({ content, url: null, keyword: 'garden hose', language: 'en', format: 'markdown', benchmark: null });
const spread = (r: ReturnType<typeof audit>) =>
  r.recommendations.filter((x) => x.title === 'Use the keyword less often');

t.test('a page that says its keyphrase in every sentence gets a task for its body', async (t) => {
  const r = audit(stuffed);
  const [task] = spread(r);
  t.ok(task, 'the task is shown');
  // A later sentence of its paragraph (the first one names the subject), not one offered for removal.
  t.match(task!.before, /garden hose/);
  t.notOk(stuffed.includes(`\n${task!.before}`), "not a paragraph's first sentence");
  t.notOk(
    r.recommendations.some((x) => x !== task && x.before === task!.before),
    'no other change stands on that sentence',
  );
  t.equal(task!.after, task!.before, 'in place: the author rewrites it');
  t.ok(task!.authorDataOnly);
  t.ok(['critical', 'high'].includes(task!.priority), 'not a bonus');
  t.match(task!.evidence?.rule ?? '', /density/);
});

t.test('a page that names its keyphrase naturally gets none', async (t) => {
  t.same(spread(audit(natural)), []);
});
