import { containsPhrase } from '../engine/dimensions/helpers.ts';
import { count, t } from '../engine/labels.ts';
import { parseMarkdown, stripInline } from '../engine/text/markdown.ts';
import { lexiconFor } from '../engine/text/lexicon.ts';
import { isConclusionHeading } from '../engine/conclusion.ts';
import { splitSentences } from '../engine/text/segment.ts';
import type { Recommendation } from '../engine/types.ts';
import { anchorsOf } from './anchors.ts';
import { answerFirst, answerSentence, bodyParagraphs, repeatsKeyword, sentencesOf } from './answerFirst.ts';
import { stopwordsFor } from '../engine/text/stopwords.ts';
import type { Move } from './move.ts';
import { answerUnfit } from './answerFit.ts';
import { engineView, norm, type EngineView } from './engineView.ts';
import { afterCut, stuffedParagraphs, type Cut } from './stuffingCuts.ts';
import { needsAuthorData, writableByModel } from './placeholders.ts';

/** One item of spec 2.5, plus where its AFTER goes (internal, never sent). */
export interface ApplyItem {
  id: string;
  group: 'recommendation' | 'meta' | 'structure';
  label: string;
  selectable: boolean;
  editorialOnly: boolean;
  authorDataOnly: boolean;
  noChange: boolean;
  priority: string;
  actionType: string;
  section: string;
  before: string;
  after: string;
  impact: string;
  estimatedCqsDelta: number;
}

/** How an item changes the Markdown: replace BEFORE, insert at an anchor, or fill the title/description. */
export type Edit =
  | { kind: 'replace'; before: string; after: string }
  | { kind: 'insert'; placement: 'after' | 'before' | 'end'; anchor: string; after: string }
  | Move
  | Cut
  | { kind: 'meta'; field: 'title' | 'description'; value: string };

export interface PlannedItem {
  item: ApplyItem;
  edit: Edit | null;
  /** The AFTER has gaps the writer model fills before the edit is placed (only with the model on). */
  write?: boolean;
}

export interface ItemsInput {
  markdown: string;
  language: string;
  keyword: string;
  recommendations: readonly Recommendation[];
  paa: readonly string[];
  /** The audited title (supplied title or the page's), if any. */
  title: string | null;
  /** A writer model is configured (APPLY_LLM_*): gaps that need no first-hand facts become selectable. */
  writer?: boolean;
}

/** Over this many words a section is hard to quote as one passage (the engine's chunk dimension). */
export const LONG_SECTION_WORDS = 350;
/** Over this many words a paragraph fails the chunk dimension's paragraph check; split ones aim at LONG_PARAGRAPH_WORDS. */
export const LONG_PARAGRAPH_WORDS = 150;
const PARAGRAPH_TARGET_WORDS = 90;
const words = (s: string): number => (s.match(/\p{L}[\p{L}\p{N}'-]*/gu) ?? []).length;
const hasKeyword = (s: string, keyword: string): boolean => s.toLowerCase().includes(keyword.toLowerCase());
/** A meta description's length (Google shows about this many characters). */
const DESCRIPTION_CHARS = 155;
const MIN_DESCRIPTION_WORDS = 6;

const base = (over: Partial<ApplyItem> & Pick<ApplyItem, 'id' | 'group' | 'label'>): ApplyItem => ({
  selectable: true,
  editorialOnly: false,
  authorDataOnly: false,
  noChange: false,
  priority: 'medium',
  actionType: 'replace',
  section: '',
  before: '',
  after: '',
  impact: 'medium',
  estimatedCqsDelta: 0,
  ...over,
});

/** Honest flags from the change itself: author data, whole-text decisions, nothing to change. */
const finish = (item: ApplyItem, edit: Edit | null, writer = false): PlannedItem => {
  // With a writer model, an AFTER whose gaps ask for general text (an answer, a definition) is
  // written by the model; gaps for the author's own facts keep it authorDataOnly.
  const write = writer && edit !== null && edit.kind !== 'meta' && writableByModel(item.after);
  const authorDataOnly = !write && (item.authorDataOnly || needsAuthorData(item.after));
  // An author task on a sentence keeps it as it is (BEFORE = AFTER): a request, not "nothing to change".
  const noChange = item.noChange || (item.before !== '' && item.before === item.after && !authorDataOnly);
  const editorialOnly = item.editorialOnly || edit === null;
  const selectable = !authorDataOnly && !editorialOnly && !noChange;
  return {
    item: { ...item, authorDataOnly, noChange, editorialOnly, selectable },
    edit,
    ...(write && selectable ? { write: true } : {}),
  };
};

/**
 * One item per recommendation, under the id the engine gave it (rec:1, rec:2, … in the result,
 * summary.topChange and summary.quickWins alike): an id is read, never derived from a position.
 */
const recommendationItems = (recs: readonly Recommendation[], writer: boolean): PlannedItem[] =>
  recs.map((r) => {
    const edit: Edit | null =
      r.before !== ''
        ? { kind: 'replace', before: r.before, after: r.after }
        : r.insertAt
          ? { kind: 'insert', placement: r.insertAt.placement, anchor: r.insertAt.anchor, after: r.after }
          : null;
    return finish(
      base({
        id: r.id,
        group: 'recommendation',
        label: r.title,
        priority: r.priority,
        actionType: r.actionType,
        section: r.section,
        before: r.before,
        after: r.after,
        impact: r.impact,
        estimatedCqsDelta: r.estimatedCqsDelta,
        // The engine marks an AFTER that asks for the author's facts; results stored before it lack the flag.
        authorDataOnly: r.authorDataOnly ?? false,
      }),
      edit,
      writer,
    );
  });

/**
 * The meta description: the article's answer (answerFirst.ts: a statement naming the query, not a
 * byline, a question or throat-clearing), else its first substantive sentence (not a byline or a
 * date line, not a question, not throat-clearing by the engine's own list); followed by the next
 * sentences of its paragraph while they fit.
 */
export const descriptionOf = (
  blocks: Blocks,
  lang: string,
  keyword: string,
  view: EngineView | null = null,
): string => {
  const padding = lexiconFor(lang).throatClearing;
  // A label line ("Price: 1 899 zł") is a fact, not a summary: a description sentence says something.
  const substantive = (x: string) =>
    words(x) >= MIN_DESCRIPTION_WORDS &&
    !/[?？]$/u.test(x) &&
    containsPhrase(x.toLowerCase(), padding) === null &&
    !repeatsKeyword(x, keyword);
  // Neither the answer nor the fallback is a sentence the engine reads as stuffing or filler, or
  // one that leans on the sentence before it ("To pytanie zadaje sobie wiele osób …").
  const unfit = answerUnfit(view);
  const answer = answerSentence(blocks, keyword, lang, unfit);
  const found =
    answer && substantive(answer.sentence)
      ? { sentences: sentencesOf(answer.block.raw).map(stripInline), first: stripInline(answer.sentence) }
      : bodyParagraphs(blocks)
          .map((p) => {
            const sentences = sentencesOf(p.text);
            const first = sentences.find(
              (x, index) => substantive(x) && !unfit(x, { block: p, index, sentences, blocks }),
            );
            return { sentences, first };
          })
          .find((p) => p.first !== undefined);
  if (!found?.first) return '';
  let description = found.first.replace(/\s*\n\s*/g, ' ');
  for (const next of found.sentences.slice(found.sentences.indexOf(found.first) + 1)) {
    if (`${description} ${next}`.length > DESCRIPTION_CHARS) break;
    description = `${description} ${next}`;
  }
  return description.length > DESCRIPTION_CHARS
    ? `${description.slice(0, DESCRIPTION_CHARS - 3).replace(/\s+\S*$/, '')}…`
    : description;
};

/**
 * At most `max` characters, never ending inside a word ("… A 30-Minute Routine" is not cut to
 * "… A 3"); where the title has a joint (a colon, a dash) past half the length, it ends there
 * rather than after a dangling word ("…: a").
 */
export const cutAtWord = (text: string, max: number): string => {
  if (text.length <= max) return text.trim();
  const cut = text
    .slice(0, max + 1)
    .replace(/\s+\S*$/u, '')
    .replace(/[\s:;,–-]+$/u, '');
  const joint = Math.max(cut.lastIndexOf(': '), cut.lastIndexOf(' – '), cut.lastIndexOf(' — '), cut.lastIndexOf(' | '));
  return joint >= max / 2 ? cut.slice(0, joint).trim() : cut;
};

/**
 * A cut title does not end on a function word or on part of the keyword ("… Guide About Tablet vs"
 * of "tablet vs laptop"): words go from its end until it ends on a word that closes a phrase. If
 * that leaves less than half the title, the title stays as it was (no suggestion beats a broken one).
 */
export const withoutDanglingEnd = (cut: string, title: string, keyword: string, lang: string): string => {
  if (cut === title.trim()) return cut;
  const stop = stopwordsFor(lang);
  const kw = keyword.toLowerCase().split(/\s+/).filter(Boolean);
  const words = cut.split(/\s+/);
  const low = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]+$/u, '');
  const dropStopWords = () => {
    while (words.length > 1 && stop.has(low(words[words.length - 1]!))) words.pop();
  };
  dropStopWords();
  // The cut ends inside the keyword: its last k words are the keyword's first k.
  for (let k = Math.min(kw.length - 1, words.length - 1); k > 0; k--)
    if (words.slice(-k).map(low).join(' ') === kw.slice(0, k).join(' ')) {
      words.splice(words.length - k, k);
      dropStopWords();
      break;
    }
  const out = words.join(' ').replace(/[\s:;,–—|-]+$/u, '');
  if (out === cut) return cut;
  return out.length >= title.length / 2 ? out : title;
};

const metaItems = (inp: ItemsInput, blocks: Blocks, view: EngineView | null): PlannedItem[] => {
  const { language: lang, keyword } = inp;
  const title = inp.title ?? '';
  // Only a title too long to show whole is changed (cut at a word). The keyword is never glued to
  // the front of a title that lacks it ("Descale espresso machine: How to …" reads as stuffing, and
  // a bare keyword as the title is a heading made of the keyword): that stays the writer's call.
  const newTitle = hasKeyword(title, keyword) ? withoutDanglingEnd(cutAtWord(title, 65), title, keyword, lang) : title;
  const goodTitle = newTitle === title;
  const description = descriptionOf(blocks, lang, keyword, view);
  return [
    finish(
      base({
        id: 'meta:title',
        group: 'meta',
        label: t(
          lang,
          'Title short enough to show in full',
          'Tytuł na tyle krótki, by wyświetlił się w całości',
          'Titel kurz genug, um ganz angezeigt zu werden',
        ),
        section: t(lang, 'Title and H1', 'Tytuł i H1', 'Titel und H1'),
        before: title,
        after: newTitle,
        noChange: goodTitle,
        priority: 'high',
        estimatedCqsDelta: 0,
        impact: 'medium',
      }),
      { kind: 'meta', field: 'title', value: newTitle },
    ),
    finish(
      base({
        id: 'meta:description',
        group: 'meta',
        label: t(
          lang,
          'Meta description from the answer in the text',
          'Opis meta z odpowiedzi zawartej w tekście',
          'Meta-Beschreibung aus der Antwort im Text',
        ),
        section: t(lang, 'Page code (head)', 'Kod strony (head)', 'Seitencode (head)'),
        actionType: 'add',
        before: '',
        after: description,
        noChange: description === '',
        impact: 'low',
        priority: 'medium',
      }),
      { kind: 'meta', field: 'description', value: description },
    ),
  ];
};

type H2Section = { heading: string; body: Blocks };

/** Answer first: the answer is moved to the opening, never copied (the text holds it once). */
const answerFirstItem = (inp: ItemsInput, blocks: Blocks, view: EngineView | null): PlannedItem[] => {
  const { language: lang, keyword } = inp;
  const out: PlannedItem[] = [];
  const first = blocks.find((b) => b.kind === 'paragraph');
  const af = answerFirst(inp.markdown, blocks, keyword, lang, answerUnfit(view));
  if (first) {
    out.push(
      finish(
        base({
          id: 'struct:answer-first',
          group: 'structure',
          label: t(
            lang,
            'Answer first: open with the sentence that answers the query',
            'Odpowiedź na początku: zacznij od zdania, które odpowiada na zapytanie',
            'Antwort zuerst: mit dem Satz beginnen, der die Suchanfrage beantwortet',
          ),
          section: t(lang, 'Introduction', 'Wstęp', 'Einleitung'),
          actionType: 'restructure',
          before: af.before,
          after: af.after,
          noChange: af.already || af.move === null,
          priority: 'high',
          impact: 'high',
        }),
        af.already ? null : af.move,
      ),
    );
  }
  return out;
};

/** The H2 sections with their bodies (blocks up to the next H2 or H1). */
const h2Sections = (blocks: Blocks): H2Section[] => {
  let sectionStart = -1;
  const sections: H2Section[] = [];
  blocks.forEach((b, i) => {
    if (b.kind === 'heading' && b.level === 2) {
      sectionStart = i;
      sections.push({ heading: b.text, body: [] });
    } else if (sectionStart >= 0 && !(b.kind === 'heading' && b.level <= 2))
      sections[sections.length - 1]!.body.push(b);
  });
  return sections;
};

/** Each over-long H2 section split at the paragraph boundary nearest its middle. */
const sectionSplitItems = (inp: ItemsInput, sections: H2Section[]): PlannedItem[] => {
  const { language: lang } = inp;
  const out: PlannedItem[] = [];
  sections.forEach((s, n) => {
    const paras = s.body.filter((b) => b.kind === 'paragraph');
    const total = words(s.body.map((b) => b.text).join(' '));
    if (total <= LONG_SECTION_WORDS || paras.length < 2) return;
    let acc = 0;
    const at = paras.findIndex((p) => (acc += words(p.text)) >= total / 2);
    const split = paras[Math.min(Math.max(at + 1, 1), paras.length - 1)]!;
    const heading = `### ${s.heading}: ${t(lang, 'in detail', 'szczegóły', 'im Detail')}`;
    out.push(
      finish(
        base({
          id: `struct:split:${n}`,
          group: 'structure',
          section: s.heading,
          actionType: 'restructure',
          priority: 'medium',
          impact: 'medium',
          label: t(
            lang,
            `Split the long section “${s.heading}” (${total} words) in two`,
            `Podziel długą sekcję „${s.heading}” (${total} słów) na dwie`,
            `Den langen Abschnitt „${s.heading}“ (${total} Wörter) teilen`,
          ),
          before: split.raw,
          after: `${heading}\n\n${split.raw}`,
        }),
        { kind: 'replace', before: split.raw, after: `${heading}\n\n${split.raw}` },
      ),
    );
  });
  return out;
};

/** FAQ from the benchmark's People Also Ask: the answers are the author's to write. */
const faqItem = (inp: ItemsInput, blocks: Blocks): PlannedItem[] => {
  const { language: lang } = inp;
  const out: PlannedItem[] = [];
  if (inp.paa.length > 0) {
    const fill = t(
      lang,
      '[fill in: a 2-3 sentence answer]',
      '[uzupełnij: odpowiedź w 2-3 zdaniach]',
      '[ergänzen: eine Antwort in 2-3 Sätzen]',
    );
    const faq = [
      `## ${t(lang, 'Frequently asked questions', 'Najczęściej zadawane pytania', 'Häufig gestellte Fragen')}`,
      ...inp.paa.slice(0, 5).map((q) => `### ${q}\n\n${fill}`),
    ].join('\n\n');
    out.push(
      finish(
        base({
          id: 'struct:faq',
          group: 'structure',
          label: t(
            lang,
            'FAQ block from the questions searchers ask',
            'Blok FAQ z pytań zadawanych w wyszukiwarce',
            'FAQ-Block aus den Fragen der Suchenden',
          ),
          section: t(lang, 'End of the article', 'Koniec artykułu', 'Ende des Artikels'),
          actionType: 'add',
          after: faq,
          priority: 'medium',
          impact: 'medium',
        }),
        closingHeading(blocks, lang)
          ? { kind: 'insert', placement: 'before', anchor: closingHeading(blocks, lang)!, after: faq }
          : { kind: 'insert', placement: 'end', anchor: '', after: faq },
        inp.writer,
      ),
    );
  }
  return out;
};

/**
 * A link to an anchor in the text, `](#…)`, as /\]\(#[^)]+\)/ finds one, read once: the expression
 * scanned from every later `](#` to the end again, and 50,000 of them without a `)` took 13 s.
 */
const linksToAnchor = (s: string): boolean => {
  const lastClose = s.lastIndexOf(')');
  for (let p = s.indexOf('](#'); p >= 0 && p + 3 < lastClose; p = s.indexOf('](#', p + 1))
    if (s[p + 3] !== ')') return true;
  return false;
};

/**
 * A table of contents after the introduction (before the first H2) when there are three or more
 * H2 sections. Anchors by the one rule the preview's heading ids follow (anchors.ts).
 */
const tocItem = (inp: ItemsInput, blocks: Blocks, sections: H2Section[]): PlannedItem[] => {
  const { language: lang } = inp;
  const out: PlannedItem[] = [];
  const hasToc = linksToAnchor(inp.markdown);
  const headings = blocks.filter((b) => b.kind === 'heading');
  const anchors = anchorsOf(headings.map((h) => h.text));
  const firstH2 = headings.find((h) => h.level === 2);
  if (sections.length >= 3 && firstH2) {
    const toc = [
      `**${t(lang, 'Contents', 'Spis treści', 'Inhalt')}**`,
      '',
      ...headings.flatMap((h, i) => (h.level === 2 ? [`- [${h.text}](#${anchors[i]})`] : [])),
    ].join('\n');
    out.push(
      finish(
        base({
          id: 'struct:toc',
          group: 'structure',
          label: t(
            lang,
            'Table of contents after the introduction',
            'Spis treści po wstępie',
            'Inhaltsverzeichnis nach der Einleitung',
          ),
          section: t(lang, 'Introduction', 'Wstęp', 'Einleitung'),
          actionType: 'add',
          after: toc,
          noChange: hasToc,
          priority: 'bonus',
          impact: 'low',
        }),
        { kind: 'insert', placement: 'before', anchor: firstH2.raw, after: toc },
      ),
    );
  }
  return out;
};

const structureItems = (inp: ItemsInput, view: EngineView | null): PlannedItem[] => {
  const blocks = parseMarkdown(inp.markdown).blocks;
  const sections = h2Sections(blocks);
  const padding = paddingItems(inp, blocks);
  // A sentence another item already cuts or rewrites is not offered twice (noise).
  const taken = new Set(
    [...inp.recommendations.map((r) => r.before), ...padding.map((p) => p.item.before)]
      .filter(Boolean)
      .flatMap((b) => splitSentences(b).map((x) => norm(stripInline(x)))),
  );
  return [
    ...answerFirstItem(inp, blocks, view),
    ...sectionSplitItems(inp, sections),
    // Cuts first: a paragraph split then skips a paragraph a cut already changed (overlapping).
    ...stuffingItems(inp, blocks, view, taken),
    ...padding,
    ...paragraphItems(inp, blocks),
    ...faqItem(inp, blocks),
    ...tocItem(inp, blocks, sections),
  ];
};

/**
 * The closing section's heading (the last H2, when it reads as a summary or conclusion in the
 * article's language: the engine's list), where new sections go before rather than after the
 * article's sign-off; null when the article ends otherwise.
 */
const closingHeading = (blocks: Blocks, lang: string): string | null => {
  const h2s = blocks.filter((b) => b.kind === 'heading' && b.level === 2);
  const last = h2s[h2s.length - 1];
  if (!last || h2s.length < 2) return null;
  return isConclusionHeading(last.text, lexiconFor(lang)) ? last.raw : null;
};

/**
 * Sentences of an over-long paragraph grouped into paragraphs of about PARAGRAPH_TARGET_WORDS
 * words, breaking only between sentences; null when it has too few sentences to break.
 */
export const splitParagraph = (text: string): string | null => {
  const sentences = splitSentences(text.replace(/\s*\n\s*/g, ' '));
  const total = words(text);
  const parts = Math.min(sentences.length, Math.ceil(total / PARAGRAPH_TARGET_WORDS));
  if (parts < 2) return null;
  const groups: string[][] = [[]];
  let acc = 0;
  let done = 0;
  for (const s of sentences) {
    // Open the next group once this one holds its share of what is left.
    const share = (total - done + acc) / (parts - groups.length + 1);
    if (acc >= share && groups.length < parts) {
      groups.push([]);
      acc = 0;
    }
    groups[groups.length - 1]!.push(s);
    acc += words(s);
    done += words(s);
  }
  return groups.length < 2 ? null : groups.map((g) => g.join(' ')).join('\n\n');
};

/** At most this many padding sentences are offered for cutting. */
const MAX_PADDING_ITEMS = 5;

/**
 * Sentences that clear the throat instead of saying something ("In this article we will…", "Have
 * you ever wondered…", the engine's throat-clearing list for the language), offered for cutting
 * one by one. A sentence with a figure, or the only sentence of its paragraph, is left alone: the
 * first may carry a fact, the second would leave a hole.
 */
type Blocks = ReturnType<typeof parseMarkdown>['blocks'];

/** The paragraphs, each with the heading of its section (the introduction before the first). */
const paragraphsIn = (blocks: Blocks, lang: string): { b: Blocks[number]; section: string }[] => {
  let section = t(lang, 'Introduction', 'Wstęp', 'Einleitung');
  const out: { b: Blocks[number]; section: string }[] = [];
  for (const b of blocks) {
    if (b.kind === 'heading' && b.level >= 2) section = b.text;
    else if (b.kind === 'paragraph') out.push({ b, section });
  }
  return out;
};

const paddingItems = (inp: ItemsInput, blocks: Blocks): PlannedItem[] => {
  const { language: lang } = inp;
  const phrases = lexiconFor(lang).throatClearing;
  const out: PlannedItem[] = [];
  let k = 0;
  for (const { b, section } of paragraphsIn(blocks, lang)) {
    const sentences = splitSentences(b.raw);
    if (sentences.length < 2) continue;
    sentences.forEach((sentence) => {
      // The engine's own test of throat-clearing (bluf), so a cut is what the score counts as one.
      if (/\p{N}/u.test(sentence) || containsPhrase(sentence.toLowerCase(), phrases) === null) return;
      // The rewrite takes a neighbouring space with a removed sentence.
      if (!b.raw.includes(sentence) || out.length >= MAX_PADDING_ITEMS) return;
      out.push(
        finish(
          base({
            id: `struct:padding:${k++}`,
            group: 'structure',
            section,
            actionType: 'remove',
            priority: 'bonus',
            impact: 'low',
            label: t(
              lang,
              'Cut a sentence that pads instead of saying something',
              'Usuń zdanie, które tylko wypełnia miejsce',
              'Einen Füllsatz streichen, der nichts aussagt',
            ),
            before: sentence,
            after: '',
          }),
          { kind: 'replace', before: sentence, after: '' },
        ),
      );
    });
  }
  return out;
};

/** Each paragraph over LONG_PARAGRAPH_WORDS broken into paragraphs at sentence boundaries. */
const paragraphItems = (inp: ItemsInput, blocks: Blocks): PlannedItem[] => {
  const { language: lang } = inp;
  const out: PlannedItem[] = [];
  for (const [n, { b, section }] of paragraphsIn(blocks, lang).entries()) {
    const total = words(b.text);
    if (total <= LONG_PARAGRAPH_WORDS) continue;
    const after = splitParagraph(b.raw);
    if (after === null) continue;
    out.push(
      finish(
        base({
          id: `struct:paragraph:${n}`,
          group: 'structure',
          section,
          actionType: 'restructure',
          priority: 'medium',
          impact: 'medium',
          label: t(
            lang,
            `Break a ${total}-word paragraph into shorter ones`,
            `Podziel akapit (${total} słów) na krótsze`,
            `Einen Absatz mit ${total} Wörtern in kürzere teilen`,
          ),
          before: b.raw,
          after,
        }),
        { kind: 'replace', before: b.raw, after },
      ),
    );
  }
  return out;
};

/**
 * The keyword stuffing of a paragraph cut as its named sentences (stuffingCuts.ts: the engine's
 * own rules of what is stuffing and what may be cut whole), one item per paragraph.
 */
const stuffingItems = (
  inp: ItemsInput,
  blocks: Blocks,
  view: EngineView | null,
  taken: ReadonlySet<string>,
): PlannedItem[] => {
  const { language: lang } = inp;
  const sections = paragraphsIn(blocks, lang);
  return stuffedParagraphs(blocks, view, taken).map(({ block, sentences, copies }, k) => {
    const after = afterCut(block.raw, sentences);
    const edit: Cut = { kind: 'cut', within: block.raw, sentences, every: copies > 1 };
    const n = sentences.length;
    const times =
      copies > 1
        ? t(
            lang,
            ` (all ${copies} copies)`,
            ` (wszystkie ${count(lang, copies, ['copy', 'copies'], ['powtórzenie', 'powtórzenia', 'powtórzeń'])})`,
            ` (alle ${copies} Kopien)`,
          )
        : '';
    return finish(
      base({
        id: `struct:stuffing:${k}`,
        group: 'structure',
        section: sections.find((x) => x.b === block)?.section ?? '',
        actionType: 'remove',
        priority: 'high',
        impact: 'medium',
        label:
          after === ''
            ? t(
                lang,
                `Cut a paragraph that only repeats the keyword${times}`,
                `Usuń akapit, który tylko powtarza frazę${times}`,
                `Einen Absatz streichen, der nur das Keyword wiederholt${times}`,
              )
            : n === 1
              ? t(
                  lang,
                  `Cut a sentence that only repeats the keyword${times}`,
                  `Usuń zdanie, które tylko powtarza frazę${times}`,
                  `Einen Satz streichen, der nur das Keyword wiederholt${times}`,
                )
              : t(
                  lang,
                  `Cut ${n} sentences that only repeat the keyword${times}`,
                  `Usuń ${count(lang, n, ['sentence', 'sentences'], ['zdanie', 'zdania', 'zdań'])}, które tylko powtarzają frazę${times}`,
                  `${n} Sätze streichen, die nur das Keyword wiederholen${times}`,
                ),
        before: block.raw,
        after,
      }),
      edit,
    );
  });
};

/** Every item of an audit (spec 2.5), in a stable order with ids stable for the audit. */
export const planItems = (inp: ItemsInput): PlannedItem[] => {
  const blocks = parseMarkdown(inp.markdown).blocks;
  // The engine's reading of this text: what it scores as stuffing or as saying nothing.
  const view = engineView(inp.markdown, inp.keyword, inp.language);
  return [
    ...recommendationItems(inp.recommendations, inp.writer ?? false),
    ...metaItems(inp, blocks, view),
    ...structureItems(inp, view),
  ];
};
