import { evidenceOf } from '../evidence.ts';
import { creditless, gamingOf } from './gaming.ts';
import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { count, t } from '../labels.ts';
import { termTable } from '../text/terms.ts';
import type { Doc } from '../types.ts';
import { entityStemsOf, queryStems } from '../keyword.ts';
import {
  capitalise,
  clamp,
  finding,
  insertChange,
  newSectionPlace,
  round1,
  sectionName,
  termSentences,
  writerWords,
} from './helpers.ts';

/**
 * tfidf: topical terms. With competitors: the top-50 stemmed 1–2-grams that ≥40% of them use,
 * weighted by df/N × mean tf-idf; each earns min(1, uses per 1,000 words ÷ the competitors' P25);
 * −1 per term used above the competitors' P90 (max −3). Without competitors (low confidence):
 * half for the keyword's terms at ≥2 per 1,000 words (plus PAA/related terms at ≥1; none above 25,
 * which is stuffing), half for the share of sections that mention the central entity (at least one
 * section per 300 words counted, so a wall of text does not pass as one on-topic section).
 */

/** A keyword term used more than this per 1,000 words (2.5% of all words) is stuffed. */
const STUFFED_PER_1000 = 25;
/** A term counts as over-used above P90 × this. */
const OVER_MARGIN = 1.25;

/** Terms as the pages write them, the first few: a problem that counts terms names them too. */
const named = (terms: { surface: string }[]): string =>
  terms
    .slice(0, 5)
    .map((x) => x.surface)
    .join(', ');

export const scoreTfidf = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang, an, kw, bench } = ctx;
  const findings: Finding[] = [];
  const strengths: string[] = [];
  // Terms and rates of the informative text: generic filler neither covers a term nor dilutes an
  // over-used one; a stuffed sentence covers nothing.
  const g = gamingOf(doc, kw, an);
  // Support (quoted speech, a sourced figure, a citation) is judged as evidence, not as the
  // writer's vocabulary: it neither covers a term nor dilutes one.
  const quotes = evidenceOf(doc).sentences;
  // A paragraph that says nothing specific earns no term, even when its words are the SERP's.
  const kept = termSentences(doc, g);
  const table = termTable(kept.length < doc.sentences.length ? { ...doc, sentences: kept } : doc, an, false);
  const unspecificWords = [...creditless(g)].reduce(
    (a, s) => a + (g.filler.has(s) || g.stuffedSentences.has(s) || quotes.has(s) ? 0 : s.words.length),
    0,
  );
  const words = Math.max(1, writerWords(doc, g) - unspecificWords);
  const per1000 = (key: string) => ((table.counts.get(key) ?? 0) / words) * 1000;
  let score: number;
  let summary: string;
  // A word is the query's (its intent words too) when, with the query's stems taken out, an ending
  // at most is left, or when the stemmer cut it shorter than the query's ("baterie" of "baterię",
  // "Schimmelarten" of "Schimmel Arten"); "Sattelstütze" is a part, a term of its own.
  const own = queryStems(kw, an).filter((q) => q.length >= 3);
  const ownWord = (w: string) =>
    own.reduce((rest, q) => rest.split(q).join(''), w).length <= 3 ||
    own.some((q) => w.length >= 4 && q.startsWith(w) && q.length - w.length <= 3);
  const queryOwn = (key: string) => key.split(' ').every(ownWord);
  if (bench && bench.targets.length) {
    let got = 0;
    let total = 0;
    const overused: typeof bench.targets = [];
    const missing: typeof bench.targets = [];
    for (const term of bench.targets) {
      const rate = per1000(term.key);
      // How often the query's own words are said is density's to judge: here they are used or not.
      // Credited by their rate, saying the keyword again raised the vocabulary score (stuffing paid).
      const used = queryOwn(term.key) ? (rate > 0 ? 1 : 0) : rate / Math.max(term.p25, 0.01);
      got += term.weight * Math.min(1, used);
      total += term.weight;
      // Over-use is clearly above the SERP's heaviest use, not one use past it.
      if (rate > term.p90 * OVER_MARGIN && rate >= 3) overused.push(term);
      if (rate === 0) missing.push(term);
    }
    const over = overused.length;
    const coverage = total ? got / total : 0;
    score = clamp(10 * coverage - Math.min(3, over));
    summary = t(
      lang,
      `${bench.targets.length - missing.length} of ${bench.targets.length} competitor terms used; coverage ${Math.round(coverage * 100)}%.`,
      `Użyto ${bench.targets.length - missing.length} z ${bench.targets.length} terminów konkurencji; pokrycie ${Math.round(coverage * 100)}%.`,
      `Verwendet: ${bench.targets.length - missing.length} von ${bench.targets.length} Begriffen der Konkurrenz; Abdeckung ${Math.round(coverage * 100)} %.`,
    );
    const unmet = missing.filter((x) => !queryOwn(x.key));
    if (unmet.length) {
      const top = unmet.slice(0, 3);
      const place = newSectionPlace(doc, ctx);
      const entity = kw.entity || kw.text;
      const body = t(
        lang,
        `${capitalise(entity)} and ${top.map((x) => x.surface).join(', ')}: ${ctx.lex.slot} how they relate, with one concrete value each].`,
        `${capitalise(entity)} a ${top.map((x) => x.surface).join(', ')}: ${ctx.lex.slot} jak się łączą, z jedną konkretną wartością dla każdego].`,
        `${capitalise(entity)} und ${top.map((x) => x.surface).join(', ')}: ${ctx.lex.slot} wie sie zusammenhängen, mit je einem konkreten Wert].`,
      );
      findings.push(
        finding({
          kind: 'terms',
          title: t(
            lang,
            `Cover missing terms: ${top.map((x) => x.surface).join(', ')}`,
            `Uwzględnij brakujące terminy: ${top.map((x) => x.surface).join(', ')}`,
            `Fehlende Begriffe aufnehmen: ${top.map((x) => x.surface).join(', ')}`,
          ),
          problem: t(
            lang,
            `${count(lang, unmet.length, ['term most competitors use does', 'terms most competitors use do'], ['', '', ''])} not appear, e.g. ${unmet
              .slice(0, 6)
              .map((x) => x.surface)
              .join(', ')}.`,
            `Brakuje ${count('pl', unmet.length, ['', ''], ['terminu używanego', 'terminów używanych', 'terminów używanych'])} przez większość konkurencji, np. ${unmet
              .slice(0, 6)
              .map((x) => x.surface)
              .join(', ')}.`,
            `${count('de', unmet.length, ['', ''], ['', '', ''], ['Begriff, den die meisten Konkurrenzseiten verwenden, fehlt', 'Begriffe, die die meisten Konkurrenzseiten verwenden, fehlen'])}, z. B. ${unmet
              .slice(0, 6)
              .map((x) => x.surface)
              .join(', ')}.`,
          ),
          suggestion: t(
            lang,
            'Add a section that explains them in relation to the topic.',
            'Dodaj sekcję, która wyjaśnia je w odniesieniu do tematu.',
            'Ergänzen Sie einen Abschnitt, der sie in Bezug auf das Thema erklärt.',
          ),
          section: sectionName(doc, Math.min(place.sectionIndex, doc.sections.length - 1)),
          sectionIndex: place.sectionIndex,
          actionType: 'add',
          severity: 0.5,
          change: insertChange(
            doc,
            place.placement,
            place.anchor,
            `## ${capitalise(top[0]?.surface ?? entity)}\n\n${body}`,
          ),
          competitors: bench.comps.map((c, i) => (top.some((x) => c.terms.has(x.key)) ? i : -1)).filter((i) => i >= 0),
        }),
      );
    } else if (!missing.length)
      strengths.push(
        t(
          lang,
          'Uses every term the competitors agree on.',
          'Używa wszystkich terminów, co do których konkurencja jest zgodna.',
          'Verwendet alle Begriffe, bei denen sich die Konkurrenz einig ist.',
        ),
      );
    if (over)
      findings.push(
        finding({
          title: t(
            lang,
            'Tone down over-used terms',
            'Ogranicz nadużywane terminy',
            'Übermäßig verwendete Begriffe reduzieren',
          ),
          problem: t(
            lang,
            `${count(lang, over, ['term appears', 'terms appear'], ['', '', ''])} more often than on 90% of competing pages: ${named(overused)}.`,
            `${count('pl', over, ['', ''], ['termin występuje', 'terminy występują', 'terminów występuje'])} częściej niż na 90% stron konkurencji: ${named(overused)}.`,
            `${count('de', over, ['', ''], ['', '', ''], ['Begriff kommt', 'Begriffe kommen'])} häufiger vor als auf 90 % der Konkurrenzseiten: ${named(overused)}.`,
          ),
          suggestion: t(lang, 'Vary the wording.', 'Zróżnicuj słownictwo.', 'Variieren Sie die Wortwahl.'),
          section: '',
          sectionIndex: 0,
          actionType: 'replace',
          severity: 0.1,
        }),
      );
  } else {
    const extra = [...(bench?.paa ?? []), ...(bench?.related ?? [])].flatMap((q) => an.contentStems(q));
    const targets = [
      ...kw.stems.map((k) => ({ key: k, w: 2, need: 2 })),
      ...[...new Set(extra)].filter((k) => !kw.stems.includes(k)).map((k) => ({ key: k, w: 1, need: 1 })),
    ];
    // Repetition is not coverage: a term over STUFFED_PER_1000 earns nothing.
    const credit = (key: string, need: number) =>
      per1000(key) > STUFFED_PER_1000 ? 0 : Math.min(1, per1000(key) / need);
    const termCov = targets.length
      ? targets.reduce((a, x) => a + x.w * credit(x.key, x.need), 0) / targets.reduce((a, x) => a + x.w, 0)
      : 0;
    const ce = entityStemsOf(kw);
    // A section is long enough to judge by its writer's own words: a quotation or a sourced figure
    // added to a short section does not make it an off-entity section.
    const support = (i: number) =>
      (doc.bySection[i] ?? []).reduce((a, x) => a + (quotes.has(x) ? x.words.length : 0), 0);
    const secs = doc.sections.filter((s) => s.words - support(s.index) >= 40);
    const mentioning = secs.filter((s) =>
      (doc.bySection[s.index] ?? []).some((x) => x.stems.some((st) => ce.includes(st))),
    );
    // A wall of text is one passage where about one per 300 words is expected: it cannot show that the
    // entity runs through the page. Support (a quotation, a sourced figure) does not count towards
    // it; filler does, or padding would turn a wall of text into one well-aimed section.
    const supportWords = doc.sections.reduce((a, x) => a + support(x.index), 0);
    const secCov = secs.length
      ? mentioning.length / Math.max(secs.length, Math.ceil((doc.words - supportWords) / 300))
      : 0;
    score = clamp(10 * (0.5 * termCov + 0.5 * secCov));
    // A SERP whose informative results agree on no term is as good as none, and says so.
    const why = bench
      ? t(
          lang,
          'Too few competitors agree on terms',
          'Za mało konkurentów zgodnych co do terminów',
          'Zu wenige Konkurrenzseiten stimmen bei den Begriffen überein',
        )
      : t(lang, 'No SERP benchmark', 'Brak benchmarku SERP', 'Kein SERP-Benchmark');
    summary = t(
      lang,
      `${why} (low confidence): keyword terms ${Math.round(termCov * 100)}%, sections on the entity ${Math.round(secCov * 100)}%.`,
      `${why} (niska pewność): terminy frazy ${Math.round(termCov * 100)}%, sekcje o encji ${Math.round(secCov * 100)}%.`,
      `${why} (geringe Aussagekraft): Begriffe des Keywords ${Math.round(termCov * 100)} %, Abschnitte zur Entität ${Math.round(secCov * 100)} %.`,
    );
    const off = secs.filter((s) => !mentioning.includes(s));
    if (off.length)
      findings.push(
        finding({
          title: t(
            lang,
            'Tie every section to the central entity',
            'Powiąż każdą sekcję z główną encją',
            'Jeden Abschnitt mit der zentralen Entität verknüpfen',
          ),
          problem: t(
            lang,
            `${count(lang, off.length, ['section never mentions', 'sections never mention'], ['', '', ''])} "${kw.entity || kw.text}".`,
            `${count('pl', off.length, ['', ''], ['sekcja ani razu nie wspomina', 'sekcje ani razu nie wspominają', 'sekcji ani razu nie wspomina'])} „${kw.entity || kw.text}”.`,
            `${count('de', off.length, ['', ''], ['', '', ''], ['Abschnitt erwähnt', 'Abschnitte erwähnen'])} „${kw.entity || kw.text}“ kein einziges Mal.`,
          ),
          suggestion: t(
            lang,
            'Name the entity where each of them applies it.',
            'Nazwij encję tam, gdzie sekcja się do niej odnosi.',
            'Nennen Sie die Entität dort, wo sich der Abschnitt auf sie bezieht.',
          ),
          section: sectionName(doc, off[0]!.index),
          sectionIndex: off[0]!.index,
          actionType: 'replace',
          severity: 0.2,
        }),
      );
    if (secCov === 1 && secs.length > 1)
      strengths.push(
        t(
          lang,
          'Every section stays on the central entity.',
          'Każda sekcja dotyczy głównej encji.',
          'Jeder Abschnitt bleibt bei der zentralen Entität.',
        ),
      );
  }
  return { id: 'tfidf', score: round1(score), summary, strengths, findings, cap: null };
};
