/**
 * A figure from an official count named by its statistic, a German compound included ("Polizeiliche
 * Kriminalstatistik 2023"), is sourced as one from a survey or a census is (issue 24, item 2).
 */
import t from 'tap';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const prep = (content: string, keyword: string) => prepareDocument({ content, url: null, keyword, format: 'markdown' });

t.test('a figure from a named statistic of a year is a sourced figure (de, en, pl)', async (t) => {
  const stats = (content: string, keyword: string) => evidenceOf(prep(content, keyword).doc).statistics.size;
  t.equal(
    stats(
      '# Schloss wechseln\n\nDie Polizeiliche Kriminalstatistik 2023 weist rund 77.800 Wohnungseinbrüche aus; knapp 47 % blieben im Versuch stecken.',
      'schloss wechseln',
    ),
    1,
    'de: a compound of Statistik with its year',
  );
  t.equal(
    stats(
      '# Door locks\n\nHome Office statistics for 2023 record 190,000 domestic burglaries, 40 % of them through the front door.',
      'door locks',
    ),
    1,
    'en',
  );
  t.equal(
    stats(
      '# Zamki do drzwi\n\nStatystyki policji za 2023 rok pokazują 20 tys. włamań do mieszkań, z czego 40 % przez drzwi wejściowe.',
      'zamki do drzwi',
    ),
    1,
    'pl',
  );
  t.equal(
    stats(
      '# Schloss wechseln\n\nDie Statistik zeigt, dass 47 % der Einbrüche an einer guten Tür mit einem neuen Zylinder scheitern.',
      'schloss wechseln',
    ),
    0,
    'a statistic of no year and no name is no source',
  );
});
