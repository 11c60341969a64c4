import t from 'tap';
import { auditContent, runAudit } from '../../../services/engine/audit.ts';

/**
 * Blind review r7's rejects, each on a text written for the test (no corpus article): the rule that
 * made the reject, with the case it must now refuse.
 */

const padding = [
  'Gardens are loved by many people everywhere, and everyone enjoys spending time in them with friends and family.',
  'It is always a good idea to think about these things carefully, because every garden is different in many ways.',
  'Many people wonder about this, and it is a very common question that comes up again and again over time.',
].join(' ');

t.test('slot in the wrong place: no figure asked for in a filler sentence ("for many years to come")', async (t) => {
  const content = [
    '# How to store a garden hose',
    'Store a garden hose coiled on a reel in a shaded place, drained of water, at 5 to 25 °C.',
    `${padding} Knowing how to store a garden hose is something every gardener should know, so that you can enjoy your hose for many years to come.`,
    '## Steps',
    'Drain the hose, coil it in loops of 60 cm, and hang it on a reel away from direct sun. A drained hose weighs about 2 kg less.',
  ].join('\n\n');
  const r = auditContent({ content, url: null, keyword: 'store a garden hose', language: 'en' });
  const asked = r.recommendations.filter((x) => x.dimension === 'eav' && x.before.includes('many years'));
  t.same(asked, [], 'no task to put a number into the idiom of a filler paragraph');
});

t.test('harmful: nothing moved above the question a section opens with', async (t) => {
  const content = [
    '# Co to jest leasing',
    'Leasing to umowa, w której firma korzysta z rzeczy za miesięczną ratę, np. 1200 zł netto.',
    '## Co to jest leasing – wyjaśnienie',
    'Co to jest leasing? Najprościej mówiąc, jest to sposób finansowania, który jest związany z majątkiem firmy. Rzecz jest używana, a raty są płacone co miesiąc przez 36 miesięcy. Leasing jest stosowany w bardzo wielu firmach i jest uważany za ważne narzędzie.',
    '## Ile kosztuje leasing',
    'Koszt leasingu to suma rat i opłaty wstępnej, zwykle od 102% do 110% wartości rzeczy.',
  ].join('\n\n');
  const run = runAudit({ content, url: null, keyword: 'co to jest leasing', language: 'pl' });
  const bluf = run.scored.outcomes.find((o) => o.id === 'bluf')!;
  const fix = bluf.findings.find((f) => f.title.includes('wyjaśnienie'));
  t.ok(fix, 'the section is still a problem: it opens with a question');
  t.equal(fix?.change ?? null, null, 'but no change moves a sentence above its question');
});
