import type { ScoringContext, Finding } from '../context.ts';
import { evidenceOf } from '../evidence.ts';
import { creditless, type Gaming } from './gaming.ts';
import { sectionLabels, t } from '../labels.ts';
import { linkedTexts } from '../text/linkScan.ts';
import { tokenize } from '../text/segment.ts';
import { isConclusionHeading, opensAsConclusion } from '../conclusion.ts';
import type { ActionType, Block, Change, Doc, Placement, Section, Sentence } from '../types.ts';

export const clamp = (x: number, lo = 0, hi = 10): number => Math.min(hi, Math.max(lo, x));
export const round1 = (x: number): number => Math.round(x * 10) / 10;
export const round2 = (x: number): number => Math.round(x * 100) / 100;

export const sectionName = (doc: Doc, index: number): string => {
  const sec = doc.sections[index];
  if (sec?.heading) return sec.heading.text;
  // Before the first subheading is the introduction; on a page without one, the whole text (a
  // sentence of its closing paragraph labelled "Introduction" sent the writer to the wrong place).
  const L = sectionLabels(doc.language);
  return doc.sections.some((s) => (s.heading?.level ?? 0) >= 2) ? L.intro : L.body;
};

/** Text occurs exactly once in the content, so replacing or anchoring on it is unambiguous. */
export const unique = (content: string, s: string): boolean => {
  if (!s) return false;
  const i = content.indexOf(s);
  return i >= 0 && content.indexOf(s, i + 1) < 0;
};

export const replaceChange = (doc: Doc, before: string, after: string): Change | null =>
  unique(doc.content, before) && before !== after ? { kind: 'replace', before, after } : null;

export const insertChange = (doc: Doc, placement: Placement, anchor: string, after: string): Change | null =>
  placement === 'end' || unique(doc.content, anchor)
    ? { kind: 'insert', placement, anchor: placement === 'end' ? '' : anchor, after }
    : null;

/** The value a number, a price or an author-data slot gives a sentence. */
export const hasValue = (text: string, slot: string): boolean => /\p{N}/u.test(text) || text.includes(slot);

/**
 * The writer's own informative words: support sentences (quoted speech, a sourced figure, a citation)
 * are judged as evidence, so they neither dilute a rate nor lengthen the text.
 */
export const writerWords = (doc: Doc, g: Gaming): number =>
  Math.max(
    1,
    g.informativeWords -
      [...evidenceOf(doc).sentences].reduce(
        (a, s) => a + (g.filler.has(s) || g.stuffedSentences.has(s) ? 0 : s.words.length),
        0,
      ),
  );

/**
 * The sentences whose words are the writer's topical vocabulary (tfidf, and the audited page's own
 * terms in the SERP's idf): no filler, stuffing, support, or paragraph that says nothing specific.
 */
export const termSentences = (doc: Doc, g: Gaming): Sentence[] => {
  const support = evidenceOf(doc).sentences;
  const none = creditless(g);
  return doc.sentences.filter((s) => !none.has(s) && !g.stuffedSentences.has(s) && !support.has(s));
};

/** A sentence with a value counts as at most this many words of the rate's base. */
const VALUE_SENTENCE_WORDS = 20;

/**
 * Words a rate of value sentences is read over: a support sentence without a value (a quotation, a
 * source's advice) is no claim left without its number, so it does not dilute the rate; nor does a
 * long sentence that gives a value (it counts as 20 words), or adding a 30-word statistic to a page
 * dense with values would lower its value rate.
 */
export const valueBaseWords = (doc: Doc, slot: string): number => {
  const support = evidenceOf(doc).sentences;
  let base = doc.words;
  for (const s of doc.sentences) {
    if (hasValue(s.text, slot)) base -= Math.max(0, s.words.length - VALUE_SENTENCE_WORDS);
    else if (support.has(s)) base -= s.words.length;
  }
  return Math.max(1, base);
};

export const capitalise = (s: string): string => (s ? s[0]!.toLocaleUpperCase() + s.slice(1) : s);
export const lowerFirst = (s: string): string =>
  s && !/^\p{Lu}{2}/u.test(s) ? s[0]!.toLocaleLowerCase() + s.slice(1) : s;

export const finding = (
  f: Omit<Finding, 'gate' | 'competitors' | 'change' | 'severity'> &
    Partial<Pick<Finding, 'gate' | 'competitors' | 'change' | 'severity'>>,
): Finding => ({ gate: false, competitors: [], change: null, severity: 0.3, ...f });

export const fill = (template: string, entity: string): string =>
  template.replace(/\{E\}/g, capitalise(entity)).replace(/\{e\}/g, entity);

/**
 * A block that closes the article rather than informing: a sign-off that turns to the reader (a
 * short paragraph ending on a question or an exclamation), a conclusion, or a block that is mostly
 * links (a call to action, cross-links). New sections go above it: one appended after the sign-off
 * or a shop page's footer reads as stuck on (blind review r3).
 */
const closes = (b: Block, ctx: ScoringContext): boolean => {
  if (b.kind === 'heading') return false;
  const text = b.text.trim();
  const linked = linkedTexts(b.raw).join(' ');
  if (text && linked.length >= 0.5 * text.length) return true;
  if (b.kind !== 'paragraph') return false;
  const n = tokenize(text).length;
  // A note set apart in emphasis (an affiliate or editorial note).
  if (/^\s*[*_]/u.test(b.raw) && /[*_]\s*$/u.test(b.raw) && n <= 40) return true;
  // A short paragraph without a figure that turns to the reader ("Thanks for reading …").
  const address = !/\p{N}/u.test(text) && n <= 60 && tokenize(text).some((w) => ctx.lex.readerAddress.includes(w));
  return (/[?!]\W*$/u.test(text) && n <= 80) || address || opensAsConclusion(text, ctx);
};

/** Where new sections go: before a closing section or sign-off when there is one, else at the end. */
export const newSectionPlace = (
  doc: Doc,
  ctx: ScoringContext,
): { placement: Placement; anchor: string; sectionIndex: number } => {
  const last = doc.sections[doc.sections.length - 1];
  if (last?.heading && doc.sections.length > 1) {
    if (isConclusionHeading(last.heading.text, ctx.lex) && unique(doc.content, last.heading.raw)) {
      return { placement: 'before', anchor: last.heading.raw, sectionIndex: last.index };
    }
  }
  // A last section that is all sign-off (a "Contact us" section of calls to action, a closing
  // note under its own heading): the new section goes above its heading, not inside it after the
  // first closing block (blind review r7: a PAA heading after a review's closing call to action).
  if (last?.heading && doc.sections.length > 1 && unique(doc.content, last.heading.raw)) {
    const body = last.blocks.filter((b) => b.kind !== 'heading');
    if (body.length > 0 && body.length <= 3 && body.every((b) => closes(b, ctx)))
      return { placement: 'before', anchor: last.heading.raw, sectionIndex: last.index };
  }
  if (last) {
    // At most the last three blocks, and never all of the section's body.
    const body = last.blocks.filter((b) => b.kind !== 'heading');
    let k = body.length;
    while (k > Math.max(1, body.length - 3) && closes(body[k - 1]!, ctx)) k--;
    // The article's last paragraph without a figure is its wrap-up ("Hopefully this guide …").
    const lastBlock = body[body.length - 1];
    if (k === body.length && body.length >= 2 && lastBlock?.kind === 'paragraph' && !/\p{N}/u.test(lastBlock.text)) k--;
    const first = body[k];
    if (k < body.length && first && unique(doc.content, first.raw))
      return { placement: 'before', anchor: first.raw, sectionIndex: last.index };
  }
  // Else after the article's last block, named and quoted, so the place reads as the text shows it
  // (an empty anchor "at the end" left an editor to guess where the end is).
  const tail = [...doc.blocks].reverse().find((b) => b.raw.trim() && unique(doc.content, b.raw));
  if (tail) return { placement: 'after', anchor: tail.raw, sectionIndex: doc.sections.length };
  return { placement: 'end', anchor: '', sectionIndex: doc.sections.length };
};

/**
 * Where a section answering a question goes: after the section that already speaks of what it
 * asks (its heading and text share at least two of the question's own content words, the
 * keyword's left out), so the answer stands beside the matter it completes (blind review r22: a
 * solvent question belongs with the oil-paint section, not before the summary). The section is
 * closed by the next heading, which anchors the insert; a page whose matching section is its last
 * or its conclusion, or none, gets `newSectionPlace`.
 */
export const questionSectionPlace = (
  doc: Doc,
  ctx: ScoringContext,
  questionStems: string[],
): { placement: Placement; anchor: string; sectionIndex: number } => {
  const fallback = newSectionPlace(doc, ctx);
  const kw = new Set(ctx.kw.stems);
  const own = [...new Set(questionStems.filter((q) => !kw.has(q)))];
  if (own.length < 2) return fallback;
  const shared = (sec: Section): number => {
    const stems = new Set([
      ...(sec.heading ? ctx.an.contentStems(sec.heading.text) : []),
      ...(doc.bySection[sec.index] ?? []).flatMap((x) => x.stems),
    ]);
    return own.filter((q) => stems.has(q)).length;
  };
  let best: Section | null = null;
  let most = 1;
  for (const sec of doc.sections)
    if (!sec.heading || !isConclusionHeading(sec.heading.text, ctx.lex)) {
      const n = shared(sec);
      if (n > most) [best, most] = [sec, n];
    }
  const next = best ? doc.sections[doc.sections.indexOf(best) + 1] : undefined;
  if (!next?.heading || isConclusionHeading(next.heading.text, ctx.lex) || !unique(doc.content, next.heading.raw))
    return fallback;
  return { placement: 'before', anchor: next.heading.raw, sectionIndex: next.index };
};

/**
 * Where a new section goes, in the words an editor reads beside the quoted anchor: before the
 * closing section (named), before the article's closing lines, or at its end. Never the name of a
 * section the new one does not go into ("Introduction" for a section added at the end).
 */
export const placeLabel = (doc: Doc, place: { placement: Placement; anchor: string }): string => {
  const lang = doc.language;
  const heading = doc.blocks.find((b) => b.kind === 'heading' && b.raw === place.anchor);
  if (place.placement === 'before' && heading)
    return t(
      lang,
      `New section before "${heading.text}"`,
      `Nowa sekcja przed „${heading.text}”`,
      `Neuer Abschnitt vor „${heading.text}“`,
    );
  if (place.placement === 'before')
    return t(
      lang,
      'End of the article, before its closing lines',
      'Koniec artykułu, przed jego zakończeniem',
      'Ende des Artikels, vor dem Schluss',
    );
  return sectionLabels(lang).end;
};

/** The first paragraph of a section (its raw source), when it is unique in the content. */
export const firstParagraph = (doc: Doc, sec: Section): { raw: string; text: string } | null => {
  const p = sec.blocks.find((b) => b.kind === 'paragraph');
  return p && unique(doc.content, p.raw) ? { raw: p.raw, text: p.text } : null;
};

/** Prose sentences of the body. */
export const proseOf = (doc: Doc): Sentence[] => doc.sentences.filter((s) => s.kind === 'prose');

export const lowerText = (s: Sentence): string => s.text.toLowerCase();

/** Headed sections (level 2+). */
export const headed = (doc: Doc): Section[] => doc.sections.filter((s) => s.heading !== null);

/**
 * Subsections that are the page's own text (level 2+): not the conclusion ("Fazit", "Summary") and
 * not the apparatus ("Sources", "FAQ", "Contact"), which need no topic words and answer no heading.
 */
export const bodySections = (doc: Doc, lex: Pick<ScoringContext, 'lex'>['lex']): Section[] => {
  const apparatus = (text: string) =>
    lex.apparatusHeadings.includes(
      text
        .toLowerCase()
        .replace(/[:.]\s*$/u, '')
        .trim(),
    );
  return headed(doc).filter(
    (s) => s.level >= 2 && !isConclusionHeading(s.heading?.text ?? '', lex) && !apparatus(s.heading?.text ?? ''),
  );
};

/**
 * A heading that only stands over its subsections ("Step by step", then "1. …"): no text of its
 * own, the next section deeper. It is judged by its subsections, never as a passage.
 */
export const overSubsections = (doc: Doc, s: Section): boolean => s.words === 0 && hasSubsections(doc, s);

/** The next section is deeper: this one has subsections under it. */
export const hasSubsections = (doc: Doc, s: Section): boolean => (doc.sections[s.index + 1]?.level ?? 0) > s.level;

export const actionOf = (change: Change | null, fallback: ActionType): ActionType => {
  if (!change) return fallback;
  if (change.kind === 'insert') return 'add';
  return change.after === '' ? 'remove' : fallback;
};

/** Words of a text window: the first `n` words of a sentence list. */
export const firstWords = (sentences: Sentence[], n: number): { words: string[]; stems: string[]; text: string } => {
  const words: string[] = [];
  const stems: string[] = [];
  const texts: string[] = [];
  for (const s of sentences) {
    if (words.length >= n) break;
    texts.push(s.text);
    for (let i = 0; i < s.words.length && words.length < n; i++) {
      words.push(s.words[i] ?? '');
      stems.push(s.stems[i] ?? '');
    }
  }
  return { words, stems, text: texts.join(' ') };
};

export const containsPhrase = (lowerTextValue: string, phrases: string[]): string | null => {
  for (const p of phrases) if (lowerTextValue.includes(p)) return p;
  return null;
};

/** Removes a deletable phrase from a sentence and re-capitalises its start. */
export const removePhrase = (sentence: string, phrase: string): string | null => {
  const i = sentence.toLowerCase().indexOf(phrase);
  if (i < 0) return null;
  const out = sentence.slice(0, i) + sentence.slice(i + phrase.length);
  return i === 0 ? capitalise(out) : out;
};

/**
 * A removal of text that occurs more than once: the occurrence is made unique by the words just
 * before it, which the change keeps (BEFORE = context + text, AFTER = context).
 */
export const removalChange = (doc: Doc, text: string, nth = 0): Change | null => {
  if (unique(doc.content, text)) return { kind: 'replace', before: text, after: '' };
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = doc.content.indexOf(text, i + 1);
    if (i < 0) return null;
  }
  for (const span of [40, 80, 160]) {
    let start = Math.max(0, i - span);
    while (start > 0 && !/\s/.test(doc.content[start - 1] ?? '')) start--;
    const context = doc.content.slice(start, i);
    if (!context.trim()) continue;
    const before = context + text;
    if (unique(doc.content, before)) return { kind: 'replace', before, after: context.replace(/\s+$/, '') };
  }
  return null;
};

/** A quote of at most `max` characters, cut at a word boundary and marked as cut ("…"). */
export const excerpt = (text: string, max = 90): string => {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const at = cut.search(/\s+\S*$/u);
  return `${(at > max / 2 ? cut.slice(0, at) : text.slice(0, max)).replace(/[\s,;:–-]+$/u, '')}…`;
};
