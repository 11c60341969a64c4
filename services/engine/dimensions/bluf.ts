import { isBylineOrDate } from '../text/frontMatter.ts';
import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { coverage, entityStemsOf, namesEntity } from '../keyword.ts';
import { gamingOf, idleSentences } from './gaming.ts';
import { num, sectionLabels, t } from '../labels.ts';
import { tokenize } from '../text/segment.ts';
import type { Doc, Section, Sentence } from '../types.ts';
import {
  clamp,
  containsPhrase,
  finding,
  firstWords,
  hasValue,
  insertChange,
  replaceChange,
  round1,
  unique,
  overSubsections,
  bodySections,
} from './helpers.ts';

/**
 * bluf: bottom line up front. Intro (4 points): the first 60 words name the central entity, use an
 * answer verb (is/costs/jest/kosztuje), give a value, and carry no throat-clearing. Sections (6
 * points × share): each section under a subheading opens with a list or table, or with a sentence of
 * at most 25 words, neither a question nor hedged nor throat-clearing, that picks up a heading term
 * or states a value or what something is/does. A text over 300 words without subheadings gets no
 * section points.
 */

/**
 * A long sentence up to its first colon, semicolon or dash: a dense answer often goes on to its
 * evidence ("The X is the best pick for Y: after 400 m its nib …"), and the answer is what opens.
 */
const leadClause = (s: Sentence): Pick<Sentence, 'text' | 'words' | 'stems'> => {
  const cut = /\s*(?:[:;]|\s[–—-])\s/u.exec(s.text);
  if (!cut) return s;
  const text = s.text.slice(0, cut.index);
  const n = tokenize(text).length;
  return n >= 3 ? { text, words: s.words.slice(0, n), stems: s.stems.slice(0, n) } : s;
};

const answerFirst = (sec: Section, sentences: Sentence[], ctx: ScoringContext): boolean => {
  // A section that opens with a list or a table gives its answer as structure.
  const firstBlock = sec.blocks.find((b) => b.kind !== 'heading' && b.kind !== 'image');
  if (firstBlock && (firstBlock.kind === 'list' || firstBlock.kind === 'table')) return true;
  const sentence = sentences.find((s) => s.kind === 'prose') ?? sentences[0];
  if (!sentence || /\?\s*$/.test(sentence.text)) return false;
  const first = sentence.words.length > 25 ? leadClause(sentence) : sentence;
  if (first.words.length > 25) return false;
  const lower = first.text.toLowerCase();
  if (containsPhrase(lower, ctx.lex.throatClearing) || containsPhrase(lower, ctx.lex.hedges)) return false;
  const hs = ctx.an.contentStems(sec.heading?.text ?? '');
  if (!hs.length) return true;
  // A short, unhedged statement that picks up the heading, or states a value or what something is/does.
  const cov = coverage(first.stems, hs);
  return cov > 0 || hasValue(first.text, ctx.lex.slot) || first.words.some((w) => ctx.lex.answerVerbs.includes(w));
};

/** A statement this long (ended as a sentence) opens the article; a byline or a label line does not. */
const OPENING_WORDS = 4;
/** An opening statement names its subject within this many words, or it leads up to it. */
const OPENING_LEAD_WORDS = 15;

/** Above this many words a text without subheadings is a wall of text (Yoast: 300 words per section). */
const WALL_WORDS = 300;

/** Reorders a paragraph's raw text: the sentence `move` first, `drop` removed, when all are verbatim. */
const reorder = (raw: string, sentences: Sentence[], move: number, drop: Set<number>): string | null => {
  if (sentences.some((s) => !raw.includes(s.text))) return null;
  const first = sentences[0];
  const last = sentences[sentences.length - 1];
  if (!first || !last) return null;
  const start = raw.indexOf(first.text);
  const end = raw.lastIndexOf(last.text) + last.text.length;
  const kept = sentences
    .map((s, i) => ({ s, i }))
    .filter(({ i }) => !drop.has(i) && i !== move)
    .map(({ s }) => s.text);
  const moved = sentences[move];
  const body = [moved?.text ?? '', ...kept].filter(Boolean).join(' ');
  return raw.slice(0, start) + body + raw.slice(end);
};

/**
 * The opening asks the reader's own question back ("Which kinds are there?") and the next sentence
 * talks about the question ("That is not easy to answer") instead of answering it: a warm-up with
 * no stock phrase (blind review r11: such openings went unnoticed). The answer belongs in that next
 * sentence: its words up to the one that names the question, as written ("This is a question"), or null.
 */
const askedBack = (intro: Sentence[], ctx: ScoringContext): string | null => {
  let words = 0;
  for (const [i, s] of intro.entries()) {
    if (words >= 60) return null;
    words += s.words.length;
    if (!/\?\s*$/u.test(s.text) || coverage(s.stems, ctx.kw.stems) < 0.5) continue;
    const next = intro[i + 1];
    if (!next || !ctx.lex.pronounOpeners.includes(next.words[0] ?? '')) return null;
    const talk = next.words.find((w) => ctx.lex.questionTalk.includes(w));
    const end = talk ? new RegExp(`(?<!\\p{L})${talk}(?!\\p{L})`, 'iu').exec(next.text) : null;
    return end ? next.text.slice(0, end.index + end[0].length) : null;
  }
  return null;
};

export const scoreBluf = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang, lex, kw } = ctx;
  const L = sectionLabels(lang);
  const findings: Finding[] = [];
  const strengths: string[] = [];
  const ce = entityStemsOf(kw);

  // The opening is the text: a byline or a date line above it is about the article (its date is
  // no value the intro gives).
  const introSentences = (doc.bySection[0]?.length ? doc.bySection[0] : doc.sentences).filter(
    (s) => !isBylineOrDate(doc.sections[s.section]?.blocks[s.block]?.text ?? ''),
  );
  const win = firstWords(introSentences, 60);
  const lowerWin = win.text.toLowerCase();
  // German names the thing in a compound ("Fahrradkette" is a "Kette"): its last part is the head.
  const namesCe = (stems: string[]) => namesEntity(stems, ce, lang);
  const hasCe = namesCe(win.stems);
  const hasVerb = win.words.some((w) => lex.answerVerbs.includes(w));
  // A number of the keyword itself ("zmiana czasu 2025") is not a value the intro gives.
  const kwNumbers = new Set(tokenize(kw.text.toLowerCase()).filter((w) => /\p{N}/u.test(w)));
  const hasNum = win.words.some((w) => /\p{N}/u.test(w) && !kwNumbers.has(w)) || win.text.includes(lex.slot);
  // An opening whose first statement (not a byline or a label line) does not name the subject,
  // with no figure in its first 60 words, talks around it, stock phrase or not (the subject named
  // only later, "… and so the saddle matters", too): that statement stands where the answer belongs.
  const first = introSentences.find(
    (s) => s.kind === 'prose' && s.words.length >= OPENING_WORDS && /[.!?]\s*$/u.test(s.text),
  );
  // A first statement that asserts a sweeping superlative ("Trees are one of the most beautiful
  // things") warms up where no figure follows; with one ("… one of the most common diseases: 9 in
  // 10 adults") it frames the answer.
  const superlative = hasNum || !first ? null : (lex.superlativeWarmUp.exec(first.text.toLowerCase())?.[0] ?? null);
  const fluff = containsPhrase(lowerWin, lex.throatClearing) ?? askedBack(introSentences, ctx) ?? superlative;
  // Named only after a long lead ("Heating has been relied on for centuries, … which is why people
  // wonder whether to bleed a radiator") is named too late: the lead is the warm-up.
  const namedEarly = (x: Sentence) => namesCe(x.stems.slice(0, OPENING_LEAD_WORDS));
  const opening = !fluff && !hasNum && first && !namedEarly(first) ? first : undefined;
  const intro = Number(hasCe) + Number(hasVerb) + Number(hasNum) + Number(!fluff);

  // Sections that answer a heading: the page's own (bodySections), not a heading over subsections only.
  const secs = bodySections(doc, lex).filter((s) => !overSubsections(doc, s));
  const passing = secs.filter((s) => answerFirst(s, doc.bySection[s.index] ?? [], ctx));
  // Without subheadings a short text is judged by its intro; a longer one has no passage that
  // leads with its answer (a wall of text earns no section points from its intro alone).
  // The share is smoothed (one passing and one failing section assumed): one section that answers
  // first is weak evidence that a page leads with answers, ten of twelve are strong evidence.
  const share = secs.length ? (passing.length + 1) / (secs.length + 2) : doc.words <= WALL_WORDS ? intro / 4 : 0;
  const score = clamp(intro + 6 * share);

  // Intro: put the answer sentence first and drop throat-clearing, within the first paragraph.
  const introSec = doc.bySection[0]?.length
    ? doc.sections[0]
    : doc.sections.find((s) => (doc.bySection[s.index] ?? []).length);
  const introPara = introSec?.blocks.find((b) => b.kind === 'paragraph');
  if (intro < 4 && introSec && introPara && unique(doc.content, introPara.raw)) {
    const paraSentences = (doc.bySection[introSec.index] ?? []).filter(
      (s) => s.block === introSec.blocks.indexOf(introPara),
    );
    const isAnswer = (s: Sentence) =>
      coverage(s.stems, ce) >= 0.5 && s.words.some((w) => lex.answerVerbs.includes(w)) && hasValue(s.text, lex.slot);
    const ansIdx = paraSentences.findIndex(isAnswer);
    const drop = new Set(
      paraSentences
        .map((s, i) => (containsPhrase(s.text.toLowerCase(), lex.throatClearing) ? i : -1))
        .filter((i) => i >= 0 && i !== ansIdx),
    );
    let change = null;
    let action: 'restructure' | 'add' = 'restructure';
    if (ansIdx > 0 || (ansIdx === 0 && drop.size)) {
      const after = reorder(introPara.raw, paraSentences, ansIdx, drop);
      if (after) change = replaceChange(doc, introPara.raw, after);
    } else if (ansIdx < 0) {
      action = 'add';
      change = insertChange(
        doc,
        'before',
        introPara.raw,
        lex.facets.definition.lead
          .replace(
            /\{E\}/g,
            (kw.entity || kw.text).replace(/^./, (c) => c.toLocaleUpperCase()),
          )
          .replace(/\{e\}/g, kw.entity || kw.text),
      );
    }
    findings.push(
      finding({
        kind: opening && action === 'add' ? 'blufOpening' : 'blufIntro',
        // The warm-up phrase, or the opening sentence: where the answer the page lacks is asked for (grounding.ts).
        ...(fluff ? { subject: fluff } : opening ? { subject: opening.text } : {}),
        title: t(lang, 'Answer in the first sentence', 'Odpowiedz w pierwszym zdaniu', 'Im ersten Satz antworten'),
        problem: fluff
          ? t(
              lang,
              `The opening warms up ("${fluff}") instead of answering.`,
              `Początek tekstu krąży wokół tematu („${fluff}”) zamiast odpowiadać.`,
              `Der Einstieg holt aus („${fluff}“), statt zu antworten.`,
            )
          : t(
              lang,
              'The first 60 words do not give the answer: the entity, what it is or costs, and a number.',
              'Pierwszych 60 słów nie podaje odpowiedzi: encji, tego, czym jest lub ile kosztuje, i liczby.',
              'Die ersten 60 Wörter geben keine Antwort: die Entität, was sie ist oder kostet, und eine Zahl.',
            ),
        suggestion: t(
          lang,
          'Open with the answer sentence; move context after it.',
          'Zacznij od zdania z odpowiedzią; kontekst przenieś za nie.',
          'Beginnen Sie mit dem Antwortsatz; der Kontext folgt danach.',
        ),
        section: L.intro,
        sectionIndex: 0,
        actionType: action,
        severity: (4 - intro) / 10,
        change,
      }),
    );
  } else if (intro === 4)
    strengths.push(
      t(
        lang,
        'The first sentences answer the query directly.',
        'Pierwsze zdania od razu odpowiadają na zapytanie.',
        'Die ersten Sätze beantworten die Suchanfrage direkt.',
      ),
    );

  let fixes = 0;
  for (const sec of secs) {
    if (passing.includes(sec) || fixes >= 4) continue;
    const sents = doc.bySection[sec.index] ?? [];
    const para = sec.blocks.find((b) => b.kind === 'paragraph');
    const heading = sec.heading!;
    let change = null;
    let action: 'restructure' | 'add' = 'add';
    const bi = para ? sec.blocks.indexOf(para) : -1;
    const ps = sents.filter((s) => s.block === bi);
    // A paragraph that opens with a question answers it in the next sentence: moving anything above
    // the question parts the answer from its question (blind review r7 rejected it as harmful).
    if (para && unique(doc.content, para.raw) && !/\?\s*$/.test(ps[0]?.text ?? '')) {
      const hs = ctx.an.contentStems(heading.text);
      // Only a sentence that says something moves up: a filler or stuffed one is no answer.
      const idle = idleSentences(gamingOf(doc, ctx.kw, ctx.an));
      const cand = ps.findIndex(
        (s, i) => i > 0 && s.words.length <= 25 && coverage(s.stems, hs) >= 0.5 && !idle.has(s),
      );
      if (cand > 0 && sents[0]?.block === bi) {
        const after = reorder(para.raw, ps, cand, new Set());
        if (after) {
          change = replaceChange(doc, para.raw, after);
          action = 'restructure';
        }
      }
      if (!change) {
        const lead = `${heading.text.replace(/[?:.!]+$/, '')}: ${lex.slot} ${t(lang, 'the direct answer in one sentence', 'bezpośrednia odpowiedź w jednym zdaniu', 'die direkte Antwort in einem Satz')}].`;
        change = insertChange(doc, 'before', para.raw, lead);
      }
    }
    fixes++;
    findings.push(
      finding({
        kind: 'blufSection',
        title: t(
          lang,
          `Answer first under "${heading.text}"`,
          `Odpowiedź na początku sekcji „${heading.text}”`,
          `Antwort an den Anfang von „${heading.text}“`,
        ),
        problem: t(
          lang,
          'The first sentence of the section does not answer its heading in 25 words or fewer.',
          'Pierwsze zdanie sekcji nie odpowiada na jej nagłówek w maksymalnie 25 słowach.',
          'Der erste Satz des Abschnitts beantwortet seine Überschrift nicht in höchstens 25 Wörtern.',
        ),
        suggestion: t(
          lang,
          'Start the section with the sentence that answers the heading.',
          'Zacznij sekcję od zdania, które odpowiada na nagłówek.',
          'Beginnen Sie den Abschnitt mit dem Satz, der die Überschrift beantwortet.',
        ),
        section: heading.text,
        sectionIndex: sec.index,
        actionType: action,
        severity: 0.6 / Math.max(1, secs.length),
        change,
      }),
    );
  }
  if (secs.length && share >= 0.75)
    strengths.push(
      t(
        lang,
        `${passing.length} of ${secs.length} sections open with their answer.`,
        `${passing.length} z ${secs.length} sekcji zaczyna się od odpowiedzi.`,
        `${passing.length} von ${secs.length} Abschnitten beginnen mit ihrer Antwort.`,
      ),
    );
  return {
    id: 'bluf',
    score: round1(score),
    summary: t(
      lang,
      // "0 of 0 sections" reads as a failure; a page without subheadings is judged by its intro alone.
      secs.length
        ? `Intro ${intro}/4; ${passing.length} of ${secs.length} sections answer first.`
        : `Intro ${intro}/4; no subheadings, so the intro is judged alone.`,
      secs.length
        ? `Wstęp ${num('pl', intro)}/4; ${passing.length} z ${secs.length} sekcji zaczyna od odpowiedzi.`
        : `Wstęp ${num('pl', intro)}/4; brak śródtytułów, więc liczy się sam wstęp.`,
      secs.length
        ? `Einstieg ${num('de', intro)}/4; ${passing.length} von ${secs.length} Abschnitten beginnen mit der Antwort.`
        : `Einstieg ${num('de', intro)}/4; keine Zwischenüberschriften, daher zählt nur der Einstieg.`,
    ),
    strengths,
    findings,
    cap: null,
  };
};
