import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { coverage, entityStemsOf } from '../keyword.ts';
import { keywordCase, surfaceCase, t } from '../labels.ts';
import { FACET_IDS, type FacetId } from '../text/lexicon.ts';
import type { Doc } from '../types.ts';
import { reportsEvent } from '../newsSignals.ts';
import {
  clamp,
  fill,
  finding,
  insertChange,
  newSectionPlace,
  placeLabel,
  questionSectionPlace,
  round1,
} from './helpers.ts';
import type { Lead } from '../benchStats.ts';

/**
 * queryFanout: the sub-queries an answer engine would also run. PAA questions weigh 1, related
 * searches 0.7, and the central entity × eight templates (definition, types, cost, how-to, vs,
 * pros/cons, mistakes, for whom) 0.5 each, of which five count as full coverage. A query is covered
 * when a section's heading plus its first two sentences hold ≥60% of its stemmed terms; a template
 * when a heading (or a lead next to the entity) carries one of its marker words.
 */

export const leadsOf = (doc: Doc, ctx: ScoringContext): Lead[] =>
  doc.sections.map((sec) => {
    const sents = (doc.bySection[sec.index] ?? []).slice(0, 2);
    const headingText = sec.heading ? sec.heading.text : doc.h1 || doc.title;
    const hw = headingText.toLowerCase().match(/[\p{L}\p{N}$€£]+/gu) ?? [];
    const stems = new Set<string>([...ctx.an.contentStems(headingText), ...sents.flatMap((s) => s.stems)]);
    return {
      index: sec.index,
      stems,
      words: new Set([...hw, ...sents.flatMap((s) => s.words)]),
      headingWords: new Set(hw),
    };
  });

export const queryCovered = (leads: Lead[], q: string[]): number => leads.findIndex((l) => coverage(l.stems, q) >= 0.6);

export const facetCovered = (leads: Lead[], facet: FacetId, ctx: ScoringContext, doc: Doc): boolean => {
  const ce = entityStemsOf(ctx.kw);
  const markers = ctx.lex.facets[facet].markers;
  if (facet === 'definition') {
    const first = doc.sentences.slice(0, 3);
    if (
      first.some(
        (s) =>
          coverage(s.stems.slice(0, 8), ce) >= 0.5 && s.words.slice(0, 10).some((w) => ctx.lex.answerVerbs.includes(w)),
      )
    )
      return true;
  }
  return leads.some(
    (l) =>
      markers.some((m) => l.headingWords.has(m)) ||
      (l.index > 0 && coverage(l.stems, ce) >= 0.5 && markers.some((m) => m.length > 3 && l.words.has(m))),
  );
};

export const scoreQueryFanout = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang, lex, kw, bench, an } = ctx;
  const findings: Finding[] = [];
  const strengths: string[] = [];
  const leads = leadsOf(doc, ctx);
  const queries = [
    ...(bench?.paa ?? []).map((q) => ({ q, w: 1, kind: 'paa' as const })),
    ...(bench?.related ?? []).map((q) => ({ q, w: 0.7, kind: 'related' as const })),
  ]
    .map((x) => ({ ...x, stems: [...new Set(an.contentStems(x.q))] }))
    .filter((x) => x.stems.length);
  let got = 0;
  let total = 0;
  const missing: typeof queries = [];
  for (const x of queries) {
    total += x.w;
    if (queryCovered(leads, x.stems) >= 0) got += x.w;
    else missing.push(x);
  }
  // Written as the page writes it (German nouns capitalised: "Mutter", not "mutter").
  const entity = surfaceCase(keywordCase(kw.entity || kw.text, kw.text), doc.content);
  const facets = FACET_IDS.map((f) => ({ f, covered: facetCovered(leads, f, ctx, doc) }));
  const coveredFacets = facets.filter((x) => x.covered).length;
  got += 0.5 * Math.min(5, coveredFacets);
  total += 2.5;
  const score = clamp((10 * got) / total);

  const place = newSectionPlace(doc, ctx);
  // A news item reports one event: an evergreen question under a new heading is another article
  // (every blind review rejected them as wrong subject). The gap stays a listed problem.
  // News is read from general signals too (a date at the top, reporting verbs, a past-tense
  // opening): a dated report the profile reads as a review or an article is news all the same.
  // And a query whose results report an event asks for news, whatever this page reads as.
  const asSection = ctx.profile !== 'news' && !reportsEvent(doc) && !ctx.bench?.reportsNews;
  for (const x of missing.filter((m) => m.kind === 'paa').slice(0, 3)) {
    const heading = x.q.trim().replace(/\s*\?*$/, '?');
    const place = questionSectionPlace(doc, ctx, x.stems);
    const placeName = placeLabel(doc, place);
    findings.push(
      finding({
        kind: 'paa',
        subject: x.q,
        title: t(lang, `Answer "${heading}"`, `Odpowiedz na pytanie „${heading}”`, `Frage beantworten: „${heading}“`),
        problem: t(
          lang,
          'Searchers ask this (People Also Ask) and the page does not answer it.',
          'Użytkownicy o to pytają (People Also Ask), a strona nie odpowiada.',
          'Nutzer fragen danach (People Also Ask), und die Seite beantwortet es nicht.',
        ),
        suggestion: t(
          lang,
          'Add a question subheading with a 40–60-word answer that starts with the answer.',
          'Dodaj śródtytuł-pytanie i 40–60 słów odpowiedzi zaczynającej się od sedna.',
          'Ergänzen Sie eine Zwischenüberschrift als Frage und 40–60 Wörter Antwort, die mit der Antwort beginnt.',
        ),
        section: placeName,
        sectionIndex: place.sectionIndex,
        actionType: 'add',
        severity: 1 / Math.max(1, total),
        change: !asSection
          ? null
          : insertChange(
              doc,
              place.placement,
              place.anchor,
              `## ${heading}\n\n${lex.slot} ${t(lang, 'the answer in the first sentence, then 40–60 words of detail with one value', 'odpowiedź w pierwszym zdaniu, potem 40–60 słów szczegółów z jedną wartością', 'die Antwort im ersten Satz, dann 40–60 Wörter Details mit einem Wert')}].`,
            ),
        competitors: bench
          ? bench.comps.map((c, i) => (queryCovered(c.leads, x.stems) >= 0 ? i : -1)).filter((i) => i >= 0)
          : [],
      }),
    );
  }
  // A sub-topic template is a problem only where competitors show it: from the keyword alone it is a guess.
  // Not where the keyword itself names the sub-topic ("Schimmel Arten: Arten", "Rodzaje kluczy:
  // rodzaje"), nor in German, whose sub-topic markers are still the English words (every German
  // facet reads as missing, so listing one says nothing about the page).
  const kwWords = new Set(kw.text.toLowerCase().split(/\s+/));
  const named = (f: FacetId) => lex.facets[f].markers.some((m) => kwWords.has(m));
  // Shown means by two results or more, as a recommendation needs (grounding.ts): "How much does
  // a token cost?" from the template alone is the wrong subject a client reads first.
  const shownBy = (f: FacetId) =>
    bench ? bench.comps.map((c, i) => (facetCovered(c.leads, f, ctx, c.doc) ? i : -1)).filter((i) => i >= 0) : [];
  if (coveredFacets < 5 && bench && lang !== 'de') {
    for (const { f, by } of facets
      .filter((x) => !x.covered && !named(x.f))
      .map((x) => ({ f: x.f, by: shownBy(x.f) }))
      .filter((x) => x.by.length >= 2)
      .slice(0, 5 - coveredFacets)
      .slice(0, 3)) {
      const facet = lex.facets[f];
      const heading = fill(facet.heading, entity);
      findings.push(
        finding({
          kind: 'facet',
          subject: f,
          title: t(
            lang,
            `Cover the sub-query "${heading}"`,
            `Uwzględnij zapytanie poboczne „${heading}”`,
            `Unterthema ergänzen: „${heading}“`,
          ),
          problem: t(
            lang,
            `The page does not cover "${heading}", a sub-query AI answers fan out to.`,
            `Strona pomija wątek „${heading}”, o który dopytują odpowiedzi AI.`,
            `Die Seite behandelt „${heading}“ nicht, eine Teilfrage, zu der KI-Antworten auffächern.`,
          ),
          suggestion: t(
            lang,
            'Add a short section that answers it first, then explains.',
            'Dodaj krótką sekcję: najpierw odpowiedź, potem wyjaśnienie.',
            'Ergänzen Sie einen kurzen Abschnitt: zuerst die Antwort, dann die Erklärung.',
          ),
          section: placeLabel(doc, place),
          sectionIndex: place.sectionIndex,
          actionType: 'add',
          severity: 0.5 / total,
          change: insertChange(doc, place.placement, place.anchor, `## ${heading}\n\n${fill(facet.lead, entity)}`),
          competitors: by,
        }),
      );
    }
  }
  if (queries.length && !missing.length)
    strengths.push(
      t(
        lang,
        'Answers every People Also Ask question and related search.',
        'Odpowiada na wszystkie pytania PAA i powiązane wyszukiwania.',
        'Beantwortet jede People-Also-Ask-Frage und verwandte Suche.',
      ),
    );
  if (coveredFacets >= 5)
    strengths.push(
      t(
        lang,
        `Covers ${coveredFacets} of 8 typical sub-queries.`,
        `Pokrywa ${coveredFacets} z 8 typowych zapytań pobocznych.`,
        `Deckt ${coveredFacets} von 8 typischen Teilfragen ab.`,
      ),
    );
  return {
    id: 'queryFanout',
    score: round1(score),
    summary: t(
      lang,
      `${queries.length - missing.length} of ${queries.length} PAA/related queries and ${coveredFacets} of 8 sub-query templates covered.`,
      `Pokryte: ${queries.length - missing.length} z ${queries.length} pytań PAA/powiązanych i ${coveredFacets} z 8 szablonów zapytań.`,
      `Abgedeckt: ${queries.length - missing.length} von ${queries.length} PAA-/verwandten Fragen und ${coveredFacets} von 8 Teilfragen-Vorlagen.`,
    ),
    strengths,
    findings,
    cap: null,
  };
};
