import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';
import { stuffedCutsIn } from '../../../services/apply/stuffingCuts.ts';
import { engineView } from '../../../services/apply/engineView.ts';

/**
 * A sentence that repeats the keyword its paragraph already said, and tells the reader what to do,
 * is advice, not stuffing to cut (issue 23, blind review r23, harmful: the conclusion's only real
 * advice was offered for deletion). A sign-off that repeats it is still cut. Made-up German page
 * on getting rid of moss in a lawn.
 */
const KEYWORD = 'Moos im Rasen entfernen';
const advice =
  'Am besten ist es aber, den Rasen gar nicht erst zu kurz zu mähen oder zu düngen, dann muss man auch kein Moos im Rasen entfernen.';
const signOff = 'Wir hoffen, dieser Artikel zum Thema Moos im Rasen entfernen hat Ihnen weitergeholfen.';
const content = [
  '# Moos im Rasen entfernen',
  '',
  'Moos im Rasen entfernen Sie am besten im April: Vertikutieren Sie die Fläche in zwei Richtungen, kalken Sie saure Stellen mit 150 g Kalk pro Quadratmeter und säen Sie kahle Stellen nach.',
  '',
  '## Warum wächst Moos?',
  '',
  'Moos wächst, wo der Boden verdichtet, sauer oder schattig ist und das Gras zu kurz geschnitten wird. Ein pH-Wert unter 5,5 fördert es, ebenso Staunässe nach einem nassen Winter. Gräser brauchen dagegen Licht, Luft im Boden und Nährstoffe, vor allem Stickstoff im Frühjahr.',
  '',
  '## Fazit',
  '',
  `Wer Moos im Rasen entfernen will, vertikutiert, kalkt und düngt. ${advice} ${signOff}`,
].join('\n');

const removals = () =>
  auditContent({ content, format: 'markdown', url: null, keyword: KEYWORD, language: 'de', benchmark: null })
    .dimensions.find((d) => d.id === 'density')!
    .problems.filter((p) => p.actionType === 'remove')
    .map((p) => p.problem);

t.test('advice that repeats its paragraph’s keyword is not offered for deletion; a sign-off is', async (t) => {
  const got = removals();
  t.notOk(
    got.some((p) => p.includes('Am besten ist es aber')),
    got.join('\n'),
  );
  const view = engineView(content, KEYWORD, 'de')!;
  const cuts = stuffedCutsIn(content.split('## Fazit\n\n')[1]!, view, new Set());
  t.notOk(
    cuts.some((c) => c.startsWith('Am besten')),
    `apply cuts: ${cuts.join(' | ')}`,
  );
  t.ok(
    cuts.some((c) => c.startsWith('Wir hoffen')),
    `apply cuts: ${cuts.join(' | ')}`,
  );
});

/** A step of the procedure that repeats the keyword is a step: made-up German how-to (blind review r24). */
t.test('a step that repeats the keyword is not cut, by the engine or by apply', async (t) => {
  const kw = 'Schraube lösen';
  const step = 'Danach kann man erneut versuchen, die Schraube zu lösen.';
  const page = [
    '# Festsitzende Schraube lösen',
    '',
    'Eine festsitzende Schraube lösen Sie mit Kriechöl, Wärme und dem passenden Bit: 90 % der Schrauben geben danach nach.',
    '',
    '## Schritt für Schritt',
    '',
    `Um die Schraube zu lösen, sprühen Sie Kriechöl auf das Gewinde und warten Sie 15 Minuten. ${step} Hilft das nicht, erwärmen Sie den Schraubenkopf 30 Sekunden mit dem Heißluftföhn.`,
    '',
    'Ein Schlagschrauber löst die Schraube ruckartig, ohne den Kopf zu beschädigen; setzen Sie ihn mit 2 bis 3 leichten Hammerschlägen an.',
  ].join('\n');
  const removed = auditContent({
    content: page,
    format: 'markdown',
    url: null,
    keyword: kw,
    language: 'de',
    benchmark: null,
  })
    .dimensions.find((d) => d.id === 'density')!
    .problems.filter((p) => p.actionType === 'remove')
    .map((p) => p.problem);
  t.notOk(
    removed.some((p) => p.includes('Danach kann man')),
    removed.join('\n'),
  );
  const view = engineView(page, kw, 'de')!;
  const within = page.split('\n\n').find((b) => b.includes(step))!;
  t.notOk(stuffedCutsIn(within, view, new Set()).includes(step), 'apply keeps the step');
});
