/**
 * A German article's report is German: every card text (a dimension's summary and strengths, a
 * problem's title, problem and suggestion, a recommendation's title and why) was English wherever
 * a label gave no German text. Audits three made-up German pages (a how-to, a product page stuffed
 * with its keyword, a thin page with a vague intro) and looks for English function words outside
 * what the card quotes from the article.
 */
import t from 'tap';
import { profileLabel } from '../../../services/engine/labels.ts';
import { auditContent } from '../../../services/engine/audit.ts';
import type { EngineResult } from '../../../services/engine/types.ts';

const howTo = [
  '# Fahrradkette ölen: so geht es in fünf Minuten',
  '',
  'Eine Fahrradkette ölen Sie alle 300 Kilometer und nach jeder Regenfahrt: Kette abwischen, auf jede Rolle einen Tropfen Kettenöl geben und den Überschuss nach zehn Minuten abnehmen.',
  '',
  '## Was Sie brauchen',
  '',
  '- einen trockenen Lappen aus Baumwolle',
  '- Kettenöl für nasse oder trockene Bedingungen',
  '- eine alte Zahnbürste für grobe Verschmutzungen',
  '',
  '## Schritt 1: Kette reinigen',
  '',
  'Halten Sie den Lappen um die untere Kettenhälfte und drehen Sie die Kurbel etwa 30 Sekunden lang rückwärts. Festen Schmutz zwischen den Gliedern lösen Sie mit der Zahnbürste. Eine saubere Kette nimmt das Öl besser auf und zieht weniger Sand an.',
  '',
  '## Schritt 2: Öl auftragen',
  '',
  'Geben Sie auf jede der 116 Rollen einen einzelnen Tropfen Öl, und zwar von innen auf das untere Kettentrum. Drehen Sie die Kurbel dabei langsam weiter, damit Sie keine Rolle auslassen. Mehr Öl hilft nicht: Es sammelt nur Staub.',
  '',
  '## Schritt 3: Überschuss entfernen',
  '',
  'Lassen Sie das Öl zehn Minuten einziehen. Danach wischen Sie die Kette außen mit dem Lappen trocken. Innen in den Rollen bleibt genug Schmierstoff, außen klebt dann kein Schmutz mehr fest.',
  '',
  '## Wie oft sollte man die Kette ölen?',
  '',
  'Im Alltag reicht es, die Fahrradkette alle 300 Kilometer zu ölen. Nach Fahrten im Regen oder auf salzigen Winterstraßen ölen Sie sie sofort, weil Wasser das Öl aus den Rollen spült. Eine quietschende Kette ist immer ein Zeichen, dass sie zu trocken läuft.',
  '',
  '## Häufige Fehler',
  '',
  'Der häufigste Fehler ist zu viel Öl. Ebenso schädlich sind Speiseöl und Haushaltssprays: Speiseöl verharzt innerhalb weniger Wochen, und dünne Sprays waschen das Fett aus den Lagern. Nehmen Sie deshalb immer ein Öl, das ausdrücklich für Fahrradketten gedacht ist.',
].join('\n');

const stuffedProduct = [
  '# Elektrische Kaffeemühle kaufen – die beste elektrische Kaffeemühle günstig kaufen',
  '',
  'Die elektrische Kaffeemühle ist die elektrische Kaffeemühle für alle, die eine elektrische Kaffeemühle suchen. Unsere elektrische Kaffeemühle mahlt Kaffee, denn eine elektrische Kaffeemühle ist zum Mahlen da. Kaufen Sie jetzt die elektrische Kaffeemühle.',
  '',
  '## Elektrische Kaffeemühle mit Kegelmahlwerk',
  '',
  'Die elektrische Kaffeemühle hat ein Kegelmahlwerk aus Edelstahl. Mit der elektrischen Kaffeemühle mahlen Sie sehr schnell und sehr gleichmäßig. Eine elektrische Kaffeemühle mit Kegelmahlwerk ist besser als eine elektrische Kaffeemühle mit Schlagwerk. Die elektrische Kaffeemühle ist leise und die elektrische Kaffeemühle ist schön.',
  '',
  '## Elektrische Kaffeemühle: Mahlgrad einstellen',
  '',
  'An der elektrischen Kaffeemühle stellen Sie den Mahlgrad ein. Die elektrische Kaffeemühle bietet viele Stufen, von fein für Espresso bis grob für die French Press. So ist die elektrische Kaffeemühle für jede Zubereitung geeignet. Die elektrische Kaffeemühle ist sehr vielseitig.',
  '',
  '## Elektrische Kaffeemühle reinigen',
  '',
  'Die elektrische Kaffeemühle lässt sich leicht reinigen. Den Bohnenbehälter der elektrischen Kaffeemühle nehmen Sie ab und spülen ihn aus. Das Mahlwerk der elektrischen Kaffeemühle bürsten Sie trocken ab. Eine saubere elektrische Kaffeemühle mahlt lange gut.',
  '',
  '## Elektrische Kaffeemühle bestellen',
  '',
  'Bestellen Sie Ihre elektrische Kaffeemühle heute. Die elektrische Kaffeemühle wird schnell geliefert. Mit der elektrischen Kaffeemühle genießen Sie jeden Morgen frisch gemahlenen Kaffee. Die elektrische Kaffeemühle ist die richtige Wahl für Kaffeeliebhaber.',
].join('\n');

const thinPage = [
  '# Zimmerpflanzen richtig gießen',
  '',
  'In der heutigen Zeit haben viele Menschen Pflanzen in der Wohnung. Pflanzen machen einen Raum schöner und sorgen für ein gutes Gefühl. Doch viele fragen sich, wie man das eigentlich richtig macht. Es gibt viele Meinungen dazu, und jeder hat seine eigenen Erfahrungen. Wahrscheinlich kommt es auf viele Dinge an, die man nicht immer genau weiß.',
  '',
  'Grundsätzlich kann man sagen, dass Pflanzen Wasser brauchen. Manche Pflanzen brauchen viel Wasser, andere brauchen wenig Wasser. Es ist wichtig, dass man nicht zu viel und nicht zu wenig gießt. Wenn man zu viel gießt, kann das schlecht sein. Wenn man zu wenig gießt, ist das auch nicht gut. Man sollte also darauf achten, wie es der Pflanze geht, und dann entsprechend handeln.',
  '',
  'Viele Experten empfehlen, regelmäßig nach den Pflanzen zu sehen. Das ist eigentlich immer eine gute Idee, denn so merkt man schnell, wenn etwas nicht stimmt. Es kann auch helfen, sich ein wenig zu informieren, zum Beispiel in Büchern oder im Internet. Dort findet man oft viele Tipps, die mehr oder weniger hilfreich sind.',
  '',
  'Am Ende muss jeder selbst herausfinden, was für seine Pflanzen am besten ist. Mit der Zeit bekommt man ein Gefühl dafür, und dann klappt es meistens ganz gut. Wichtig ist vor allem, dass man Freude an seinen Pflanzen hat und sich gern um sie kümmert.',
].join('\n');

const articles = [
  { name: 'how-to', content: howTo, keyword: 'Fahrradkette ölen' },
  { name: 'stuffed product page', content: stuffedProduct, keyword: 'elektrische Kaffeemühle' },
  { name: 'thin page', content: thinPage, keyword: 'Zimmerpflanzen gießen' },
];

/** English function words: none belongs in a German card outside what it quotes. */
const ENGLISH = /\b(?:the|and|with|of|your|this|page|sentence|is|are|in the|not|more|add|use)\b/i;

/** What a card quotes from the article (German „…“, straight "…", «…», and English “…”) is the page's own text. */
const unquoted = (s: string): string =>
  s
    .replace(/„[^“”]*[“”]/gu, ' ')
    .replace(/"[^"]*"/gu, ' ')
    .replace(/«[^»]*»/gu, ' ')
    .replace(/“[^”]*”/gu, ' ');

/** Every text of the result a client reads as the report's own words, with where it is. */
const cardTexts = (r: EngineResult): [string, string][] => [
  ...r.dimensions.flatMap((d): [string, string][] => [
    [`${d.id} name`, d.name],
    [`${d.id} summary`, d.summary],
    ...d.strengths.map((s, i): [string, string] => [`${d.id} strength ${i}`, s]),
    ...d.problems.flatMap((p, i): [string, string][] => [
      [`${d.id} problem ${i} title`, p.title],
      [`${d.id} problem ${i} problem`, p.problem],
      [`${d.id} problem ${i} suggestion`, p.suggestion],
    ]),
  ]),
  ...r.recommendations.flatMap((x): [string, string][] => [
    [`${x.id} title`, x.title],
    [`${x.id} impact`, x.impact],
    [`${x.id} task`, x.task ?? ''],
    [`${x.id} rule`, x.evidence?.rule ?? ''],
  ]),
];

for (const a of articles) {
  t.test(`German ${a.name}: no English in the report's texts`, async (t) => {
    const r = auditContent({
      content: a.content,
      url: null,
      keyword: a.keyword,
      language: 'de',
      format: 'markdown',
      benchmark: null,
    });
    t.equal(r.input.language, 'de');
    // The summary's labels stay English for content that is not Polish (spec 2.3).
    t.equal(r.summary?.profile.label, profileLabel(r.summary!.profile.id, 'en'), 'summary label in English');
    const texts = cardTexts(r).filter(([, s]) => s.trim());
    // Not a vacuous pass: the page has problems and strengths to read.
    t.ok(
      r.dimensions.reduce((n, d) => n + d.problems.length, 0) >= 3,
      `${a.name}: problems to read (${texts.length} texts)`,
    );
    const english = texts.filter(([, s]) => ENGLISH.test(unquoted(s))).map(([where, s]) => `${where}: ${s}`);
    t.same(english, [], `${a.name}: ${english.length} card texts in English`);
  });
}
