/**
 * A heading without the keyphrase (keyphraseCut.ts): cut only where it is safe by construction, at
 * the end after a preposition or at the start before a colon or dash, and nowhere else. It serves a
 * stuffed subheading's cut and the sub-topic heading a recommendation proposes, which takes a
 * competitor's heading without the keyphrase (blind review r17: a proposed "Kocioł żeliwny –
 * zalety" on a stuffed page was one more keyword heading). Made-up headings.
 */
import t from 'tap';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { describeKeyword } from '../../../services/engine/keyword.ts';
import { withoutKeyphrase } from '../../../services/engine/keyphraseCut.ts';

const cut = (lang: string, keyword: string, heading: string) => {
  const an = createAnalyzer(lang);
  return withoutKeyphrase(heading, { an, lang, kw: describeKeyword(keyword, an) });
};

t.test('the keyphrase at the start before a dash or colon, or at the end after a preposition', async (t) => {
  t.equal(cut('pl', 'pompa wodna', 'Pompa wodna – zalety'), 'Zalety');
  t.equal(cut('pl', 'pompa wodna', 'Najczęstsze awarie w pompie wodnej'), 'Najczęstsze awarie');
  t.equal(cut('en', 'water pump', 'Water pump: common faults'), 'Common faults');
  t.equal(cut('en', 'water pump', 'Common faults of the water pump?'), 'Common faults?');
  t.equal(cut('de', 'wasserpumpe', 'Typische Fehler bei der Wasserpumpe'), 'Typische Fehler');
});

t.test('no cut elsewhere', async (t) => {
  t.equal(cut('en', 'water pump', 'Which water pump lasts longest'), null, 'inside the heading');
  t.equal(cut('en', 'water pump', 'Water pump prices'), null, 'at the start without a joint');
  t.equal(cut('en', 'water pump', 'Prices water pump'), null, 'at the end without a preposition');
  t.equal(cut('en', 'water pump', 'Water pump vs water pump'), null, 'said twice');
  t.equal(cut('pl', 'pompa wodna', 'Awarie, które zdarzają się w pompie wodnej'), null, 'a clause cut short');
});
