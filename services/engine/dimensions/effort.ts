import { evidenceOf } from '../evidence.ts';
import { authorFindings } from './authorTasks.ts';
import { gamingOf } from './gaming.ts';
import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { count, num, t } from '../labels.ts';
import { shinglesOf } from '../text/terms.ts';
import type { Doc } from '../types.ts';
import {
  clamp,
  containsPhrase,
  finding,
  firstParagraph,
  hasValue,
  valueBaseWords,
  writerWords,
  insertChange,
  proseOf,
  removePhrase,
  replaceChange,
  round1,
  sectionName,
  excerpt,
} from './helpers.ts';

/**
 * effort: 10 × (.35 novelty + .2 data + .2 media/examples + .15 length + .1 no clichés).
 * Novelty: share of sentences whose 3-word shingles are mostly (≥50%) absent from the competitors
 * (without competitors: absent from the rest of the page, i.e. not repeated). Data: value
 * sentences per 1,000 words against the competitors' median (else 10). Media/examples: lists,
 * tables, code and images (up to 3), and "for example" markers (up to 2). Length: 0.8–1.5 × the
 * competitors' median (else ≥800 words). Clichés: 3 per 1,000 words empty the last part.
 */

export const scoreEffort = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang, lex, bench } = ctx;
  const findings: Finding[] = [];
  const strengths: string[] = [];
  const g = gamingOf(doc, ctx.kw, ctx.an);
  const prose = proseOf(doc).filter((s) => s.words.length >= 6);
  // Filler is never novel: it counts in the share's base but not as an original sentence.
  const counts_ = (s: (typeof prose)[number]) => !g.filler.has(s) && !g.stuffedSentences.has(s);

  let novel = 0;
  if (bench && bench.comps.length) {
    const self = ctx.selfShingles;
    for (const s of prose) {
      const sh = shinglesOf(s.stems);
      const known = sh.filter((x) => (bench.shingles.get(x) ?? 0) - (self?.has(x) ? 1 : 0) > 0).length;
      if (sh.length && known / sh.length < 0.5 && counts_(s)) novel++;
    }
  } else {
    const counts = new Map<string, number>();
    const per = prose.map((s) => shinglesOf(s.stems));
    for (const sh of per) for (const x of new Set(sh)) counts.set(x, (counts.get(x) ?? 0) + 1);
    per.forEach((sh, i) => {
      if (sh.length && sh.filter((x) => (counts.get(x) ?? 0) > 1).length / sh.length < 0.5 && counts_(prose[i]!))
        novel++;
    });
  }
  const novelty = prose.length ? novel / prose.length : 0;

  const vd = doc.words
    ? (doc.sentences.filter((s) => hasValue(s.text, lex.slot)).length / valueBaseWords(doc, lex.slot)) * 1000
    : 0;
  const data = Math.min(1, vd / (bench && bench.valueDensityMedian > 0 ? bench.valueDensityMedian : 10));

  const mediaCount =
    // A table of contents is the headings again, not material of the page's own.
    doc.blocks.filter(
      (b) => (b.kind === 'list' && !b.navigation) || b.kind === 'table' || b.kind === 'code' || b.kind === 'image',
    ).length + (doc.format === 'html' ? 0 : doc.signals.images.length);
  const lower = doc.text.toLowerCase();
  let examples = 0;
  for (const e of lex.examples) examples += lower.split(e).length - 1;
  // A named quotation or a sourced figure is concrete support too.
  const ev = evidenceOf(doc);
  examples += ev.quotes.size + ev.statistics.size;
  const media = 0.5 * Math.min(1, mediaCount / 3) + 0.5 * Math.min(1, examples / 2);

  let length: number;
  // Length is the writer's informative text: padding is not effort, and support is scored as support.
  const words = writerWords(doc, g);
  if (bench && bench.lengthMedian > 0) {
    const r = words / bench.lengthMedian;
    length = r < 0.8 ? r / 0.8 : r <= 1.5 ? 1 : Math.max(0.5, 1 - (r - 1.5) / 2);
  } else length = Math.min(1, words / 800);

  const clicheSents = doc.sentences.filter((s) => containsPhrase(s.text.toLowerCase(), lex.cliches) !== null);
  const perK = doc.words ? (clicheSents.length / doc.words) * 1000 : 0;
  const noCliche = Math.max(0, 1 - perK / 3);

  const score = clamp(10 * (0.35 * novelty + 0.2 * data + 0.2 * media + 0.15 * length + 0.1 * noCliche));

  for (const s of clicheSents.slice(0, 3)) {
    const phrase = lex.removableCliches.find((c) => s.text.toLowerCase().includes(c));
    const after = phrase ? removePhrase(s.text, phrase) : null;
    findings.push(
      finding({
        kind: 'cliche',
        subject: phrase ?? undefined,
        title: t(lang, 'Cut a cliché', 'Usuń frazes', 'Floskel streichen'),
        problem: t(
          lang,
          `"${excerpt(s.text)}" uses stock phrasing that signals low effort.`,
          `„${excerpt(s.text)}” używa utartego frazesu, który świadczy o małym wkładzie pracy.`,
          `„${excerpt(s.text)}“ verwendet eine abgegriffene Floskel, die auf wenig Aufwand schließen lässt.`,
        ),
        suggestion: t(
          lang,
          'Say it plainly, or delete it.',
          'Napisz to wprost albo usuń.',
          'Sagen Sie es direkt, oder streichen Sie es.',
        ),
        section: sectionName(doc, s.section),
        sectionIndex: s.section,
        actionType: after ? 'replace' : 'remove',
        severity: 0.05,
        change: after ? replaceChange(doc, s.text, after) : null,
      }),
    );
  }
  if (examples === 0) {
    const biggest = [...doc.sections].sort((a, b) => b.words - a.words || a.index - b.index)[0];
    const p = biggest ? firstParagraph(doc, biggest) : null;
    findings.push(
      finding({
        kind: 'example',
        title: t(lang, 'Add a worked example', 'Dodaj przykład z praktyki', 'Ein Beispiel aus der Praxis ergänzen'),
        problem: t(
          lang,
          'The text gives no concrete example, so nothing shows first-hand effort.',
          'Tekst nie podaje żadnego konkretnego przykładu, więc nie widać własnej pracy.',
          'Der Text nennt kein konkretes Beispiel, daher ist keine eigene Arbeit erkennbar.',
        ),
        suggestion: t(
          lang,
          'Add an example from your own practice, with numbers.',
          'Dodaj przykład z własnej praktyki, z liczbami.',
          'Ergänzen Sie ein Beispiel aus Ihrer eigenen Praxis, mit Zahlen.',
        ),
        section: biggest ? sectionName(doc, biggest.index) : '',
        sectionIndex: biggest?.index ?? 0,
        actionType: 'add',
        severity: 0.2,
        change: p ? insertChange(doc, 'after', p.raw, lex.phrases.example) : null,
      }),
    );
  } else
    strengths.push(t(lang, 'Uses concrete examples.', 'Zawiera konkretne przykłady.', 'Enthält konkrete Beispiele.'));
  if (bench && novelty < 0.5)
    findings.push(
      finding({
        title: t(
          lang,
          'Add something competitors do not have',
          'Dodaj coś, czego nie ma u konkurencji',
          'Etwas ergänzen, das die Konkurrenz nicht bietet',
        ),
        problem: t(
          lang,
          `Only ${Math.round(novelty * 100)}% of sentences say something the top results do not.`,
          `Tylko ${Math.round(novelty * 100)}% zdań mówi coś, czego nie ma w czołowych wynikach.`,
          `Nur ${Math.round(novelty * 100)} % der Sätze sagen etwas, das in den Top-Ergebnissen nicht steht.`,
        ),
        suggestion: t(
          lang,
          'Add your own measurements, a table of results or a case study.',
          'Dodaj własne pomiary, tabelę wyników albo studium przypadku.',
          'Ergänzen Sie eigene Messungen, eine Ergebnistabelle oder eine Fallstudie.',
        ),
        section: '',
        sectionIndex: 0,
        actionType: 'add',
        severity: 0.35,
      }),
    );
  if (mediaCount === 0)
    findings.push(
      finding({
        title: t(
          lang,
          'Add your own table, list or image',
          'Dodaj własną tabelę, listę lub zdjęcie',
          'Eigene Tabelle, Liste oder ein eigenes Bild ergänzen',
        ),
        problem: t(lang, 'The page is text only.', 'Strona to sam tekst.', 'Die Seite besteht nur aus Text.'),
        suggestion: t(
          lang,
          'Summarise data in a table or show your own photo.',
          'Zbierz dane w tabeli albo pokaż własne zdjęcie.',
          'Fassen Sie Daten in einer Tabelle zusammen, oder zeigen Sie ein eigenes Foto.',
        ),
        section: '',
        sectionIndex: 0,
        actionType: 'add',
        severity: 0.1,
      }),
    );
  findings.push(...authorFindings(doc, ctx));
  if (novelty >= 0.7)
    strengths.push(
      t(
        lang,
        'Most sentences are original.',
        'Większość zdań jest oryginalna.',
        'Die meisten Sätze sind eigenständig.',
      ),
    );
  if (!clicheSents.length) strengths.push(t(lang, 'No stock phrases.', 'Brak frazesów.', 'Keine Floskeln.'));
  return {
    id: 'effort',
    score: round1(score),
    summary: t(
      lang,
      `Novel sentences ${Math.round(novelty * 100)}%, ${round1(vd)} data points per 1,000 words, ${mediaCount} lists/tables/media, ${count(lang, examples, ['example', 'examples'], ['przykład', 'przykłady', 'przykładów'])}, ${count(lang, clicheSents.length, ['cliché', 'clichés'], ['frazes', 'frazesy', 'frazesów'])}.`,
      `Oryginalne zdania ${Math.round(novelty * 100)}%, ${num('pl', round1(vd))} danych na 1000 słów, listy/tabele/media: ${mediaCount}, ${count('pl', examples, ['example', 'examples'], ['przykład', 'przykłady', 'przykładów'])}, ${count('pl', clicheSents.length, ['cliché', 'clichés'], ['frazes', 'frazesy', 'frazesów'])}.`,
      `Eigenständige Sätze ${Math.round(novelty * 100)} %, ${num('de', round1(vd))} Datenpunkte pro 1000 Wörter, Listen/Tabellen/Medien: ${mediaCount}, ${count('de', examples, ['example', 'examples'], ['przykład', 'przykłady', 'przykładów'], ['Beispiel', 'Beispiele'])}, ${count('de', clicheSents.length, ['cliché', 'clichés'], ['frazes', 'frazesy', 'frazesów'], ['Floskel', 'Floskeln'])}.`,
    ),
    strengths,
    findings,
    cap: null,
  };
};
