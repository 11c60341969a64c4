import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import type { Analyzer } from '../document.ts';
import { holdsHead, keyphraseHead } from '../headNoun.ts';
import { coverage, occurrences, subjectPhrase } from '../keyword.ts';
import type { KeywordInfo, Sentence } from '../types.ts';
import { evidenceOf } from '../evidence.ts';
import { creditless, gamingOf } from './gaming.ts';
import { trimFindings } from './stuffingTrim.ts';
import { headingTrimFinding } from './headingTrim.ts';
import { verbatimQueryTask } from './verbatimQuery.ts';
import { keptWhole, removableStuffing } from '../grounding.ts';
import { count, num, percent, t } from '../labels.ts';
import { ALL_INTENTS, intentModifiers } from '../text/lexicon.ts';
import { tokenize } from '../text/segment.ts';
import type { Doc } from '../types.ts';
import {
  clamp,
  excerpt,
  finding,
  firstParagraph,
  headed,
  insertChange,
  proseOf,
  removalChange,
  round1,
  round2,
  sectionName,
  unique,
} from './helpers.ts';

/** A short quotation of a sentence, cut at a word boundary: it says which sentence a problem means. */
const quote = (s: { text: string }): string => excerpt(s.text, 60);

/**
 * density: keyphrase matches (every content word of the keyphrase in one sentence) per 100 words
 * of the writer's informative text (filler and support sentences do not dilute it; stuffed units
 * are not matches, but the over-use gate counts them). Natural use scores 10: from 0.5% of mentions (a sentence with half the phrase's words, the
 * subject, counts half) up to the ceiling, 3% for a phrase of several content words and 6% for a
 * lone subject noun ("what is a cookie" names its subject in most sentences). Below 0.5% it rises
 * from 2 to 8; up to 1 point over the ceiling scores 1; beyond, 0 and CQS capped at 60. Stuffing
 * (keyphrase-only sentences, bold lines, a phrase said twice in a line or subheading) costs a point
 * per use beyond the natural allowance. Distribution (at 0.5% or more): the longest run of sentences
 * that do not name the subject (the keyphrase, or half its words) costs 0.1 a point over 30%, at most
 * 4 (70%). Intent modifiers ("best", "opinie") are not part of the match (keyword.ts). Keyphrase
 * words in 30–75% of the subheadings, else −1.
 */

/**
 * A sentence naming what the keyword's refinement marks as a whole use (keyword.ts: a local page's
 * service, "a beautician" on a salon's page for "kosmetyczka toruń"; a report's event, "the strike"
 * in a report for "perth bus strike") is a natural use: the page states the rest once, where it
 * says where it is or what happened where.
 */
const wholeUse = (s: { content: string[] }, kw?: KeywordInfo): boolean =>
  kw?.wholeUse !== undefined &&
  kw.wholeUse.length > 0 &&
  kw.wholeUse.length < kw.stems.length &&
  coverage(s.content, kw.wholeUse) === 1;

/** The keyword's words that make a whole use, as the keyword writes them ("strike", "fryzjer"). */
const wholeUseWords = (kw: KeywordInfo, an: Analyzer): string =>
  tokenize(kw.text)
    .filter((w) => kw.wholeUse?.includes(an.stem(w)))
    .join(' ');

/**
 * The heads of the keyword's closed compounds that the text uses as words of their own: "filter"
 * for "Wasserfilter" when the text says "der Filter". Only where compounds are written closed
 * (German); an English writer writes "water filter" as two words, whose half is already counted.
 */
const compoundHeads = (doc: Doc, kwStems: string[], lang: string): Set<string> => {
  if (lang !== 'de') return new Set();
  const words = new Set(doc.sentences.flatMap((s) => s.content));
  return new Set(
    [...words].filter((w) => w.length >= 4 && kwStems.some((k) => k.length >= w.length + 3 && k.endsWith(w))),
  );
};

/**
 * How much of the keyphrase a sentence names, when it does not say it whole: each keyword word
 * it holds (in German also as the last part of a compound: a "Tischwasserfilter" is a
 * "Wasserfilter"), and half of a keyword compound whose head it says alone ("der Filter"), as
 * "the filter" is half of "water filter". Half or more names the subject.
 */
const subjectShare = (content: string[], kwStems: string[], heads: Set<string>, lang: string): number => {
  if (!kwStems.length) return 0;
  // Outside German only whole words count: the plain share, without looking into compounds.
  if (lang !== 'de') return coverage(content, kwStems);
  let named = 0;
  for (const k of kwStems)
    if (holdsHead(content, k, lang)) named += 1;
    else if (content.some((c) => heads.has(c) && k.endsWith(c))) named += 0.5;
  return named / kwStems.length;
};

/**
 * A sentence names the subject in part: half the keyphrase's words or more (subjectShare), or, for
 * a long keyphrase ("monitor for photo editing", said whole where it is introduced), its head noun
 * ("the monitor"), which is how a page names its subject after that. One rule for the mention
 * credit and for the gap.
 */
const namesInPart = (kwStems: string[], heads: Set<string>, lang: string, head: string | undefined) => {
  const partable = kwStems.length >= 2 || lang === 'de';
  return (content: string[]): boolean =>
    partable && (subjectShare(content, kwStems, heads, lang) >= 0.5 || (head !== undefined && content.includes(head)));
};

/** The head noun of a keyphrase of three or more content words (headNoun.ts), else none. */
const longPhraseHead = (kwStems: string[], an?: Analyzer, kw?: KeywordInfo): string | undefined =>
  an && kw && kwStems.length >= 3 ? keyphraseHead(kw.entity || kw.text, an) : undefined;

/** A lone subject noun stands twice in a natural sentence or title; this many uses repeat it. */
const LONE_NOUN_REPEATS = 3;

/** Where natural use of the keyphrase ends: a lone content word is said far more often than a phrase. */
export const densityCeiling = (kwStems: string[]): number => (kwStems.length >= 2 ? 3 : 6);

export const keywordDensity = (
  doc: Doc,
  kwStems: string[],
  an?: Analyzer,
  kw?: KeywordInfo,
): {
  matches: number;
  kd: number;
  mentions: number;
  uses: number;
  counted: number;
  served: number;
  partial: number;
} => {
  const g = an && kw ? gamingOf(doc, kw, an) : null;
  // Support (quoted speech, a sourced figure, a citation) is judged as evidence, not as the
  // writer's use of the keyphrase: no match, no dilution.
  const quotes = evidenceOf(doc).sentences;
  const lang = an?.lang ?? 'en';
  const heads = compoundHeads(doc, kwStems, lang);
  // A phrase of several words, or a German compound, can be named in part; a lone English word cannot.
  const inPart = namesInPart(kwStems, heads, lang, longPhraseHead(kwStems, an, kw));
  let matches = 0;
  let served = 0;
  let partial = 0;
  let quoted = 0;
  // Stuffed uses earn no credit but do count towards over-use: stuffing never escapes the gate.
  let stuffedUses = 0;
  let stuffedWords = 0;
  for (const s of doc.sentences) {
    if (g?.filler.has(s)) continue;
    if (g?.stuffedSentences.has(s)) {
      stuffedUses += occurrences(s, kwStems);
      stuffedWords += s.words.length;
      continue;
    }
    if (quotes.has(s)) {
      quoted += s.words.length;
      continue;
    }
    const m = occurrences(s, kwStems);
    matches += m;
    if (!m && wholeUse(s, kw)) served++;
    else if (!m && inPart(s.content)) partial++;
  }
  const words = Math.max(1, (g ? g.informativeWords : doc.words) - quoted);
  return {
    matches,
    served,
    partial,
    // What the density figure is made of, so the summary states the same numbers.
    uses: matches + stuffedUses,
    counted: words + stuffedWords,
    kd: ((matches + stuffedUses) / (words + stuffedWords)) * 100,
    mentions: ((matches + served + 0.5 * partial) / words) * 100,
  };
};

export const scoreDensity = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { kw, lang, an } = ctx;
  const { matches, kd, mentions, uses, counted, served, partial } = keywordDensity(doc, kw.stems, an, kw);
  // The sentences that name the subject as a whole use, said beside the density they lift (a
  // "0.23 %" praised as natural, alone, reads as a contradiction).
  const whole = served ? wholeUseWords(kw, an) : '';
  const wholeEn = served
    ? `, and ${count('en', served, ['more sentence names', 'more sentences name'], ['', '', ''])} "${whole}"`
    : '';
  const wholePl = served
    ? `, a kolejne ${count('pl', served, ['', ''], ['zdanie nazywa', 'zdania nazywają', 'zdań nazywa'])} „${whole}”`
    : '';
  const wholeDe = served
    ? `, und ${count('de', served, ['', ''], ['', '', ''], ['weiterer Satz nennt', 'weitere Sätze nennen'])} „${whole}“`
    : '';
  // Likewise the sentences that name part of the phrase ("the filter", "die Pumpe"), where they are
  // what lifts a low figure into the natural range.
  const inPart = !served && partial && kd < 0.5;
  const partEn = inPart
    ? `, and ${count('en', partial, ['more sentence names', 'more sentences name'], ['', '', ''])} part of it`
    : '';
  const partPl = inPart
    ? `, a kolejne ${count('pl', partial, ['', ''], ['zdanie nazywa', 'zdania nazywają', 'zdań nazywa'])} jej część`
    : '';
  const partDe = inPart
    ? `, und ${count('de', partial, ['', ''], ['', '', ''], ['weiterer Satz nennt', 'weitere Sätze nennen'])} einen Teil davon`
    : '';
  const g = gamingOf(doc, kw, an);
  const ceiling = densityCeiling(kw.stems);
  const findings: Finding[] = [];
  const strengths: string[] = [];
  let base: number;
  let cap: number | null = null;
  if (kd > ceiling + 1) {
    base = 0;
    cap = 60;
  } else if (kd > ceiling)
    base = 1; // over-use is worse than under-use (Yoast: too high red, too low orange)
  else if (mentions >= 0.5) base = 10;
  else base = 2 + 12 * mentions;
  // No credit for stuffing: each use beyond the natural allowance costs a point.
  const stuffPenalty = g.excessStuffing;

  // Filler sentences are not part of the text's run: they neither break nor shorten a gap's share.
  // Support without the keyphrase (a quotation, a sourced figure, a citation in the source's words)
  // is judged as evidence: it does not lengthen the writer's gap either.
  const support = evidenceOf(doc).sentences;
  const none = creditless(g);
  const prose = proseOf(doc).filter((s) => !none.has(s) && !(support.has(s) && occurrences(s, kw.stems) === 0));
  // The run is broken by a sentence that names the subject, as the mention credit counts it: the
  // whole keyphrase, (for a phrase) half its words ("the trimmer" in a guide to cordless trimmers),
  // or a whole use (a local page's service, a report's event).
  // Otherwise a natural text scores a long gap that only repeating the whole keyphrase would close.
  const kwHeads = compoundHeads(doc, kw.stems, lang);
  const partNamed = namesInPart(kw.stems, kwHeads, lang, longPhraseHead(kw.stems, an, kw));
  const namesSubject = (s: Sentence) => occurrences(s, kw.stems) > 0 || partNamed(s.content) || wholeUse(s, kw);
  let run = 0,
    longest = 0,
    runStart = 0,
    longestStart = 0;
  prose.forEach((s, i) => {
    if (!g.stuffedSentences.has(s) && namesSubject(s)) run = 0;
    else {
      if (run === 0) runStart = i;
      run++;
      if (run > longest) {
        longest = run;
        longestStart = runStart;
      }
    }
  });
  const gap = prose.length ? longest / prose.length : 1;
  // Distribution judges the matches there are; a text with too few is already scored by its density.
  // A ramp, not steps: one sentence more or less in the longest gap moves the score a little, not by 2.
  const gapPenalty = mentions < 0.5 ? 0 : Math.min(4, Math.max(0, (gap - 0.3) * 10));

  const heads = headed(doc).filter((s) => s.level >= 2);
  // A subheading names the keyphrase as a sentence does (half its words; in German also by its compounds).
  const namesKeyphrase = (heading: string) => subjectShare(an.contentStems(heading), kw.stems, kwHeads, lang) >= 0.5;
  const withKw = heads.filter((s) => namesKeyphrase(s.heading?.text ?? '')).length;
  const headShare = heads.length ? withKw / heads.length : 0;
  const headPenalty = heads.length >= 2 && (headShare < 0.3 || headShare > 0.75) ? 1 : 0;
  const score = clamp(base - gapPenalty - headPenalty - stuffPenalty);

  if (kd > ceiling || stuffPenalty > 0) {
    // Stuffing: the sentences that carry the keyphrase most densely go first.
    const stuffed = doc.sentences
      .map((s, i) => ({
        s,
        i,
        occ: occurrences(s, kw.stems),
        share: s.content.length ? s.content.filter((c) => kw.stems.includes(c)).length / s.content.length : 0,
      }))
      .filter((x) => x.occ > 0 && x.s.kind === 'prose' && (kd > ceiling || g.stuffedSentences.has(x.s)))
      .sort((a, b) => b.occ - a.occ || b.share - a.share || a.i - b.i)
      .slice(0, 3);
    // A step, or advice that only repeats its paragraph's phrase, keeps its place: its repeat is
    // trimmed (below), the sentence never cut whole (blind reviews r23 and r24, harmful: "Am besten
    // ist es, gar nicht erst zu viel zu trinken, …", "Danach kann man erneut versuchen, …").
    for (const x of stuffed.filter((y) => !keptWhole(y.s.text, g.repeats.has(y.s), lang))) {
      findings.push(
        finding({
          kind: 'stuffing',
          title: t(
            lang,
            'Remove a keyword-stuffed sentence',
            'Usuń zdanie przeładowane frazą',
            'Mit dem Keyword überladenen Satz streichen',
          ),
          problem:
            kd > ceiling
              ? t(
                  lang,
                  `Keyword density is ${round2(kd)}% (over ${ceiling}%); "${quote(x.s)}" repeats the keyphrase without adding information.`,
                  `Gęstość frazy to ${num('pl', round2(kd))}% (ponad ${num('pl', ceiling)}%); zdanie „${quote(x.s)}” powtarza frazę, nie wnosząc informacji.`,
                  `Die Keyword-Dichte beträgt ${num('de', round2(kd))} % (über ${ceiling} %); „${quote(x.s)}“ wiederholt das Keyword, ohne etwas mitzuteilen.`,
                )
              : t(
                  lang,
                  `${count(lang, g.stuffed, ['use of the keyphrase says', 'uses of the keyphrase say'], ['', '', ''])} nothing else; "${quote(x.s)}" repeats it without adding information.`,
                  `${count('pl', g.stuffed, ['', ''], ['użycie frazy nie mówi', 'użycia frazy nie mówią', 'użyć frazy nie mówi'])} nic więcej; zdanie „${quote(x.s)}” powtarza frazę, nie wnosząc informacji.`,
                  `${g.stuffed} ${g.stuffed === 1 ? 'Nennung des Keywords sagt' : 'Nennungen des Keywords sagen'} nichts weiter; „${quote(x.s)}“ wiederholt es, ohne etwas mitzuteilen.`,
                ),
          suggestion: t(
            lang,
            'Delete the sentence or say the same with a pronoun or synonym.',
            'Usuń zdanie albo wyraź to samo zaimkiem lub synonimem.',
            'Streichen Sie den Satz oder sagen Sie dasselbe mit einem Pronomen oder Synonym.',
          ),
          section: sectionName(doc, x.s.section),
          sectionIndex: x.s.section,
          actionType: 'remove',
          severity: kd > ceiling + 1 ? 1 : 0.6,
          gate: kd > ceiling + 1,
          // The density is the evidence only past the ceiling; under it the sentence says nothing else.
          ...(kd > ceiling ? { figure: percent(lang, round2(kd)), subject: `${ceiling}` } : {}),
          change: removalChange(doc, x.s.text, stuffed.filter((y) => y.s.text === x.s.text).indexOf(x)),
        }),
      );
    }
    // Over the natural range, the repeats of each paragraph are shortened in place where that is
    // safe; a sentence the removal above cuts whole is left to it (one change per text).
    const candidates = new Set(stuffed.map((x) => x.s.text));
    const removals = new Set([...candidates].filter((x) => removableStuffing(x, ctx)));
    const trims =
      kd > ceiling
        ? trimFindings(doc, ctx, { kd, uses, counted, ceiling }, removals)
        : { findings: [], trimmed: new Set<string>() };
    findings.push(...trims.findings);
    // Nor is a sentence offered for removal also offered for a rewrite (a trim shown over the same
    // text wins over the task in recommendations.ts: one change per text).
    const task =
      rewriteTask(doc, ctx, kd, candidates, ceiling) ??
      (kd > ceiling + 1 || g.excessStuffing >= SPREAD_EXCESS
        ? spreadTask(doc, ctx, kd, g.stuffedSentences, removals)
        : null);
    if (task) findings.push(task);
  } else if (mentions < 0.5 || gapPenalty > 0) {
    const s = prose[longestStart + Math.floor(longest / 2)] ?? prose[0];
    const sec = s ? doc.sections[s.section] : undefined;
    const p = sec ? firstParagraph(doc, sec) : null;
    // A local keyword's service, not its city: the page names its city where it says where it is.
    const named = kw.intent === 'local' && kw.entity ? kw.entity : subjectPhrase(kw, an);
    findings.push(
      finding({
        kind: 'keywordMore',
        title:
          mentions < 0.5
            ? t(
                lang,
                'Use the keyphrase more often',
                'Używaj frazy kluczowej częściej',
                'Das Keyword häufiger verwenden',
              )
            : t(
                lang,
                'Spread the keyphrase through the text',
                'Rozłóż frazę kluczową w całym tekście',
                'Das Keyword über den ganzen Text verteilen',
              ),
        problem: t(
          lang,
          `Keyword density is ${round2(kd)}% and the longest stretch without it is ${Math.round(gap * 100)}% of the sentences.`,
          `Gęstość frazy to ${num('pl', round2(kd))}%, a najdłuższy fragment bez niej obejmuje ${Math.round(gap * 100)}% zdań.`,
          `Die Keyword-Dichte beträgt ${num('de', round2(kd))} %, und die längste Passage ohne das Keyword umfasst ${Math.round(gap * 100)} % der Sätze.`,
        ),
        suggestion: t(
          lang,
          `Name "${named}" in the middle of that stretch.`,
          `Użyj „${named}” w środku tego fragmentu.`,
          `Nennen Sie „${named}“ in der Mitte dieser Passage.`,
        ),
        section: sec ? sectionName(doc, sec.index) : '',
        sectionIndex: sec?.index ?? 0,
        actionType: 'add',
        severity: 0.5,
        change: p ? insertChange(doc, 'after', p.raw, ctx.lex.phrases.keywordNote.replace('{k}', named)) : null,
      }),
    );
  } else
    strengths.push(
      t(
        lang,
        `Keyword density of ${round2(kd)}% is in the natural range (up to ${ceiling}%)${wholeEn}${partEn}.`,
        `Gęstość frazy ${num('pl', round2(kd))}% mieści się w naturalnym zakresie (do ${num('pl', ceiling)}%)${wholePl}${partPl}.`,
        `Die Keyword-Dichte von ${num('de', round2(kd))} % liegt im natürlichen Bereich (bis ${num('de', ceiling)} %)${wholeDe}${partDe}.`,
      ),
    );
  // Only a text with enough matches can be spread evenly; a lone match with a long gap is not, and
  // a stuffed or over-dense one is no strength however even (the card would praise the stuffing),
  // nor one whose summary counts uses in stuffed sentences, even within the natural allowance.
  if (mentions >= 0.5 && gap <= 0.3 && matches > 1 && kd <= ceiling && stuffPenalty === 0 && uses <= matches)
    strengths.push(
      t(
        lang,
        'The keyphrase is spread evenly.',
        'Fraza jest rozłożona równomiernie.',
        'Das Keyword ist gleichmäßig verteilt.',
      ),
    );
  const headingTrim = headPenalty ? headingTrimFinding(doc, ctx, namesKeyphrase) : null;
  if (headingTrim) findings.push(headingTrim);
  else if (headPenalty) {
    findings.push(
      finding({
        title: t(
          lang,
          'Balance the keyphrase in subheadings',
          'Wyważ frazę w śródtytułach',
          'Das Keyword in den Zwischenüberschriften ausgewogen einsetzen',
        ),
        problem: t(
          lang,
          `The keyphrase is in ${Math.round(headShare * 100)}% of the subheadings (aim for 30–75%).`,
          `Fraza jest w ${Math.round(headShare * 100)}% śródtytułów (cel: 30–75%).`,
          `Das Keyword steht in ${Math.round(headShare * 100)} % der Zwischenüberschriften (Ziel: 30–75 %).`,
        ),
        suggestion:
          headShare < 0.3
            ? t(
                lang,
                'Name it in one or two more subheadings.',
                'Użyj jej w jednym lub dwóch kolejnych śródtytułach.',
                'Nennen Sie es in ein oder zwei weiteren Zwischenüberschriften.',
              )
            : t(
                lang,
                'Vary some subheadings.',
                'Zróżnicuj część śródtytułów.',
                'Formulieren Sie einige Zwischenüberschriften abwechslungsreicher.',
              ),
        section: '',
        sectionIndex: 0,
        actionType: 'replace',
        severity: 0.1,
      }),
    );
  }
  // A sentence a finding above already cuts is not the one to rewrite (one change per text).
  const cut = findings.flatMap((f) => (f.kind === 'stuffing' && f.change?.kind === 'replace' ? [f.change.before] : []));
  const pasted = verbatimQueryTask(doc, ctx, (text) => cut.some((c) => c.includes(text)));
  if (pasted) findings.push(pasted);
  const title = titleTask(doc, ctx);
  // A title task's evidence: the density when it is past the ceiling (else the repetition alone).
  if (title) findings.push(kd > ceiling ? { ...title, figure: percent(lang, round2(kd)) } : title);
  return {
    id: 'density',
    score: round1(score),
    summary: t(
      lang,
      `Keyphrase uses: ${uses} in ${count('en', counted, ['word', 'words'], ['', '', ''])} (${round2(kd)}%)${uses > matches ? `, ${uses - matches} of them in stuffed sentences` : ''}${wholeEn}; longest gap ${Math.round(gap * 100)}% of sentences.`,
      `Wystąpienia frazy: ${uses} na ${count('pl', counted, ['', ''], ['słowo', 'słowa', 'słów'])} (${num('pl', round2(kd))}%)${uses > matches ? `, w tym ${uses - matches} w zdaniach przeładowanych frazą` : ''}${wholePl}; najdłuższa luka ${Math.round(gap * 100)}% zdań.`,
      `Nennungen des Keywords: ${uses} in ${count('de', counted, ['', ''], ['', '', ''], ['Wort', 'Wörtern'])} (${num('de', round2(kd))} %)${uses > matches ? `, davon ${uses - matches} in mit dem Keyword überladenen Sätzen` : ''}${wholeDe}; längste Lücke ${Math.round(gap * 100)} % der Sätze.`,
    ),
    strengths,
    findings,
    cap,
  };
};

/**
 * The first candidate that is not the page's first sentence, else the first: the opening is
 * answer-first's to replace, one task per text, and an editor supplies the answer before pruning
 * repeats (blind reviews r23, r26: a keyword task on the opening took the answer-first task's place).
 */
const besideOpening = <T>(doc: Doc, candidates: T[], sentenceOf: (c: T) => Sentence): T | undefined => {
  const opening = proseOf(doc)[0];
  return candidates.find((c) => sentenceOf(c) !== opening) ?? candidates[0];
};

/**
 * Over the natural range, the sentence that repeats the keyphrase most (twice or more) becomes an
 * author task: only the writer can say it once without losing the sentence's meaning, so it is a
 * task on that sentence with the counts, not a removal that would take its content with it.
 */
const rewriteTask = (
  doc: Doc,
  ctx: ScoringContext,
  kd: number,
  removals: Set<string>,
  ceiling: number,
): Finding | null => {
  const { kw, lang } = ctx;
  const repeats = doc.sentences
    .map((s) => ({ s, occ: occurrences(s, kw.stems) }))
    // A lone subject noun stands twice in a natural sentence ("some inflation is healthy, too much
    // inflation is not"), as in a title: the phrase must stand twice, or the noun three times.
    .filter(
      (x) =>
        x.s.kind === 'prose' && x.occ >= (kw.stems.length === 1 ? LONE_NOUN_REPEATS : 2) && !removals.has(x.s.text),
    )
    .sort((a, b) => b.occ - a.occ);
  const top = besideOpening(doc, repeats, (x) => x.s);
  if (!top || !unique(doc.content, top.s.text)) return null;
  const figures = { occ: top.occ, kd: round2(kd) };
  return finding({
    kind: 'stuffingRewrite',
    subject: kw.text,
    // Past the ceiling the density is the evidence; under it, the repetition where it adds nothing.
    ...(kd > ceiling ? { figure: percent(lang, figures.kd) } : {}),
    title: t(
      lang,
      'Say the keyword once in this sentence',
      'Użyj frazy raz w tym zdaniu',
      'Das Keyword in diesem Satz nur einmal nennen',
    ),
    problem: t(
      lang,
      `"${kw.text}" appears ${count('en', figures.occ, ['time', 'times'], ['raz', 'razy', 'razy'])} in "${quote(top.s)}", and the page repeats it where it adds nothing (${figures.kd}% of its words).`,
      `„${kw.text}” pada ${count('pl', figures.occ, ['time', 'times'], ['raz', 'razy', 'razy'])} w zdaniu „${quote(top.s)}”, a strona powtarza frazę tam, gdzie nic nie wnosi (${num('pl', figures.kd)}% słów).`,
      `„${kw.text}“ steht ${figures.occ}-mal in „${quote(top.s)}“, und die Seite wiederholt es, wo es nichts beiträgt (${num('de', figures.kd)} % ihrer Wörter).`,
    ),
    suggestion: t(
      lang,
      `Rewrite this sentence with "${kw.text}" at most once (use "it", a synonym or nothing instead), and do the same wherever the page repeats it: the keyword belongs in the title, the opening and a heading or two, not in every sentence.`,
      `Przepisz to zdanie tak, by fraza „${kw.text}” padła najwyżej raz (w zamian zaimek, synonim albo nic), i zrób to samo wszędzie, gdzie strona ją powtarza: fraza ma swoje miejsce w tytule, we wstępie i w jednym, dwóch śródtytułach, nie w każdym zdaniu.`,
      `Schreiben Sie diesen Satz so um, dass „${kw.text}“ höchstens einmal vorkommt (stattdessen ein Pronomen, ein Synonym oder nichts), und ebenso überall, wo die Seite es wiederholt: Das Keyword gehört in den Titel, den Einstieg und ein, zwei Zwischenüberschriften, nicht in jeden Satz.`,
    ),
    section: sectionName(doc, top.s.section),
    sectionIndex: top.s.section,
    actionType: 'replace',
    severity: 0.9,
    change: { kind: 'replace', before: top.s.text, after: top.s.text },
  });
};

/**
 * Stuffing spread thin: far past the natural range (the gate), but no sentence says the keyphrase
 * twice, so no sentence-level rewrite applies: the page says it once in nearly every sentence
 * (blind review r18: a glossary page with the phrase 39 times in 892 words got no task for its
 * body). The task stands at the first sentence that repeats the phrase where a pronoun would do
 * (gaming.ts's stuffed sentences) and is not offered for removal: take it out there and wherever
 * the page only repeats it.
 */
/** Stuffed uses beyond the natural allowance from which stuffing spread thin gets its task. */
const SPREAD_EXCESS = 5;
/** Spread thin: the phrase in at least this many sentences, and in this share of them. */
const SPREAD_SENTENCES = 6;
const SPREAD_SHARE = 0.4;
/** Or at least this many sentences that only repeat the phrase (blind review r23: 18 in 600 words, no task). */
const SPREAD_STUFFED = 10;

const spreadTask = (
  doc: Doc,
  ctx: ScoringContext,
  kd: number,
  stuffed: Set<Sentence>,
  removals: Set<string>,
): Finding | null => {
  const { kw, lang } = ctx;
  const prose = proseOf(doc);
  const uses = prose.filter((s) => occurrences(s, kw.stems) > 0).length;
  // Spread means many sentences: a short page over the range by two uses is not this.
  // Or so many sentences only repeat it that an editor strikes them whatever the page's length.
  const repeating = prose.filter((s) => stuffed.has(s)).length;
  if (uses < SPREAD_SENTENCES || (uses < SPREAD_SHARE * prose.length && repeating < SPREAD_STUFFED)) return null;
  // The anchor only repeats the phrase: a sentence with a figure says something of its own.
  const anchors = prose.filter(
    (s) =>
      stuffed.has(s) &&
      occurrences(s, kw.stems) > 0 &&
      !/\p{N}/u.test(s.text) &&
      !removals.has(s.text) &&
      unique(doc.content, s.text),
  );
  // And one the author must reword (it says something besides the phrase) before one a cut can
  // take whole: apply cuts those, and a task on the same sentence would keep it from the cut.
  const rewordable = anchors.filter((s) => !removableStuffing(s.text, ctx));
  const at = besideOpening(doc, [...rewordable, ...anchors], (s) => s);
  if (!at) return null;
  const share = round2(kd);
  return finding({
    kind: 'stuffingRewrite',
    subject: kw.text,
    // The density is the evidence only past the ceiling: under it, "past its natural range (2.99%)"
    // would contradict itself, and the evidence is the sentences that only repeat the phrase.
    ...(kd > densityCeiling(kw.stems) ? { figure: percent(lang, share) } : {}),
    pageWide: true,
    title: t(lang, 'Use the keyword less often', 'Rzadziej używaj frazy', 'Das Keyword seltener verwenden'),
    problem: t(
      lang,
      `"${kw.text}" stands in ${uses} of the page's ${prose.length} sentences (${share}% of its words), "${quote(at)}" among them, where "it" or nothing would do.`,
      `„${kw.text}” pada w ${uses} z ${prose.length} zdań strony (${num('pl', share)}% słów), m.in. w „${quote(at)}”, gdzie wystarczyłby zaimek albo nic.`,
      `„${kw.text}“ steht in ${uses} von ${prose.length} Sätzen der Seite (${num('de', share)} % ihrer Wörter), darunter „${quote(at)}“, wo ein Pronomen oder nichts genügte.`,
    ),
    suggestion: t(
      lang,
      `Take "${kw.text}" out of this sentence (use "it", a synonym or nothing instead), and out of every other sentence that only repeats it: the keyword belongs in the title, the opening and a heading or two.`,
      `Usuń „${kw.text}” z tego zdania (w zamian zaimek, synonim albo nic) i z każdego innego, które tylko ją powtarza: fraza ma swoje miejsce w tytule, we wstępie i w jednym, dwóch śródtytułach.`,
      `Nehmen Sie „${kw.text}“ aus diesem Satz (stattdessen ein Pronomen, ein Synonym oder nichts) und aus jedem anderen Satz, der es nur wiederholt: Das Keyword gehört in den Titel, den Einstieg und ein, zwei Zwischenüberschriften.`,
    ),
    section: sectionName(doc, at.section),
    sectionIndex: at.section,
    actionType: 'replace',
    severity: 0.9,
    change: { kind: 'replace', before: at.text, after: at.text },
  });
};

/**
 * Uses of a lone subject noun that name it, not a kind of it: "session tokens" and "refresh tokens"
 * in one title list two kinds of token, not the word three times. A kind is the noun with a content
 * word of its own beside it (before it in English and German, after it in Polish), other than an
 * intent modifier ("best token" is the keyword again).
 */
const bareUses = (text: string, stem: string, ctx: ScoringContext): number => {
  const { an, lex, lang } = ctx;
  const words = tokenize(text);
  const modifiers = intentModifiers(lex, ALL_INTENTS);
  const qualifies = (w: string | undefined) =>
    w !== undefined && !an.stop.has(w) && !modifiers.has(w) && an.stem(w) !== stem && /\p{L}/u.test(w);
  return words.filter((w, i) => an.stem(w) === stem && !qualifies(lang === 'pl' ? words[i + 1] : words[i - 1])).length;
};

/** Where a title's parts meet: a dash, a bar or a colon between words. */
const TITLE_JOINT = /\s+[–—|-]\s+|:\s+/gu;

/**
 * A title that says the keyword twice or more ("X – X and why X matters") is stuffing a reader
 * sees first, whatever the density. Where a later part of the title only repeats it ("X – the best
 * X"), the engine drops that part and keeps the title up to the joint (a concrete change); else it
 * is an in-place task on the H1, since only the writer can say what the title should promise.
 */
const titleTask = (doc: Doc, ctx: ScoringContext): Finding | null => {
  const { kw, lang, an } = ctx;
  const h1 = doc.blocks.find((b) => b.kind === 'heading' && b.level === 1);
  if (!h1 || !kw.stems.length || !unique(doc.content, h1.text)) return null;
  // A lone subject noun may stand twice in a natural title ("What is a bond? … how bonds work"):
  // then the phrase as typed must repeat, or the noun three times.
  const timesIn = (text: string): number => {
    const stems = an.contentStems(text);
    const byStem =
      kw.stems.length === 1
        ? bareUses(text, kw.stems[0]!, ctx)
        : Math.min(...kw.stems.map((k) => stems.filter((x) => x === k).length));
    const asTyped = text.toLowerCase().split(kw.text.toLowerCase()).length - 1;
    return kw.stems.length >= 2 || byStem >= LONE_NOUN_REPEATS ? byStem : asTyped;
  };
  const times = timesIn(h1.text);
  // A title may give the query as typed and then say what the page did with the thing ("Lampa UV
  // opinie: 8 lamp UV przetestowanych"); it repeats the query when it also repeats the query's
  // intent words ("opinie … opinie", "Best … Best"), or names the thing three times.
  const titleStems = an.contentStems(h1.text);
  const modifiers = an.contentStems(kw.text).filter((s) => !kw.stems.includes(s));
  const repeatsQuery = modifiers.length === 0 || modifiers.some((m) => titleStems.filter((x) => x === m).length >= 2);
  if (times < 2 || (!repeatsQuery && times < LONE_NOUN_REPEATS)) return null;
  const intentStems = new Set(an.contentStems([...intentModifiers(ctx.lex, ALL_INTENTS)].join(' ')));
  const head = [...h1.text.matchAll(TITLE_JOINT)]
    .map((m) => h1.text.slice(0, m.index).trim())
    // What is kept must promise more than the keyword: a title made of the keyword alone is
    // stuffing too (blind review r3: "Zylinder kaufen" left as the whole H1), and so is the keyword
    // with an intent word ("Best Cordless Trimmer", "… opinie"): then the writer rewrites it (a task).
    .find(
      (x) =>
        timesIn(x) === 1 &&
        timesIn(h1.text.slice(x.length)) >= 1 &&
        an.contentStems(x).some((s) => !kw.stems.includes(s) && !intentStems.has(s)),
    );
  const problem = t(
    lang,
    `The title says "${kw.text}" ${times} times.`,
    `Tytuł powtarza „${kw.text}” ${count('pl', times, ['time', 'times'], ['raz', 'razy', 'razy'])}.`,
    `Der Titel nennt „${kw.text}“ ${times}-mal.`,
  );
  if (head)
    return finding({
      kind: 'stuffedTitle',
      subject: kw.text,
      title: t(
        lang,
        'Drop the part of the title that repeats the keyword',
        'Usuń część tytułu, która powtarza frazę',
        'Den Teil des Titels streichen, der das Keyword wiederholt',
      ),
      problem,
      suggestion: t(
        lang,
        `Keep the title up to where it starts repeating "${kw.text}".`,
        `Zostaw tytuł do miejsca, w którym zaczyna powtarzać „${kw.text}”.`,
        `Den Titel bis dorthin behalten, wo er „${kw.text}“ wiederholt.`,
      ),
      section: sectionName(doc, 0),
      sectionIndex: 0,
      actionType: 'replace',
      severity: 0.9,
      change: { kind: 'replace', before: h1.text, after: head },
    });
  return finding({
    kind: 'stuffingRewrite',
    subject: kw.text,
    pageWide: true,
    title: t(
      lang,
      'Say the keyword once in the title',
      'Użyj frazy raz w tytule',
      'Das Keyword im Titel nur einmal nennen',
    ),
    problem,
    suggestion: t(
      lang,
      `Rewrite the title with "${kw.text}" once, followed by what the reader gets from the article (the answer, the steps, the comparison), in your words.`,
      `Przepisz tytuł tak, by fraza „${kw.text}” padła raz, a po niej to, co czytelnik dostaje z artykułu (odpowiedź, kroki, porównanie), własnymi słowami.`,
      `Schreiben Sie den Titel mit „${kw.text}“ nur einmal und danach, was der Leser vom Artikel hat (die Antwort, die Schritte, den Vergleich), in Ihren Worten.`,
    ),
    section: sectionName(doc, 0),
    sectionIndex: 0,
    actionType: 'replace',
    severity: 0.9,
    change: { kind: 'replace', before: h1.text, after: h1.text },
  });
};
