/**
 * An opening that asserts a sweeping superlative about its subject ("Sheds are one of the most
 * useful buildings in any garden") and gives no figure is a warm-up: the answer-first task stands
 * on it (r15: warm-up openings went unflagged). With a figure the superlative frames the answer and
 * nothing is asked. Made-up pages in English, Polish and German.
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

const body = {
  en: 'Sand the boards with 120-grit paper, prime the bare wood and brush on two coats of exterior paint four hours apart. Work on a dry day between 10 and 25 °C.',
  pl: 'Zeszlifuj deski papierem 120, zagruntuj gołe drewno i nałóż dwie warstwy farby zewnętrznej w odstępie 4 godzin. Maluj w suchy dzień przy 10–25 °C.',
  de: 'Schleifen Sie die Bretter mit 120er Papier, grundieren Sie das blanke Holz und streichen Sie zwei Schichten Außenfarbe im Abstand von 4 Stunden.',
};
type Lang = 'en' | 'pl' | 'de';
const HEADING: Record<Lang, string> = { en: 'Steps', pl: 'Kroki', de: 'Schritte' };
const TITLE: Record<Lang, string> = {
  en: 'How to paint a garden shed',
  pl: 'Jak pomalować szopę',
  de: 'Gartenhaus streichen',
};
/** The figure of the bluf author task on a page opening so, if the engine asks for one. */
const warmUp = (lang: Lang, opening: string): string =>
  auditContent({
    content: `# ${TITLE[lang]}\n\n${opening}\n\n## ${HEADING[lang]}\n\n${body[lang]}`,
    format: 'markdown',
    url: null,
    keyword: TITLE[lang].toLowerCase(),
    language: lang,
    benchmark: null,
  }).recommendations.find((r) => r.dimension === 'bluf' && r.authorDataOnly)?.evidence?.figure ?? '';

t.test('a sweeping superlative with no figure is a warm-up, in en, pl and de', async (t) => {
  const cases: [Lang, string, RegExp][] = [
    [
      'en',
      'Sheds are one of the most useful buildings that any garden can have. They keep tools dry.',
      /one of the most/,
    ],
    [
      'pl',
      'Szopa to jedna z najważniejszych rzeczy w każdym ogrodzie. Chroni narzędzia przed deszczem.',
      /jedna z najważniejszych/,
    ],
    [
      'de',
      'Das Gartenhaus ist eines der wichtigsten Gebäude in jedem Garten. Es schützt Werkzeug vor Regen.',
      /eines der wichtigsten/,
    ],
  ];
  for (const [lang, opening, phrase] of cases) t.match(warmUp(lang, opening), phrase, lang);
});

t.test('with a figure the superlative frames the answer: no task', async (t) => {
  const opening =
    'Rot is one of the most common faults of garden sheds: 3 in 10 floors fail within 8 years. Paint stops it.';
  t.notMatch(warmUp('en', opening), /one of the most/);
});
