/**
 * Generic paragraphs do not make a page readable (issue 24: filler never raises CQS). Sentences
 * generic by form are mostly short function words, so a readability index read over them rises
 * whatever the page's own sentences are like; srl reads it over the sentences that say something.
 * A made-up German page on heat pumps, its own prose dense with compounds (Amstad under 50).
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

const own = [
  '# Wärmepumpe Vorlauftemperatur einstellen',
  'Die Vorlauftemperatur einer Wärmepumpe stellen Sie über die Heizkurve im Bedienmenü ein: Steilheit 0,4 bis 0,6 für Fußbodenheizungen, 0,8 bis 1,2 für Heizkörperanlagen.',
  'Maßgeblich ist die Auslegungstemperatur bei minus zwölf Grad Außentemperatur; Fußbodenheizungen benötigen üblicherweise höchstens 35 Grad, Niedertemperaturheizkörper ungefähr 45 Grad.',
  'Jede Absenkung der Vorlauftemperatur um ein Grad verbessert die Jahresarbeitszahl erfahrungsgemäß um ungefähr zweieinhalb Prozent, weil der Verdichter gegen einen geringeren Druckunterschied arbeitet.',
  'Überprüfen Sie die Einstellung anschließend während mehrerer Frosttage: Bleiben einzelne Räume unterhalb der Solltemperatur, erhöhen Sie die Parallelverschiebung schrittweise um jeweils ein Grad.',
];
// Generic by form, yet each names the page's subject, so none is filler outright.
const generic = [
  'Eine Wärmepumpe ist für viele von uns etwas, das man so nicht jeden Tag hat. Da kann man schon mal ins Grübeln kommen, und das ist auch gut so.',
  'Wer mit seiner Wärmepumpe gut klarkommt, hat es im Winter gut. Es ist schön, wenn es warm ist und man sich um die Wärmepumpe keine Sorgen machen muss.',
  'Am Ende muss das mit der Wärmepumpe jeder für sich selbst wissen. Was für den einen gut ist, ist es für den anderen noch lange nicht, und das ist auch ganz normal so.',
];

const srlOf = (paragraphs: string[]): number => {
  const r = auditContent({
    content: paragraphs.join('\n\n'),
    url: null,
    keyword: 'wärmepumpe vorlauftemperatur',
    language: 'de',
    benchmark: null,
  });
  return r.dimensions.find((d) => d.id === 'srl')!.score;
};

t.test('generic paragraphs between the steps do not raise srl by lifting the readability index', async (t) => {
  const plain = srlOf(own);
  const padded = srlOf([own[0]!, own[1]!, generic[0]!, own[2]!, generic[1]!, own[3]!, generic[2]!, own[4]!]);
  t.ok(padded <= plain, `padded ${padded} ≤ plain ${plain}`);
});
