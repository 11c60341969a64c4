import { gamingOf } from './gaming.ts';
import { evidenceOf } from '../evidence.ts';
import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { containsAll, coverage, entityStemsOf } from '../keyword.ts';
import { intentFormat, intentLabel, profileLabel, sectionLabels, t } from '../labels.ts';
import { judgeReferent } from '../referent.ts';
import { tokenize } from '../text/segment.ts';
import type { Doc, Intent, ProfileId } from '../types.ts';
import {
  capitalise,
  clamp,
  fill,
  finding,
  firstParagraph,
  firstWords,
  insertChange,
  round1,
  bodySections,
} from './helpers.ts';

/**
 * csiAlignment: does the page serve the keyword's central entity and intent?
 * 10 × (.3 placement + .3 intent match + .25 on-topic headings + .15 predicate); a page that hardly
 * names the entity, or (with a SERP) is about another referent than the SERP's consensus, is capped
 * at 2.9 (and CQS at 40).
 */

const PAGE_INTENT: Record<ProfileId, Intent> = {
  article: 'informational',
  glossary: 'informational',
  news: 'informational',
  'how-to': 'instructional',
  comparison: 'comparison',
  listicle: 'commercial',
  review: 'commercial',
  product: 'transactional',
  category: 'transactional',
  landing: 'transactional',
};

// Neighbouring intents a page can still serve well.
const CLOSE: Record<string, number> = {
  'informational/instructional': 0.7,
  'comparison/commercial': 0.8,
  'commercial/informational': 0.6,
  'comparison/informational': 0.6,
  'commercial/transactional': 0.6,
  'local/transactional': 0.8,
  'commercial/local': 0.6,
  'instructional/local': 0.5,
  'informational/local': 0.5,
};

const intentMatch = (kw: Intent, page: Intent): number => {
  if (kw === page) return 1;
  if (kw === 'navigational') return 0.7;
  return CLOSE[[kw, page].sort().join('/')] ?? 0.2;
};

/** " (this page: X, Y; the results: A, B)": what each is about, when the model knows. */
const about = (own: string[], theirs: string[], lang: 'en' | 'pl' | 'de'): string => {
  if (!own.length || !theirs.length) return '';
  return lang === 'pl'
    ? ` (ta strona: ${own.join(', ')}; wyniki: ${theirs.join(', ')})`
    : lang === 'de'
      ? ` (diese Seite: ${own.join(', ')}; die Ergebnisse: ${theirs.join(', ')})`
      : ` (this page: ${own.join(', ')}; the results: ${theirs.join(', ')})`;
};

/**
 * Most frequent content stems of the body: what the page is about in its own words. Support (a
 * quotation, a cited guideline's title) is the source's wording, so its words do not push the
 * writer's own terms out of the top.
 */
export const topStems = (doc: Doc, n: number): string[] => {
  const freq = new Map<string, number>();
  const support = evidenceOf(doc).sentences;
  for (const s of doc.sentences) {
    if (support.has(s)) continue;
    for (const c of s.content) if (!/^\d/.test(c)) freq.set(c, (freq.get(c) ?? 0) + 1);
  }
  return [...freq.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k]) => k);
};

export const scoreCsiAlignment = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { kw, an, lang, lex } = ctx;
  const ce = entityStemsOf(kw);
  const L = sectionLabels(lang);
  const findings: Finding[] = [];
  const strengths: string[] = [];

  const titleStems = an.contentStems(doc.title);
  const h1Text = doc.h1 || doc.title;
  const h1Stems = an.contentStems(h1Text);
  // A keyphrase-only sentence placed in the intro is not the intro naming its subject.
  const stuffed = gamingOf(doc, kw, ctx.an).stuffedSentences;
  const intro = firstWords(
    doc.sentences.filter((s) => !stuffed.has(s)),
    100,
  );
  const parts: [number, number][] = [];
  const inTitle = containsAll(titleStems, ce);
  const inH1 = containsAll(h1Stems, ce);
  const inIntro = containsAll(intro.stems, ce);
  parts.push([0.25, inTitle ? 1 : 0], [0.35, inH1 ? 1 : 0], [0.25, inIntro ? 1 : 0]);
  // The slug: of the audited URL, else of the page's declared canonical address.
  const slugUrl = doc.url || (/^https?:\/\//i.test(doc.signals.canonical) ? doc.signals.canonical : '');
  if (slugUrl) {
    let path = '';
    try {
      path = decodeURIComponent(new URL(slugUrl).pathname);
    } catch {
      path = '';
    }
    parts.push([0.15, containsAll(tokenize(path.replace(/[-_/]/g, ' ')).map(an.stem), ce) ? 1 : 0]);
  }
  const placement = parts.reduce((a, [w, v]) => a + w * v, 0) / parts.reduce((a, [w]) => a + w, 0);

  const intent = intentMatch(kw.intent, PAGE_INTENT[ctx.profile]);

  // A heading is on the topic when it names the page's main terms or the SERP's: "Megapixels" on a
  // camera-sensor page is the topic though the keyword's own word is not in it.
  const serpTerms = (ctx.bench?.targets ?? []).flatMap((x) => x.key.split(' '));
  const top = new Set([...topStems(doc, 12), ...kw.stems, ...serpTerms]);
  // A conclusion or the page's apparatus ("Sources", "Źródła", "Quellen") need no topic words.
  const heads = bodySections(doc, lex);
  const offTopic = heads.filter((s) => !an.contentStems(s.heading?.text ?? '').some((st) => top.has(st)));
  const onTopic = heads.length ? 1 - offTopic.length / heads.length : doc.words < 300 ? 0.5 : 0;

  let predicate: number;
  if (kw.verbStem) predicate = h1Stems.includes(kw.verbStem) || intro.stems.includes(kw.verbStem) ? 1 : 0;
  else predicate = containsAll(h1Stems, kw.stems) ? 1 : containsAll(intro.stems, kw.stems) ? 0.5 : 0;

  let score = 10 * (0.3 * placement + 0.3 * intent + 0.25 * onTopic + 0.15 * predicate);

  // The keyword's entity barely occurs in the body and is missing from the title and H1: the page
  // answers another query, whatever the SERP says.
  const bodyStems = new Set(doc.sentences.flatMap((s) => s.stems));
  const ceCoverage = coverage(bodyStems, ce);
  // Another referent: the same words naming a different thing, judged against the SERP's consensus
  // (referent.ts); without a SERP the referent is unknown and nothing is guessed.
  const referent = judgeReferent(ctx.bench?.referent ?? null, doc);
  let cap: number | null = null;
  if (ceCoverage < 0.5 || (!inTitle && !inH1 && ceCoverage < 1)) {
    score = Math.min(score, 2.9);
    cap = 40;
    findings.push(
      finding({
        title: t(
          lang,
          'The page is about a different subject',
          'Strona dotyczy innego tematu',
          'Die Seite behandelt ein anderes Thema',
        ),
        problem: t(
          lang,
          `"${kw.entity || kw.text}" hardly appears in the text, title or H1: the page answers a different query.`,
          `„${kw.entity || kw.text}” prawie nie występuje w tekście, tytule ani H1: strona odpowiada na inne zapytanie.`,
          `„${kw.entity || kw.text}“ kommt in Text, Titel und H1 kaum vor: Die Seite beantwortet eine andere Suchanfrage.`,
        ),
        suggestion: t(
          lang,
          'Check the keyword, or rewrite the page around its central entity.',
          'Sprawdź frazę albo przebuduj stronę wokół jej głównej encji.',
          'Prüfen Sie das Keyword, oder bauen Sie die Seite um seine zentrale Entität herum neu auf.',
        ),
        section: L.page,
        sectionIndex: 0,
        actionType: 'restructure',
        severity: 1,
        gate: true,
      }),
    );
  } else if (referent.status === 'other') {
    score = Math.min(score, 2.9);
    cap = 40;
    findings.push(
      finding({
        title: t(
          lang,
          'The page is about another meaning of the keyword',
          'Strona dotyczy innego znaczenia frazy',
          'Die Seite behandelt eine andere Bedeutung des Keywords',
        ),
        problem: t(
          lang,
          `Most ranking pages use "${kw.text}" for a different thing${about(referent.words, ctx.bench?.referent?.consensusWords ?? [], 'en')}: the page's vocabulary shares little with theirs (similarity ${referent.consensus.toFixed(2)}, theirs ${referent.reference.toFixed(2)}).`,
          `Większość stron w wynikach używa frazy „${kw.text}” w innym znaczeniu${about(referent.words, ctx.bench?.referent?.consensusWords ?? [], 'pl')}: słownictwo strony ma z nimi mało wspólnego (podobieństwo ${referent.consensus.toFixed(2)}, między nimi ${referent.reference.toFixed(2)}).`,
          `Die meisten Seiten in den Suchergebnissen verwenden „${kw.text}“ in einer anderen Bedeutung${about(referent.words, ctx.bench?.referent?.consensusWords ?? [], 'de')}: Der Wortschatz der Seite hat wenig mit ihrem gemeinsam (Ähnlichkeit ${referent.consensus.toFixed(2)}, untereinander ${referent.reference.toFixed(2)}).`,
        ),
        suggestion: t(
          lang,
          'Target a keyword that names this subject, or write about what the search results mean by it.',
          'Wybierz frazę, która nazywa ten temat, albo pisz o tym, co oznacza ona w wynikach wyszukiwania.',
          'Wählen Sie ein Keyword, das dieses Thema benennt, oder schreiben Sie über das, was die Suchergebnisse darunter verstehen.',
        ),
        section: L.page,
        sectionIndex: 0,
        actionType: 'restructure',
        severity: 1,
        gate: true,
      }),
    );
  }

  const h1Block = doc.blocks.find((b) => b.kind === 'heading' && b.level === 1);
  const entityCap = capitalise(kw.entity || kw.text);
  if (!inH1) {
    const newH1 = `${entityCap}: ${h1Text}`;
    // An existing H1 is not rewritten by putting the keyword in front of it (that only appends the
    // keyword); a missing H1 is added.
    const change =
      !h1Block && doc.format !== 'html' && doc.blocks[0]
        ? insertChange(
            doc,
            'before',
            doc.blocks[0].raw,
            `# ${doc.title && containsAll(titleStems, ce) ? doc.title : newH1}`,
          )
        : null;
    findings.push(
      finding({
        kind: 'h1',
        title: t(
          lang,
          'Put the central entity in the H1',
          'Umieść główną encję w H1',
          'Die zentrale Entität in die H1 aufnehmen',
        ),
        problem: t(
          lang,
          `The H1 does not name "${kw.entity || kw.text}".`,
          `H1 nie zawiera „${kw.entity || kw.text}”.`,
          `Die H1 nennt „${kw.entity || kw.text}“ nicht.`,
        ),
        suggestion: t(
          lang,
          `Rewrite the H1 so that it names "${entityCap}" as what the page is about.`,
          `Przeredaguj H1 tak, by nazywał „${entityCap}” jako temat strony.`,
          `Formulieren Sie die H1 so um, dass sie „${entityCap}“ als Thema der Seite nennt.`,
        ),
        section: L.title,
        sectionIndex: 0,
        actionType: change?.kind === 'insert' ? 'add' : 'replace',
        severity: 0.35,
        change,
        gate: cap !== null,
      }),
    );
  } else
    strengths.push(
      t(lang, 'The H1 names the central entity.', 'H1 zawiera główną encję.', 'Die H1 nennt die zentrale Entität.'),
    );
  if (!inIntro) {
    const first = doc.sections[0] && firstParagraph(doc, doc.sections[0]);
    const firstSec = first ? doc.sections[0] : doc.sections.find((s) => firstParagraph(doc, s));
    const p = firstSec ? firstParagraph(doc, firstSec) : null;
    const change = p
      ? insertChange(doc, 'before', p.raw, fill(lex.facets.definition.lead, kw.entity || kw.text))
      : null;
    findings.push(
      finding({
        kind: 'entityIntro',
        title: t(
          lang,
          'Name the central entity in the first 100 words',
          'Nazwij główną encję w pierwszych 100 słowach',
          'Die zentrale Entität in den ersten 100 Wörtern nennen',
        ),
        problem: t(
          lang,
          'The opening does not mention the central entity, so the passage does not show what the page is about.',
          'Początek tekstu nie wspomina głównej encji, więc nie widać, czego dotyczy strona.',
          'Der Einstieg erwähnt die zentrale Entität nicht, daher zeigt er nicht, worum es auf der Seite geht.',
        ),
        suggestion: t(
          lang,
          'Open with a one-sentence definition or answer that names it.',
          'Zacznij od jednozdaniowej definicji lub odpowiedzi, która ją nazywa.',
          'Beginnen Sie mit einer Definition oder Antwort in einem Satz, die sie nennt.',
        ),
        section: L.intro,
        sectionIndex: 0,
        actionType: 'add',
        severity: 0.3,
        change,
      }),
    );
  } else
    strengths.push(
      t(
        lang,
        'The first 100 words name the central entity.',
        'Pierwszych 100 słów nazywa główną encję.',
        'Die ersten 100 Wörter nennen die zentrale Entität.',
      ),
    );
  for (const sec of offTopic.slice(0, 3)) {
    const h = sec.heading!;
    findings.push(
      finding({
        title: t(
          lang,
          `Tie the heading "${h.text}" to the topic`,
          `Powiąż nagłówek „${h.text}” z tematem`,
          `Die Überschrift „${h.text}“ mit dem Thema verknüpfen`,
        ),
        problem: t(
          lang,
          'The heading shares no term with the topic, so the section reads as off-topic.',
          'Nagłówek nie ma wspólnego terminu z tematem, więc sekcja wygląda na niezwiązaną.',
          'Die Überschrift hat keinen Begriff mit dem Thema gemeinsam, daher wirkt der Abschnitt themenfremd.',
        ),
        // No automatic rename: appending the keyword to a heading ("What you need: <keyword>") is
        // stuffing, not a fix; only the writer knows how the section relates to the topic.
        suggestion: t(
          lang,
          `Rename it so that it says what the section tells about ${kw.entity || kw.text}.`,
          `Zmień go tak, by mówił, co sekcja mówi o temacie „${kw.entity || kw.text}”.`,
          `Benennen Sie sie so um, dass sie sagt, was der Abschnitt über „${kw.entity || kw.text}“ aussagt.`,
        ),
        section: h.text,
        sectionIndex: sec.index,
        actionType: 'replace',
        severity: 0.25 / Math.max(1, heads.length),
      }),
    );
  }
  if (intent < 0.6) {
    findings.push(
      finding({
        title: t(
          lang,
          'Match the page type to the search intent',
          'Dopasuj typ strony do intencji wyszukiwania',
          'Den Seitentyp an die Suchintention anpassen',
        ),
        problem: t(
          lang,
          `The keyword's search intent is "${intentLabel(kw.intent, lang)}", but the page's type is "${profileLabel(ctx.profile, lang)}".`,
          `Fraza ma intencję „${intentLabel(kw.intent, lang)}”, a strona wygląda na typ „${profileLabel(ctx.profile, lang)}”.`,
          `Das Keyword hat die Suchintention „${intentLabel(kw.intent, lang)}“, die Seite ist aber vom Typ „${profileLabel(ctx.profile, lang)}“.`,
        ),
        // The format this intent is answered by: a fixed example ("a guide instead of a product
        // list") told a local page to become a guide.
        suggestion: t(
          lang,
          `Make it ${intentFormat(kw.intent, lang)}, or target a keyword whose searchers want this format.`,
          `Przebuduj ją na: ${intentFormat(kw.intent, lang)}, albo wybierz frazę, której szukający chcą tego formatu.`,
          `Machen Sie daraus ${intentFormat(kw.intent, lang)}, oder wählen Sie ein Keyword, dessen Suchende dieses Format wollen.`,
        ),
        section: L.page,
        sectionIndex: 0,
        actionType: 'restructure',
        severity: 0.3,
      }),
    );
  } else
    strengths.push(
      t(
        lang,
        'The page type matches the search intent.',
        'Typ strony pasuje do intencji wyszukiwania.',
        'Der Seitentyp passt zur Suchintention.',
      ),
    );
  if (heads.length && !offTopic.length)
    strengths.push(
      t(
        lang,
        'Every subheading stays on topic.',
        'Wszystkie śródtytuły trzymają się tematu.',
        'Alle Zwischenüberschriften bleiben beim Thema.',
      ),
    );

  const final = round1(clamp(score));
  return {
    id: 'csiAlignment',
    score: final,
    summary: t(
      lang,
      `Entity placement ${Math.round(placement * 100)}%, intent match ${Math.round(intent * 100)}%, on-topic headings ${Math.round(onTopic * 100)}%; referent ${referent.status === 'unknown' ? 'unknown (no SERP to compare with)' : referent.status === 'same' ? 'as in the SERP' : 'different from the SERP'}.`,
      `Umiejscowienie encji ${Math.round(placement * 100)}%, zgodność intencji ${Math.round(intent * 100)}%, nagłówki na temat ${Math.round(onTopic * 100)}%; znaczenie frazy ${referent.status === 'unknown' ? 'nieznane (brak wyników wyszukiwania do porównania)' : referent.status === 'same' ? 'zgodne z wynikami wyszukiwania' : 'inne niż w wynikach wyszukiwania'}.`,
      `Platzierung der Entität ${Math.round(placement * 100)} %, Übereinstimmung mit der Suchintention ${Math.round(intent * 100)} %, Überschriften zum Thema ${Math.round(onTopic * 100)} %; Bedeutung des Keywords ${referent.status === 'unknown' ? 'unbekannt (keine Suchergebnisse zum Vergleich)' : referent.status === 'same' ? 'wie in den Suchergebnissen' : 'anders als in den Suchergebnissen'}.`,
    ),
    strengths,
    findings,
    cap,
  };
};
