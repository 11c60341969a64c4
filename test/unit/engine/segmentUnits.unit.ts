/** A unit abbreviation after a number ends a sentence before a capitalised word (text/segment.ts). */
import t from 'tap';
import { splitSentences } from '../../../services/engine/text/segment.ts';

t.test(
  '"zł.", "min." after a number: a sentence end before a capital, an abbreviation before lower case',
  async (t) => {
    t.same(splitSentences('Dojazd kosztuje +50 zł. W badaniu z 2023 r. wzięło udział 1050 osób.'), [
      'Dojazd kosztuje +50 zł.',
      'W badaniu z 2023 r. wzięło udział 1050 osób.',
    ]);
    t.same(splitSentences('Kosztuje ok. 5 zł. rocznie. Trwa 15 min. Potem schnie.'), [
      'Kosztuje ok. 5 zł. rocznie.',
      'Trwa 15 min.',
      'Potem schnie.',
    ]);
    t.same(splitSentences('Przyjdź o godz. 15. Dr. Nowak czeka.'), ['Przyjdź o godz. 15.', 'Dr. Nowak czeka.']);
  },
);

t.test('an academic title before a name does not end a sentence (dr n. med., Dr. rer. nat., Dipl.-Ing.)', async (t) => {
  t.same(splitSentences('Radzi dr n. med. Ewa Lis z kliniki w Opolu. Potem wyjdź.'), [
    'Radzi dr n. med. Ewa Lis z kliniki w Opolu.',
    'Potem wyjdź.',
  ]);
  t.same(splitSentences('Es misst Dr. rer. nat. Uwe Kahl. Dipl.-Ing. Sven Ott prüft. Fertig.'), [
    'Es misst Dr. rer. nat. Uwe Kahl.',
    'Dipl.-Ing. Sven Ott prüft.',
    'Fertig.',
  ]);
  t.same(splitSentences('The tank sits on a farm. Then it rains.'), ['The tank sits on a farm.', 'Then it rains.']);
});

t.test('a capital after a hyphen ends a name, not an initial: the sentence ends there (APS-C., Typ-B.)', async (t) => {
  t.same(splitSentences('Der Sensor hat das Format APS-C. „Mehr Fläche bringt weniger Rauschen“, sagt Eva Maier.'), [
    'Der Sensor hat das Format APS-C.',
    '„Mehr Fläche bringt weniger Rauschen“, sagt Eva Maier.',
  ]);
  t.same(
    splitSentences('Wie J. Kowalski pisze, to działa.'),
    ['Wie J. Kowalski pisze, to działa.'],
    'an initial still is one',
  );
});
