/**
 * A legal provision is a citation (issue 24: citations of sources raise the evidence signals without
 * a magic phrase): the section sign with its number, a Polish article of an act, an English section
 * of a named Act. Sentences written for this test, not taken from any corpus.
 */
import t from 'tap';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const citations = (content: string, keyword: string) =>
  evidenceOf(prepareDocument({ content, url: null, keyword, format: 'markdown' }).doc).citations.size;

t.test('a provision cited as lawyers cite it is a citation', async (t) => {
  t.equal(
    citations(
      '# Heizkosten\n\nNach § 7 der Heizkostenverordnung werden mindestens 50 Prozent der Kosten nach dem Verbrauch verteilt.',
      'heizkosten',
    ),
    1,
    'de: the section sign of an ordinance',
  );
  t.equal(
    citations(
      '# Zwrot towaru\n\nZgodnie z art. 27 ustawy o prawach konsumenta kupujący może odstąpić od umowy w ciągu 14 dni.',
      'zwrot towaru',
    ),
    1,
    'pl: an article of an act',
  );
  t.equal(
    citations(
      '# Godziny pracy\n\nUstawa z dnia 26 czerwca 1974 r. Kodeks pracy w art. 151 ogranicza nadgodziny do 150 godzin w roku.',
      'godziny pracy',
    ),
    1,
    'pl: the act named first, its date with "r."',
  );
  t.equal(
    citations(
      '# Faulty goods\n\nUnder section 9 of the Consumer Rights Act 2015, goods must be of satisfactory quality when they are sold.',
      'faulty goods',
    ),
    1,
    'en: a section of a named Act',
  );
});

t.test('look-alikes are no citation: a section of the guide, an item number, a code', async (t) => {
  t.equal(
    citations(
      '# Garden shed\n\nSection 3 of this guide shows the base. Article 12 in our shop is the larger shed. See section 4 of the source code for the rest.',
      'garden shed',
    ),
    0,
  );
  t.equal(citations('# Gartenhaus\n\nArtikel 5 im Shop ist das größere Haus mit 12 m² Fläche.', 'gartenhaus'), 0);
  t.equal(
    citations(
      '# Szopa\n\nUstawa jest długa i ma wiele artykułów, a art. 5 tego poradnika mówi o fundamencie.',
      'szopa',
    ),
    0,
    'pl: "ustawa" and an article of something else',
  );
});

t.test('a number after a legal abbreviation does not start a sentence', async (t) => {
  const doc = prepareDocument({
    content: '# Umowa\n\nZgodnie z art. 27 ustawy kupujący ma 14 dni. Zob. też pkt 3 regulaminu.',
    url: null,
    keyword: 'umowa',
    format: 'markdown',
  }).doc;
  t.equal(doc.sentences.filter((s) => s.kind === 'prose').length, 2);
});
