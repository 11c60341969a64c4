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
const page = (lang: 'en' | 'pl' | 'de', title: string, opening: string) =>
  `# ${title}\n\n${opening}\n\n## ${lang === 'en' ? 'Steps' : lang === 'pl' ? 'Kroki' : 'Schritte'}\n\n${body[lang]}`;
const task = (content: string, keyword: string, language: string) =>
  auditContent({ content, format: 'markdown', url: null, keyword, language, benchmark: null }).recommendations.find(
    (r) => r.dimension === 'bluf' && r.authorDataOnly,
  );

t.test('a sweeping superlative with no figure is a warm-up, in en, pl and de', async (t) => {
  const en = task(
    page(
      'en',
      'How to paint a garden shed',
      'Sheds are one of the most useful buildings that any garden can have. They keep tools dry and tidy.',
    ),
    'how to paint a garden shed',
    'en',
  );
  t.match(en?.evidence?.figure ?? '', /one of the most/, 'en');
  const pl = task(
    page(
      'pl',
      'Jak pomalować szopę',
      'Szopa to jedna z najważniejszych rzeczy w każdym ogrodzie. Chroni narzędzia przed deszczem.',
    ),
    'jak pomalować szopę',
    'pl',
  );
  t.match(pl?.evidence?.figure ?? '', /jedna z najważniejszych/, 'pl');
  const de = task(
    page(
      'de',
      'Gartenhaus streichen',
      'Das Gartenhaus ist eines der wichtigsten Gebäude in jedem Garten. Es schützt Werkzeug vor Regen.',
    ),
    'gartenhaus streichen',
    'de',
  );
  t.match(de?.evidence?.figure ?? '', /eines der wichtigsten/, 'de');
});

t.test('with a figure the superlative frames the answer: no task', async (t) => {
  const framed = task(
    page(
      'en',
      'How to paint a garden shed',
      'Rot is one of the most common faults of garden sheds: 3 in 10 floors fail within 8 years. Paint stops it.',
    ),
    'how to paint a garden shed',
    'en',
  );
  t.notMatch(framed?.evidence?.figure ?? '', /one of the most/);
});
