/**
 * Generic paragraphs earn nothing (issue 24: filler never raises CQS). A paragraph generic by form
 * (sweeping or function words, no value) that names part of the keyphrase ("the city is
 * beautiful") neither breaks the keyphrase's longest gap nor covers a SERP term; a citation added to
 * it is evidence of its own and leaves the writer's sentences as generic as they were. And reported
 * speech of a named person is a quotation, in the three languages. Made-up pages.
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { gamingOf } from '../../../services/engine/dimensions/gaming.ts';
import { termSentences } from '../../../services/engine/dimensions/helpers.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const KEYWORD = 'roof repair leeds';
const GENERIC =
  'Every roof in Leeds takes a lot of weather, and everyone who owns a house knows how much that means. ' +
  'It is always worth looking after the slates and the gutters before the whole winter comes.';
const specific = [
  'Roof repair in Leeds starts with a survey: we check slates, flashing and gutters from a scaffold tower and send photos the same day.',
  'A slipped slate costs £65 to refit, a cracked ridge tile £120 with new mortar, and a flashing reseal £180 for a standard chimney.',
  'Most flat tops on terraced houses here are felt; we replace them with EPDM rubber, which carries a 20-year guarantee.',
  'Storm damage is booked within 48 hours; we tarp the opening first so water cannot reach the ceiling while slates are ordered.',
  'Lead flashing is dressed by hand and fixed with lead wedges, and we never seal it with silicone, which fails within two winters.',
  'Valleys collect leaves and moss, so we clear them and check the underlay beneath, which is often torn on older houses.',
  'Chimney stacks lose pointing first; we rake out 15 mm of old mortar and repoint with a lime mix that lets the brick breathe.',
  'Gutters are cleared and tested with a hose, and leaking joints are resealed or the run is replaced in cast-effect PVC.',
];
const page = (extra: string) =>
  `# Roof repair in Leeds\n\n${specific.slice(0, 2).join('\n\n')}\n\n${specific.slice(2, 5).join('\n\n')}\n\n${extra}${specific.slice(5).join('\n\n')}`;
const density = (content: string) =>
  auditContent({ content, url: null, keyword: KEYWORD, language: 'en', format: 'markdown' }).dimensions.find(
    (d) => d.id === 'density',
  )!;

t.test("a generic paragraph naming the keyphrase's place does not close its longest gap", async (t) => {
  const base = density(page(''));
  const padded = density(page(`${GENERIC}\n\n`));
  t.ok(padded.score <= base.score, `density ${base.score} -> ${padded.score}`);
});

t.test('sentences of a generic paragraph cover no term, with or without a citation after them', async (t) => {
  for (const cited of [
    '',
    ' The Met Office recorded 1,200 mm of rain in Leeds in 2023, according to its annual report.',
  ]) {
    const p = prepareDocument({
      content: page(`${GENERIC}${cited}\n\n`),
      url: null,
      keyword: KEYWORD,
      format: 'markdown',
    });
    const g = gamingOf(p.doc, p.kw, p.an);
    const own = p.doc.sentences.filter((s) => GENERIC.includes(s.text));
    t.equal(own.length, 2);
    t.ok(
      own.every((s) => g.generic.has(s)),
      cited ? 'generic beside a citation' : 'generic alone',
    );
    const terms = new Set(termSentences(p.doc, g));
    t.ok(
      own.every((s) => !terms.has(s)),
      'no term from it',
    );
  }
});

t.test('reported speech of a named person is a quotation (en, pl, de)', async (t) => {
  const quotes = (content: string, keyword: string) =>
    evidenceOf(prepareDocument({ content, url: null, keyword, format: 'markdown' }).doc).quotes.size;
  t.equal(
    quotes(
      '# Roof repair\n\nMartin Hale, who chairs the roofers’ guild, assured us that slate roofs last a century.',
      'roof repair',
    ),
    1,
    'en: assured that',
  );
  t.equal(
    quotes(
      '# Naprawa dachu\n\nTomasz Wilk, dekarz z Lublina, zapewnił, że dach z łupka wytrzyma sto lat.',
      'naprawa dachu',
    ),
    1,
    'pl: zapewnił, że (a verb ending in ł)',
  );
  t.equal(
    quotes(
      '# Naprawa dachu\n\nDekarz z Lublina powiedział nam wczoraj, że Jan Nowak ma rację w każdej sprawie.',
      'naprawa dachu',
    ),
    1,
    'pl: powiedział … że with a name',
  );
  t.equal(
    quotes(
      '# Naprawa dachu\n\nDach kryty papą sprawdza się co pięć lat, a rynny czyści każdej jesieni.\n\n– Nie kładziemy papy na mokre deski – powiedział właściciel firmy.',
      'naprawa dachu',
    ),
    1,
    'pl: direct speech opened by a dash',
  );
  t.equal(
    quotes(
      '# Dachreparatur\n\nJonas Berger, Dachdecker in Kassel, versicherte, dass ein Schieferdach hundert Jahre hält.',
      'dachreparatur',
    ),
    1,
    'de: versicherte, dass',
  );
  t.equal(
    quotes(
      '# Roof repair\n\nMany people say that a slate roof lasts a century, and most of them are right.',
      'roof repair',
    ),
    0,
    'no one named: not a quotation',
  );
});
