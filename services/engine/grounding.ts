import type { BenchStats } from './benchStats.ts';
import type { Finding, ScoringContext } from './context.ts';
import { coverage, entityStemsOf, namesEntity, queryStems, subjectPhrase } from './keyword.ts';
import { percent, t } from './labels.ts';
import { caseVotes } from './text/nameCase.ts';
import { recLexiconFor, type AnswerShape, type RecLexicon } from './text/recLexicon.ts';
import { splitSentences, tokenize, tokenizeKeepCase } from './text/segment.ts';
import { gamingOf, idleSentences } from './dimensions/gaming.ts';
import { removalChange, sectionName, unique } from './dimensions/helpers.ts';
import type { Change, Doc, Evidence, Sentence } from './types.ts';
import { aboutEntity, answeredInBody, passageOn } from './questionMatch.ts';
import { withoutKeyphrase } from './keyphraseCut.ts';

export { aboutEntity, answeredInBody, looseCoverage } from './questionMatch.ts';

/**
 * The recommendation gate (issue 23): a finding becomes a recommendation only when the engine can
 * say where (a verbatim BEFORE or an anchor), why (the evidence: the rule and figure, competitors
 * with URLs, PAA questions) and what exactly. A change that would delete or weaken a sentence with
 * a figure, a named source or a definition, move an answer away from its question, or leave a
 * fragment is not offered; a text only the author can write is an author task, never a slot.
 */

export type GateContext = Omit<ScoringContext, 'profile'>;

export interface Grounded {
  /** The AFTER shown: pasteable text, or for an author task only the text the SERP gives (a heading). */
  after: string;
  /** What the author must add, where and why; null for a pasteable change. */
  task: string | null;
  evidence: Evidence;
  /** The change to measure and show when the gate rewrites the finding's (a filler sentence cut whole). */
  change?: Change;
  /** The title when the one the finding gave names another text than the one shown (a sub-topic's heading). */
  title?: string;
  /** The section when the change lands elsewhere than the finding's place (a task moved to the passage it completes). */
  section?: string;
}

/** Figures written as words ("one litre", "dwa litry") state a value as much as digits do. */
const NUMBER_WORDS = new Set(
  'one two three four five six seven eight nine ten twelve twenty hundred jeden jedna jedno dwa dwie trzy cztery pięć sześć siedem osiem dziewięć dziesięć ein eine zwei drei vier fünf zehn'.split(
    ' ',
  ),
);

const SLOT = /\[(?:fill in|uzupełnij|ergänzen)\s*:[^\]]*\]/giu;
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
const firstWord = (s: string) => tokenize(s)[0] ?? '';

/** Cut at a word boundary, never inside a word. */
export const clip = (s: string, max = 140): string => {
  const x = norm(s);
  if (x.length <= max) return x;
  return `${x.slice(0, max).replace(/\s+\S*$/u, '')} …`;
};

export const hasFigure = (s: string): boolean => /\p{N}/u.test(s);

/** A named source: an attribution phrase, a link, an acronym (RFC, WHO) or a proper name inside the sentence. */
export const namesSource = (s: string, ctx: GateContext): boolean => {
  const lower = s.toLowerCase();
  if (ctx.lex.sources.some((p) => lower.includes(p)) || /\]\(|https?:\/\//u.test(s)) return true;
  // A proper name: a capital inside the sentence that is not the keyword's own word (German
  // capitalises every noun, so there only an acronym counts).
  // Nor is a word that turns to the reader: Polish capitalises "Ci", "Twój" out of courtesy.
  const kw = new Set(tokenize(ctx.kw.text));
  const name = ctx.lang === 'de' ? /^\p{Lu}{2,}/u : /^\p{Lu}/u;
  const common = (w: string) => w === 'I' || kw.has(w.toLowerCase()) || ctx.lex.readerAddress.includes(w.toLowerCase());
  return tokenizeKeepCase(s)
    .slice(1)
    .some((w) => name.test(w) && !common(w));
};

/** A first-person subject right after the verb (German and English word order; Polish marks it in the verb). */
const SELF_SUBJECT = /^(?:we|i|wir|ich|my)$/u;

/** The sentence says what the central entity is (entity near the start, an answer verb in the first words). */
export const isDefinition = (s: string, ctx: GateContext): boolean => {
  if (/[?？]\s*$/u.test(s)) return false; // a question asks, it defines nothing
  const ce = entityStemsOf(ctx.kw);
  const words = tokenize(s).slice(0, 10);
  // The entity is named before the verb that says what it is ("A bond is …", "Fuga to …"): a
  // sentence that opens with the verb states that something exists ("Jest wiele odmian zapraw.",
  // "There are many …"), it defines nothing.
  // Only a verb that says what a thing is: "For the best plumber Reading has to offer" and "Our
  // plumber service is fast and cheap" (the writer's own offer) define nothing.
  const verb = words.findIndex((w) => ctx.lex.defineVerbs.includes(w));
  if (ctx.lex.selfPossessives.includes(words[0] ?? '')) return false;
  // "Als Umzugsfirma sind wir …", "As a plumbing firm we are …": the writer describes themselves.
  if (verb >= 0 && SELF_SUBJECT.test(words[verb + 1] ?? '')) return false;
  return verb > 0 && coverage(ctx.an.contentStems(words.slice(0, verb).join(' ')), ce) >= 0.5;
};

/** A sentence whose loss would cost the article a fact: never deleted, shortened or moved off the start. */
export const isProtected = (s: string, ctx: GateContext): boolean =>
  hasFigure(s) || namesSource(s, ctx) || isDefinition(s, ctx);

const leansBack = (s: string, ctx: GateContext, rl: RecLexicon): boolean => {
  const w = firstWord(s);
  return ctx.lex.pronounOpeners.includes(w) || rl.connectives.includes(w);
};

const ANSWER_WORD = /(?<![\p{L}])(?:yes|no|tak|nie|ja|nein|doch)(?![\p{L}])/iu;

/**
 * The sentence after `removed` refers back to it ("To pytanie …", "Genau deshalb …", "This is
 * why …"): its first word, or its second after a word of emphasis ("Genau deshalb", "Właśnie dlatego"),
 * is a pronoun or a connective. Cutting the sentence would leave that one pointing at nothing
 * (blind review r9, harmful). Read in document order, across blocks.
 */
// Words that only stress what follows them ("Genau deshalb", "Właśnie dlatego", "Just this").
const EMPHASIS = new Set([
  'exactly',
  'precisely',
  'just',
  'only',
  'genau',
  'gerade',
  'eben',
  'nur',
  'właśnie',
  'dokładnie',
  'tylko',
]);

export const nextLeansBack = (removed: string, doc: Doc, ctx: GateContext): boolean => {
  const rl = recLexiconFor(ctx.lang);
  const at = doc.sentences.findIndex((x) => norm(x.text) === norm(removed));
  const next = at >= 0 ? doc.sentences[at + 1] : undefined;
  if (!next) return false;
  const [first = '', second = ''] = tokenize(next.text);
  const back = (w: string) => ctx.lex.pronounOpeners.includes(w) || rl.connectives.includes(w);
  return back(first) || (EMPHASIS.has(first) && back(second));
};

/**
 * A sentence adds nothing when it says at most four content words besides the keyword's ("What is
 * a bond?"). A longer one may be the article's only answer even when its words stand elsewhere
 * (blind review r3: the verdict of a comparison cut as stuffing): it gets the rewrite task instead.
 */
export const addsNothing = (sentence: string, ctx: GateContext): boolean => {
  // The query as typed, its intent words too ("opinie", "best"): repeating them adds nothing either.
  const kwStems = new Set(queryStems(ctx.kw, ctx.an));
  return [...new Set(ctx.an.contentStems(sentence))].filter((x) => !kwStems.has(x)).length <= 4;
};

/** `small` is `big` with words left out, in order (nothing added, nothing reordered). */
const isSubsequence = (small: string[], big: string[]): boolean => {
  let i = 0;
  for (const w of big) if (i < small.length && small[i] === w) i++;
  return i === small.length;
};

/**
 * A stuffing trim only leaves words out: as many sentences before as after (no fragment, none
 * cut whole), each changed sentence free of a figure, a named source or a definition, its words
 * a subsequence of the original's, and no keyword word added.
 */
export const trimsOnly = (before: string, after: string, ctx: GateContext): boolean => {
  const a = splitSentences(before);
  const b = splitSentences(after);
  if (before === after || a.length !== b.length) return false;
  return a.every((s, i) => {
    const x = b[i]!;
    if (s === x) return true;
    const sw = tokenize(s);
    const xw = tokenize(x);
    return xw.length < sw.length && isSubsequence(xw, sw) && !isProtected(s, ctx);
  });
};

/** A text's words between spaces (" then try again "), so a phrase matches as whole words. */
const spaced = (text: string): string => ` ${tokenize(text).join(' ')} `;

/**
 * A stuffed sentence that may still not be cut whole: a step of the procedure (it opens with
 * "Then", "Danach", "Następnie" …), whatever else it repeats, or advice (a statement with
 * "should", "am besten", "trzeba" …) stuffed only by repeating its paragraph's phrase (gaming.ts
 * `repeats`). Its keyword is trimmed or reworded instead (blind reviews r23 and r24, harmful).
 */
export const keptWhole = (sentence: string, repeatOnly: boolean, lang: string): boolean => {
  const rl = recLexiconFor(lang);
  const words = spaced(sentence);
  const step = rl.steps.some((a) => words.startsWith(spaced(a)));
  const advice = !/[?？]\s*$/u.test(sentence) && rl.advice.some((a) => words.includes(spaced(a)));
  return step || (repeatOnly && advice);
};

/** A stuffed sentence that may be cut whole: it adds nothing, holds no fact and answers nothing. */
export const removableStuffing = (sentence: string, ctx: GateContext): boolean =>
  !isProtected(sentence, ctx) && !ANSWER_WORD.test(sentence) && addsNothing(sentence, ctx);

/** Content words of a heading other than the keyword's: a heading needs some, or it is the keyword again. */
export const ownWords = (heading: string, ctx: GateContext): string[] => {
  const kwStems = new Set([...ctx.kw.stems, ...ctx.kw.entityStems]);
  return ctx.an.contentStems(heading.replace(/^#+\s*/u, '')).filter((s) => !kwStems.has(s));
};

const competitorsOf = (bench: BenchStats | null, idx: number[], quote: (i: number) => string) =>
  bench
    ? idx
        .filter((i) => bench.comps[i] !== undefined)
        .slice(0, 5)
        .map((i) => ({ url: bench.comps[i]!.url, domain: bench.comps[i]!.domain, quote: clip(quote(i), 120) }))
    : [];

const evidence = (rule: string, figure: string | null, over: Partial<Evidence> = {}): Evidence => ({
  rule,
  figure,
  competitors: [],
  questions: [],
  ...over,
});

/** Sentences of one paragraph of the BEFORE, and the first sentence of the AFTER. */
const sentencesOf = (text: string) => splitSentences(norm(text));

/** A reorder that leads with the answer: the definition stays first, an answer stays after its question. */
const safeReorder = (
  change: Change,
  ctx: GateContext,
  rl: RecLexicon,
  needWeakOpening: boolean,
): { moved: string; dropped: string[] } | null => {
  if (change.kind !== 'replace') return null;
  const before = sentencesOf(change.before);
  const after = sentencesOf(change.after);
  const moved = after[0];
  const opening = before[0];
  if (!moved || !opening || moved === opening) return null;
  const at = before.indexOf(moved);
  if (at < 1) return null;
  if (leansBack(moved, ctx, rl) || rl.shortAnswer.test(moved)) return null;
  // The answer is not taken away from the question it answers.
  if (/[?？]$/u.test(before[at - 1] ?? '')) return null;
  // The definition, a figure or a source at the start stays at the start.
  if (isProtected(opening, ctx) && after.indexOf(opening) !== 0) {
    const dropped = before.filter((s) => !after.includes(s));
    if (dropped.includes(opening) || isDefinition(opening, ctx)) return null;
  }
  // Under a subheading, only a weak opening gives way: a question, throat-clearing, a hedge, or over 25 words.
  if (needWeakOpening) {
    const lower = opening.toLowerCase();
    const weak =
      /[?？]$/u.test(opening) ||
      ctx.lex.throatClearing.some((p) => lower.includes(p)) ||
      ctx.lex.hedges.some((p) => lower.includes(p)) ||
      tokenize(opening).length > 25;
    if (!weak || rl.shortAnswer.test(before[1] ?? '')) return null;
  }
  const dropped = before.filter((s) => !after.includes(s));
  if (dropped.some((s) => isProtected(s, ctx))) return null;
  return { moved, dropped };
};

/** Competitor headings that show a sub-topic: a distinctive marker word (not a bare question word). */
const facetHeadings = (bench: BenchStats, markers: string[], rl: RecLexicon): { i: number; heading: string }[] => {
  const distinct = markers.filter((m) => !rl.questionWords.includes(m) && /\p{L}/u.test(m));
  const out: { i: number; heading: string }[] = [];
  bench.comps.forEach((c, i) => {
    const h = c.doc.blocks.find(
      (b) => b.kind === 'heading' && b.level >= 2 && tokenize(b.text).some((w) => distinct.includes(w)),
    );
    if (h) out.push({ i, heading: h.text.replace(/^\s*(?:\d+[.)]|step \d+:?)\s*/iu, '').trim() });
  });
  return out;
};

/** The words as the sentence writes them, from the first to the last (case and joining marks kept). */
const surfacePhrase = (sentence: string, words: string[]): string | null => {
  const lower = sentence.toLowerCase();
  const first = words[0];
  const last = words[words.length - 1];
  if (!first || !last) return null;
  const bound = (w: string, from: number) => {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'gu');
    re.lastIndex = from;
    return re.exec(lower);
  };
  const a = bound(first, 0);
  if (!a) return null;
  let b = a;
  for (const w of words.slice(1)) {
    const m = bound(w, b.index + b[0].length);
    if (!m) return null;
    b = m;
  }
  const out = sentence.slice(a.index, b.index + b[0].length);
  return out.length <= 80 ? out : null;
};

/** The sentence belongs to a filler or unspecific paragraph, or is keyword stuffing (gaming.ts). */
const inFiller = (doc: Doc, ctx: GateContext, sentence: string): boolean => {
  const text = norm(sentence);
  return [...idleSentences(gamingOf(doc, ctx.kw, ctx.an))].some((x) => norm(x.text) === text);
};

/** Wording that dodges a point or states it vaguely, or a hedge ("it is said"), as whole words. */
const dodges = (sentence: string, ctx: GateContext, rl: RecLexicon): boolean => {
  const words = spaced(sentence);
  return [...rl.dodges, ...ctx.lex.hedges].some((p) => words.includes(spaced(p)));
};

/**
 * A new section placed after the article's last line: no closing could be set apart to stand it
 * before (a wall of text ending on its sign-off), so it would follow the goodbye, while such a page
 * touches the question somewhere in its own words (blind review r30: four such sections rejected as
 * noise or a slot in the wrong place). The gap stays a listed problem.
 */
const trailing = (change: Change): boolean => change.kind === 'insert' && change.placement !== 'before';

/** An author task on the sentence itself (BEFORE = AFTER until the author writes), in that sentence's section. */
const inPassage = (doc: Doc, at: Sentence): Pick<Grounded, 'change' | 'section'> => ({
  change: { kind: 'replace', before: at.text, after: at.text },
  section: sectionName(doc, at.section),
});

/**
 * An opening with no answer sentence to move up gets the answer asked of the author, in place, at
 * the warm-up sentence that stands where the answer belongs (blind review r9: poor pages missed
 * "no answer up front"). Only where the warm-up is named: without it the gap is not shown exactly.
 */
const answerShape = (ctx: GateContext, doc: Doc): AnswerShape => {
  const intent = ctx.kw.intent;
  const words = tokenize(ctx.kw.text);
  if (words.some((w) => ctx.lex.facets.types.markers.includes(w))) return 'kinds';
  if (intent === 'instructional') return 'method';
  // Two things compared may be animals or cities, not products: the answer says how they differ.
  if (intent === 'comparison') return 'difference';
  // One named product reviewed ("stanley cup review", "ford puma opinie") wants the verdict, not
  // "which to choose" (blind reviews r18, r19); a kind of product or "best …" wants the choice.
  if (intent === 'commercial' || intent === 'transactional')
    return !words.some((w) => ctx.lex.chooseAmong.includes(w)) && namedProduct(ctx, doc) ? 'verdict' : 'choice';
  if (intent === 'local') return 'provider';
  // A definition answers a keyword that asks what a thing is, or names a lone thing ("rekuperacja").
  // Any other phrase ("low light houseplants", a date's event, a place's news) gets the plain ask
  // for what its reader wants, never a definition (blind review r10 rejected a news item asked for
  // one); without any ask, an opening that warms up went without a task (r16).
  return words.some((w) => ctx.lex.defineAsks.includes(w)) || ctx.kw.stems.length === 1 ? 'define' : 'direct';
};

const answerFirstTask = (f: Finding, doc: Doc, ctx: GateContext, rl: RecLexicon): Grounded | null => {
  const warmUp = f.subject;
  // A stock phrase comes lower-cased, a question asked back as written (bluf.ts): compared lower-cased.
  const at = warmUp
    ? doc.sentences.find((s) => s.section === 0 && s.text.toLowerCase().includes(warmUp.toLowerCase()))
    : undefined;
  const shape = openingShape(ctx, doc);
  if (!warmUp || !at || !shape || !unique(doc.content, at.text)) return null;
  // Quoted as the sentence writes it ("Viele Menschen fragen sich", not as the analysis lower-cases it).
  const from = at.text.toLowerCase().indexOf(warmUp.toLowerCase());
  const written = at.text.toLowerCase().length === at.text.length ? at.text.slice(from, from + warmUp.length) : warmUp;
  return atOpening(doc, at, ctx.lang, rl.task.answerFirst(ctx.kw.text, written, shape), {
    rule: [
      'bluf: the first 60 words give no answer (entity, answer verb, value); the opening warms up',
      'bluf: pierwszych 60 słów nie daje odpowiedzi (encja, czasownik, wartość); wstęp krąży wokół tematu',
      'bluf: die ersten 60 Wörter geben keine Antwort (Entität, Antwortverb, Wert); der Einstieg holt aus',
    ],
    figure: t(ctx.lang, `"${written}"`, `„${written}”`, `„${written}“`),
  });
};

/** A query whose results report an event wants what happened first: no shape here says that. */
const openingShape = (ctx: GateContext, doc: Doc): AnswerShape | null =>
  ctx.bench?.reportsNews ? null : answerShape(ctx, doc);

/**
 * The keyword's entity is a name: the page writes its first word capitalised inside sentences at
 * least as often as in lower case ("the Stanley cup", not "a blender"). German capitalises every
 * noun, so there nothing is read as a name.
 */
const namedProduct = (ctx: GateContext, doc: Doc): boolean => {
  const first = tokenize(ctx.kw.entity || ctx.kw.text).find(
    (w) => !ctx.an.stop.has(w) && !Object.hasOwn(ctx.lex.searchOnly, w),
  );
  if (!first || ctx.lang === 'de') return false;
  // Capitalised at least as often as not (a tie is a name); a word never written inside a sentence is none.
  return (caseVotes(doc, ctx.an).get(ctx.an.stem(first)) ?? 1) <= 0;
};

/**
 * The author task at a sentence of the opening: the answer goes there (BEFORE = AFTER until
 * written); its evidence is the bluf rule that fired ([en, pl, de]) and what it quotes.
 */
const atOpening = (
  doc: Doc,
  at: Sentence,
  lang: string,
  task: string,
  why: { rule: [string, string, string]; figure: string | null },
): Grounded => ({
  ...inPassage(doc, at),
  after: at.text,
  task,
  evidence: evidence(t(lang, ...why.rule), why.figure),
});

/**
 * An opening whose first statement does not name the subject while its first 60 words give no
 * figure (bluf.ts) talks around it: the answer is asked of the author at that sentence, which the
 * finding names.
 */
const answerOpeningTask = (f: Finding, doc: Doc, ctx: GateContext, rl: RecLexicon): Grounded | null => {
  const at = doc.sentences.find((s) => s.section === 0 && s.text === f.subject);
  // A keyword with a place may name a provider or the news from there ("Hochwasser Regen"): what
  // the answer is cannot be told from an opening that never names the subject, so no task. Nor
  // where the query asks for nothing in particular: without a stock warm-up, a first sentence
  // that does not name the subject may well be a good lead (a problem the reader has).
  const shape = openingShape(ctx, doc);
  if (!at || !shape || shape === 'provider' || shape === 'direct' || !unique(doc.content, at.text)) return null;
  const subject = subjectPhrase(ctx.kw, ctx.an);
  // Named after a long lead-up, or not at all: the task says which (r14: "it does name it").
  const ce = entityStemsOf(ctx.kw);
  const late = namesEntity(at.stems, ce, ctx.lang);
  return atOpening(doc, at, ctx.lang, rl.task.answerOpening(ctx.kw.text, subject, shape, late), {
    rule: [
      'bluf: the opening sentence does not lead with the subject and the first 60 words give no figure',
      'bluf: pierwsze zdanie nie zaczyna od tematu, a pierwszych 60 słów nie podaje liczby',
      'bluf: der erste Satz beginnt nicht mit dem Thema, und die ersten 60 Wörter geben keine Zahl',
    ],
    figure: null,
  });
};

export const ground = (
  f: Finding,
  change: Change,
  doc: Doc,
  ctx: GateContext,
  bench: BenchStats | null,
  kd: number,
): Grounded | null => {
  const { lang } = ctx;
  const rl = recLexiconFor(lang);
  const pasteable = (rule: string, figure: string | null, over: Partial<Evidence> = {}): Grounded | null =>
    SLOT.test(change.after) ? null : { after: change.after, task: null, evidence: evidence(rule, figure, over) };
  SLOT.lastIndex = 0;
  switch (f.kind) {
    case 'paa': {
      const q = f.subject ?? '';
      if (!bench || !q || !aboutEntity(q, ctx)) return null;
      // Where the article already speaks to the question, vaguely, the answer goes there; a passage
      // that names the question's words only to dodge it ("fuel use depends on driving style") does
      // not answer it, so the question is checked without it.
      const at = passageOn(doc, q, ctx, (x) => dodges(x, ctx, rl));
      // A dodge that cannot be quoted verbatim gets no task: a new section would contradict it.
      if ((at && !unique(doc.content, at.text)) || answeredInBody(doc, q, ctx, at)) return null;
      if (!at && trailing(change)) return null;
      const heading = `## ${q.trim().replace(/\s*\?*$/u, '?')}`;
      return {
        ...(at ? inPassage(doc, at) : {}),
        after: at ? at.text : heading,
        task: at ? rl.task.paaInPlace(q.trim(), f.competitors.length) : rl.task.paa(q.trim(), f.competitors.length),
        evidence: evidence(
          t(
            lang,
            'queryFanout: a People Also Ask question the article does not answer',
            'queryFanout: pytanie People Also Ask, na które artykuł nie odpowiada',
            'queryFanout: eine People-Also-Ask-Frage, die der Artikel nicht beantwortet',
          ),
          null,
          {
            questions: [q],
            competitors: competitorsOf(bench, f.competitors, (i) => {
              const need = ctx.an.contentStems(q);
              const lead = bench.comps[i]!.leads.find((l) => coverage(l.stems, need) >= 0.6);
              const sec = lead ? bench.comps[i]!.doc.sections[lead.index] : undefined;
              return sec?.heading?.text ?? '';
            }),
          },
        ),
      };
    }
    case 'facet': {
      // A sub-topic only when the SERP shows it for this query: competitor headings or a PAA question.
      if (!bench || !f.subject) return null;
      const facet = ctx.lex.facets[f.subject as keyof typeof ctx.lex.facets];
      if (!facet || f.subject === 'definition' || f.subject === 'howto' || f.subject === 'forWhom') return null;
      const shown = facetHeadings(bench, facet.markers, rl).filter((x) => ownWords(x.heading, ctx).length > 0);
      if (shown.length < 2) return null;
      const serpHeading = [...shown].sort((a, b) => a.heading.length - b.heading.length || a.i - b.i)[0]!.heading;
      // The sub-topic under the article's subject needs no keyphrase of its own: a competitor's
      // "Kocioł żeliwny – zalety" added to the article is one more keyword heading (r17: stuffing).
      const trimmedHeading = withoutKeyphrase(serpHeading, ctx);
      const heading = trimmedHeading && ownWords(trimmedHeading, ctx).length ? trimmedHeading : serpHeading;
      if (tokenize(heading).length > 10) return null;
      const at = passageOn(doc, heading, ctx, (x) => dodges(x, ctx, rl));
      if ((at && !unique(doc.content, at.text)) || (!at && trailing(change))) return null;
      return {
        ...(at ? inPassage(doc, at) : {}),
        after: at ? at.text : `## ${heading}`,
        // The sub-topic as the SERP names it, the heading shown, not the template's wording.
        title: t(
          lang,
          `Cover the sub-topic "${heading}"`,
          `Uwzględnij wątek „${heading}”`,
          `Unterthema ergänzen: „${heading}“`,
        ),
        task: at ? rl.task.facetInPlace(heading, shown.length) : rl.task.facet(heading, shown.length),
        evidence: evidence(
          t(
            lang,
            'queryFanout: a sub-topic the top results cover under their own heading',
            'queryFanout: wątek, który czołowe wyniki omawiają w osobnej sekcji',
            'queryFanout: ein Unterthema, das die Top-Ergebnisse in einem eigenen Abschnitt behandeln',
          ),
          `${shown.length}/${bench.comps.length}`,
          {
            competitors: competitorsOf(
              bench,
              shown.map((x) => x.i),
              (i) => shown.find((x) => x.i === i)?.heading ?? '',
            ),
          },
        ),
      };
    }
    case 'vague': {
      // A figure is asked for where the text itself shows one is missing (a quantity word before a
      // unit: "a lot of kW"), or where the top results give a value for the same attribute.
      if (change.kind !== 'replace') return null;
      const sentence = change.before;
      const words = tokenize(sentence);
      const at = words.findIndex(
        (w, i) => ctx.lex.vague.includes(w) && words.slice(i + 1, i + 4).some((u) => rl.units.test(u)),
      );
      if (at < 0) return null;
      // Quoted speech is the speaker's: no figure is put into someone else's words. A question or an
      // exclamation is rhetoric, not a statement of amount: only a declarative sentence gets a figure.
      if (/["„“”«»]/u.test(sentence) || /[?？!]/u.test(sentence)) return null;
      // A sentence of a paragraph that says nothing ("enjoy it for many years to come") wants cutting,
      // not a figure: asking for one there is a slot in the wrong place (blind review r7).
      if (inFiller(doc, ctx, sentence)) return null;
      const unitAt = words.findIndex((u, i) => i > at && i < at + 4 && rl.units.test(u));
      // "a few years ago" dates an event; it states no amount to fill in.
      if (['ago', 'temu', 'zuvor'].includes(words[unitAt + 1] ?? '')) return null;
      // "for many years to come" is a horizon, not an amount: there is no figure to fill in.
      if (words[unitAt + 1] === 'to' && words[unitAt + 2] === 'come') return null;
      // Quoted as the sentence writes it ("viel Watt", "sporo–sporo godziny"), not as the analysis lower-cases it.
      const phrase = surfacePhrase(sentence, words.slice(at, unitAt + 1)) ?? words.slice(at, unitAt + 1).join(' ');
      const unit = words[unitAt] ?? '';
      // The top results that give a number with the same unit show the figure is knowable.
      const quotes = (bench?.comps ?? [])
        .map((c, i) => ({
          i,
          s: c.doc.sentences.find((x) =>
            x.words.some(
              (w, k) =>
                w === unit &&
                x.words.slice(Math.max(0, k - 3), k).some((n) => /^\p{N}/u.test(n) || NUMBER_WORDS.has(n)),
            ),
          ),
        }))
        .filter((x) => x.s !== undefined);
      const task = rl.task.unit(phrase);
      // The sentence stays as it is: the change is the author's (measured as no change, gain 0).
      return {
        after: sentence,
        task,
        change: { kind: 'replace', before: sentence, after: sentence },
        evidence: evidence(
          t(
            lang,
            'eav: a quantity stated without its figure',
            'eav: ilość podana bez liczby',
            'eav: eine Menge ohne Zahl',
          ),
          phrase,
          {
            competitors: competitorsOf(
              bench,
              quotes.map((x) => x.i),
              (i) => quotes.find((x) => x.i === i)?.s?.text ?? '',
            ),
          },
        ),
      };
    }
    case 'unsourced':
      // Editors cut or made such claims concrete instead of sourcing them (blind review: 0 of 12
      // accepted); the claim stays a listed problem, not a task.
      return null;
    case 'byline': {
      // In place: the anchor stays as it is until the author writes (measured as no change, gain 0).
      if (change.kind !== 'replace' || change.before !== change.after) return null;
      return {
        after: change.after,
        task: rl.task.byline(),
        evidence: evidence(
          t(
            lang,
            'eeat: the page names no author (no byline, no author in the page data)',
            'eeat: strona nie podaje autora (brak podpisu i autora w danych strony)',
            'eeat: die Seite nennt keinen Autor (keine Autorenzeile, kein Autor in den Seitendaten)',
          ),
          null,
        ),
      };
    }
    case 'stuffingRewrite':
    case 'stuffingVerbatim': {
      // In place, like byline: the sentence stays until the author rewrites it (gain 0, measured then).
      if (change.kind !== 'replace' || change.before !== change.after) return null;
      // Past the ceiling, the density is the figure; under it, the page repeats the keyphrase in
      // sentences that say nothing else, and "past its natural range (1.97%)" would contradict itself.
      const rule: [string, string, string] =
        f.kind === 'stuffingVerbatim'
          ? [
              'density: the query pasted into sentences as it is typed into a search box (stuffing)',
              'density: fraza wklejona w zdania tak, jak wpisuje się ją w wyszukiwarkę (upychanie)',
              'density: das Keyword so in Sätze kopiert, wie man es ins Suchfeld tippt (Keyword-Stuffing)',
            ]
          : f.figure !== undefined
            ? [
                'density: the keyphrase repeated past its natural range (stuffing)',
                'density: fraza powtarzana ponad naturalny zakres (upychanie)',
                'density: das Keyword über das natürliche Maß hinaus wiederholt (Keyword-Stuffing)',
              ]
            : [
                'density: the keyphrase repeated where it adds nothing (stuffing)',
                'density: fraza powtarzana tam, gdzie nic nie wnosi (upychanie)',
                'density: das Keyword wiederholt, wo es nichts beiträgt (Keyword-Stuffing)',
              ];
      return { after: change.after, task: f.suggestion, evidence: evidence(t(lang, ...rule), f.figure ?? null) };
    }
    case 'blufOpening':
      return change.kind === 'insert' ? answerOpeningTask(f, doc, ctx, rl) : null;
    case 'blufIntro':
    case 'blufSection': {
      if (f.kind === 'blufIntro' && change.kind === 'insert') return answerFirstTask(f, doc, ctx, rl);
      const ok = safeReorder(change, ctx, rl, f.kind === 'blufSection');
      if (!ok) return null;
      return pasteable(
        f.kind === 'blufIntro'
          ? t(
              lang,
              'bluf: the first 60 words give the answer (entity, answer verb, value)',
              'bluf: pierwszych 60 słów podaje odpowiedź (encja, czasownik, wartość)',
              'bluf: die ersten 60 Wörter geben die Antwort (Entität, Antwortverb, Wert)',
            )
          : t(
              lang,
              'bluf: a section opens with the sentence that answers its heading (≤ 25 words)',
              'bluf: sekcja zaczyna się od zdania odpowiadającego na nagłówek (≤ 25 słów)',
              'bluf: ein Abschnitt beginnt mit dem Satz, der seine Überschrift beantwortet (≤ 25 Wörter)',
            ),
        clip(ok.moved, 100),
      );
    }
    case 'stuffing': {
      if (change.kind !== 'replace') return null;
      const removed = change.before.slice(change.after.length).trim();
      if (!removed || !removableStuffing(removed, ctx) || nextLeansBack(removed, doc, ctx)) return null;
      // The rule that fired, with its own figure: over the ceiling, the density; under it, the
      // sentence only repeats the keyphrase ("density over 3% (1.85%)" contradicted itself).
      // density.ts gives the figure (and the ceiling as its subject) only past the ceiling.
      if (f.figure && f.subject)
        return pasteable(
          t(
            lang,
            `density: keyword density over ${f.subject}% (stuffing)`,
            `density: gęstość frazy ponad ${f.subject}% (upychanie)`,
            `density: Keyword-Dichte über ${f.subject} % (Keyword-Stuffing)`,
          ),
          f.figure,
        );
      return pasteable(
        t(
          lang,
          'density: a sentence that only repeats the keyphrase (stuffing)',
          'density: zdanie, które tylko powtarza frazę (upychanie)',
          'density: ein Satz, der nur das Keyword wiederholt (Keyword-Stuffing)',
        ),
        null,
      );
    }
    case 'stuffingTrim': {
      if (change.kind !== 'replace' || !trimsOnly(change.before, change.after, ctx)) return null;
      return pasteable(
        t(
          lang,
          'density: the keyphrase repeated past its natural range (stuffing); each paragraph keeps its first use',
          'density: fraza powtarzana ponad naturalny zakres (upychanie); każdy akapit zachowuje pierwsze użycie',
          'density: das Keyword über das natürliche Maß hinaus wiederholt (Keyword-Stuffing); jeder Absatz behält die erste Nennung',
        ),
        f.figure ?? percent(lang, Math.round(kd * 100) / 100),
      );
    }
    case 'stuffedHeading': {
      // The subheading with the keyphrase cut out: its own words only, nothing added.
      if (change.kind !== 'replace' || !change.after || !trimsOnly(change.before, change.after, ctx)) return null;
      return pasteable(
        t(
          lang,
          'density: the keyphrase in over 75% of the subheadings (stuffing)',
          'density: fraza w ponad 75% śródtytułów (upychanie)',
          'density: das Keyword in über 75 % der Zwischenüberschriften (Keyword-Stuffing)',
        ),
        f.figure ?? null,
      );
    }
    case 'stuffedTitle': {
      // The title kept up to the joint where it starts repeating the keyword: nothing added, and
      // the dropped part carries no figure or name the title promised.
      if (change.kind !== 'replace' || !change.after || !change.before.startsWith(change.after)) return null;
      // Every word of the dropped part is checked as a possible name, its first one too (the
      // name test skips a sentence's first word, which a title part is not).
      if (isProtected(`x ${change.before.slice(change.after.length)}`, ctx)) return null;
      return pasteable(
        t(
          lang,
          'density: the title repeats the keyphrase (stuffing)',
          'density: tytuł powtarza frazę (upychanie)',
          'density: der Titel wiederholt das Keyword (Keyword-Stuffing)',
        ),
        null,
      );
    }
    case 'cliche':
    case 'hedge': {
      if (change.kind !== 'replace' || !f.subject) return null;
      // A sentence that is filler through and through is cut whole, not left as a shorter filler.
      const filler = [
        ...new Set([...ctx.lex.throatClearing, ...ctx.lex.cliches, ...ctx.lex.hedges].map((p) => p.trim())),
      ].filter((p) => change.before.toLowerCase().includes(p));
      const rest = filler.reduce((x, p) => x.split(p).join(' '), change.before.toLowerCase());
      // A sentence that says yes or no answers something, however padded ("The answer is: yes, mostly.").
      if (
        !isProtected(change.before, ctx) &&
        !ANSWER_WORD.test(change.before) &&
        ctx.an.contentStems(rest).length < 4
      ) {
        const cut = nextLeansBack(change.before, doc, ctx) ? null : removalChange(doc, change.before);
        if (cut && cut.kind === 'replace')
          return {
            after: cut.after,
            task: null,
            change: cut,
            evidence: evidence(
              t(
                lang,
                'effort: a sentence of filler phrases only',
                'effort: zdanie złożone z samych frazesów',
                'effort: ein Satz nur aus Floskeln',
              ),
              filler.map((p) => p.trim()).join(', '),
            ),
          };
      }
      // Only whole filler sentences are cut. A phrase cut inside a sentence was rejected in the blind
      // review each time (a run-on, a rest as empty as before, a trivial polish): the problem stays listed.
      return null;
    }
    case 'splitSentence':
    case 'splitParagraph':
      // Splits stay listed as problems, not offered: the blind reviews rejected every one (r3: 0 of
      // 5; a break inside a wall of text does not fix it, a split filler sentence should go).
      return null;
    case 'h1': {
      if (ownWords(change.after, ctx).length === 0) return null;
      return pasteable(
        t(
          lang,
          'csiAlignment: the H1 names the central entity',
          'csiAlignment: H1 nazywa główną encję',
          'csiAlignment: die H1 nennt die zentrale Entität',
        ),
        null,
      );
    }
    case 'duplicate':
    case 'headingLevel':
    case 'singleH1':
    case 'jsonLd':
    case 'lang':
      if (change.kind === 'replace' && change.after === '' && isProtected(change.before, ctx) && f.kind !== 'duplicate')
        return null;
      return pasteable(`cor: ${f.title}`, null);
    default:
      // Template additions, keyword notes, generated headings and "Heading: it …" openers are not offered.
      return null;
  }
};
