import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * A page is about health or money by its words, not by letters inside other words (issue 24: a
 * quotation must raise the evidence signals, not cost trust). "lek" (a medicine) stood inside
 * "daleko" and "elektrycznych", so a doctor's quotation made a page on the clock change a health
 * page that owed a disclaimer (corpus-a's `-c` quotation variant: trust 10 → 5.8). Made-up pages.
 */
const page = (extra: string) =>
  [
    '# Zmiana czasu na zimowy',
    '',
    'Ostatniej niedzieli października o godzinie 3:00 cofamy wskazówki zegarów na 2:00. Zegar ścienny stoi daleko od okna, więc przestawiamy go ręcznie.',
    '',
    'Telefony i komputery zmieniają czas same. W urządzeniach elektrycznych bez internetu, takich jak piekarnik czy mikrofalówka, trzeba zrobić to samemu.',
    '',
    `Pierwsze dni po zmianie bywają lekko męczące, bo organizm przyzwyczaja się do nowej pory posiłków i snu.${extra}`,
  ].join('\n');
const trust = (content: string) =>
  auditContent({ content, url: null, keyword: 'zmiana czasu', language: 'pl', format: 'markdown', benchmark: null })
    .eeat!.trust;

t.test('letters inside other words do not make a page YMYL', async (t) => {
  const plain = trust(page(''));
  // The same page without "daleko", "elektrycznych" and "lekko".
  const neutral = trust(
    page('').replace('daleko od', 'z dala od').replace('elektrycznych', 'domowych').replace('lekko', 'trochę'),
  );
  t.equal(plain, neutral, `trust ${plain}, without the words ${neutral}`);
  const quoted = trust(page(' Lekarka z poradni snu radzi, by kłaść się kwadrans wcześniej.'));
  t.equal(quoted, plain, `trust with a doctor's sentence ${quoted}, without ${plain}`);
});
