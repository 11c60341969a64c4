import { addsNothing } from '../engine/grounding.ts';
import { isConclusionHeading } from '../engine/conclusion.ts';
import { tokenize } from '../engine/text/segment.ts';
import { recLexiconFor } from '../engine/text/recLexicon.ts';
import { stripInline } from '../engine/text/markdown.ts';
import { namesQuery, openingBlock, sentencesOf, type Unfit } from './answerFirst.ts';
import { norm, type EngineView } from './engineView.ts';

/** A word of the query (its first five letters, for inflection) stands in the sentence. */
const aboutQuery = (s: string, keyword: string): boolean =>
  keyword
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 3)
    .some((w) => s.toLowerCase().includes(w.slice(0, 5))) || namesQuery(s, keyword);

/** Words that add to or conclude from what was said before; within the first ADDITIVE_REACH words. */
const ADDITIVE: Record<string, string[]> = {
  en: ['also', 'another', 'too', 'therefore', 'thus', 'then', 'however', 'still'],
  pl: [
    'też',
    'także',
    'również',
    'zatem',
    'więc',
    'jednak',
    'dlatego',
    'potem',
    'wtedy',
    'kolejny',
    'kolejna',
    'kolejne',
    'kolejnym',
  ],
  de: [
    'auch',
    'also',
    'dann',
    'ebenfalls',
    'außerdem',
    'zudem',
    'jedoch',
    'deshalb',
    'daher',
    'trotzdem',
    'weitere',
    'weiterer',
    'weiteres',
  ],
};
const ADDITIVE_REACH = 6;

const isQuestion = (s: string): boolean => /[?？]\s*$/u.test(s);

/** The sentence opens on a word that points back: a pronoun or a connective of the language ("It", "But", "To", "Diese"). */
export const leansBack = (sentence: string, view: EngineView): boolean => {
  const first = tokenize(sentence)[0] ?? '';
  return view.ctx.lex.pronounOpeners.includes(first) || recLexiconFor(view.ctx.lang).connectives.includes(first);
};

/** Words that open a clause a pronoun announces ("na to, jak …", "so much that …"): then it points forward. */
const SUBORDINATORS: Record<string, string[]> = {
  en: ['that', 'how', 'which', 'what', 'when', 'if', 'whether', 'who'],
  pl: ['że', 'jak', 'by', 'aby', 'żeby', 'gdy', 'kiedy', 'czy', 'co', 'który', 'która', 'które', 'iż'],
  de: ['dass', 'wie', 'ob', 'wenn', 'was', 'der', 'die', 'das', 'welche', 'welcher', 'welches'],
};

/**
 * The sentence points back inside it ("If you notice any of these, …"): a pronoun of the language
 * that stands for a noun, right before a comma or the end of a clause, and not announcing the
 * clause after it. Moved first, it points at nothing. (Words of at most 12 letters, from a word start:
 * a run of letters without end is read once.)
 */
const pointsBack = (sentence: string, view: EngineView): boolean => {
  const pronouns = view.ctx.lex.pronounOpeners;
  const forward = SUBORDINATORS[view.ctx.lang] ?? SUBORDINATORS.en!;
  return [...sentence.toLowerCase().matchAll(/(?<!\p{L})(\p{L}{1,12})\s*[,;:.!?]\s*(\p{L}{0,12})/gu)].some(
    (m) => pronouns.includes(m[1]!) && !forward.includes(m[2]!),
  );
};

/**
 * It hedges and states no figure ("You should probably clean it every so often"): a first sentence
 * states. A hedged figure ("Uważa się, że miasto zbuduje 42 km …") is still the news.
 */
const hedgedVague = (sentence: string, view: EngineView): boolean => {
  const low = ` ${tokenize(sentence).join(' ')} `;
  return !/\p{N}/u.test(sentence) && view.ctx.lex.hedges.some((h) => low.includes(` ${h.trim()} `));
};

/**
 * A sentence that is not the article's answer, however it names the query (answer-first and the
 * meta description, issue 23 "never harm"):
 * - the engine scores it as saying nothing: a sentence of a filler or unspecific paragraph, or
 *   keyword stuffing with at most four words of its own ("Kredyt X to ważny temat" moved to the
 *   top is the stuffing, not the answer). A second mention of the keyword in a paragraph is
 *   stuffing to the engine too, but may well be the answer ("… Descaling a kettle takes ten
 *   minutes"): that alone does not disqualify it;
 * - it leans on the sentence before it (a pronoun or a connective first, or a pronoun standing for a
 *   noun inside it: "any of these,"): moved, it points at nothing; or it hedges with no figure;
 * - it is a bare "No." / "Nie.", or follows a question in its paragraph: it answers that question;
 * - the opening's first sentence states a figure about the subject and this one states none: a
 *   correct opening is not pushed down ("Kredyt o stałej stopie … w 2025 roku … 0,3–0,8 punktu");
 * - it ends with an exclamation, has an additive or concluding word among its first six ("also",
 *   "another", "zatem", "auch"), or stands in the closing section (the engine's conclusion headings);
 * - it opens the section under a question heading ("## Warum uns wählen?" → "Weil wir …"): moved
 *   away, the heading loses its answer and the opening gains a reply to a question it never asked.
 */
export const answerUnfit =
  (view: EngineView | null): Unfit =>
  (sentence, at) => {
    if (!view) return false;
    const plain = norm(stripInline(sentence));
    if (view.empty.has(plain) || leansBack(plain, view) || pointsBack(plain, view) || hedgedVague(plain, view))
      return true;
    if (view.stuffedTexts.has(plain) && addsNothing(plain, view.ctx)) return true;
    if (recLexiconFor(view.ctx.lang).shortAnswer.test(plain)) return true;
    if (at.index > 0 && isQuestion(at.sentences[at.index - 1]!)) return true;
    // The text already opens with a fact about the subject (a figure in its first sentence): a
    // sentence without one is not moved above it (a correct opening is not broken).
    const opening = openingBlock(at.blocks);
    const first = opening?.kind === 'paragraph' ? (sentencesOf(opening.raw)[0] ?? '') : '';
    if (/\p{N}/u.test(first) && !/\p{N}/u.test(plain) && aboutQuery(first, view.ctx.kw.text)) return true;
    // An exclamation is a call or a sign-off ("Now you know what X is!"), not a statement.
    if (/!\s*$/u.test(plain)) return true;
    // An additive or concluding word among the first ones ("Another one of …", "Man fragt sich
    // auch …", "Można zatem powiedzieć …") presupposes what came before.
    const head = tokenize(plain).slice(0, ADDITIVE_REACH);
    if (head.some((w) => (ADDITIVE[view.ctx.lang] ?? ADDITIVE.en!).includes(w))) return true;
    const i = at.blocks.indexOf(at.block);
    // The closing section sums up and signs off ("We hope you now know …"): its lines stay there.
    const heading = at.blocks.slice(0, Math.max(0, i)).findLast((b) => b.kind === 'heading' && b.level >= 2);
    if (heading && isConclusionHeading(heading.text, view.ctx.lex)) return true;
    if (at.index === 0) {
      const prev = at.blocks[i - 1];
      if (prev?.kind === 'heading' && prev.level >= 2 && isQuestion(prev.text)) return true;
    }
    return false;
  };
