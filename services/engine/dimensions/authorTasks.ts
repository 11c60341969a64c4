import type { Finding, ScoringContext } from '../context.ts';
import { hasByline } from '../eeat.ts';
import { showsFirstHand } from '../firstHand.ts';
import { narratesEvent } from '../newsSignals.ts';
import { t } from '../labels.ts';
import { recLexiconFor } from '../text/recLexicon.ts';
import { tokenizeKeepCase } from '../text/segment.ts';
import type { Change, Doc } from '../types.ts';
import { excerpt, finding, sectionName, unique } from './helpers.ts';

/**
 * What only the author can supply, found where the page shows it is missing (issue 23): no byline
 * anywhere a byline stands, and claims attributed to no one ("studies show", "uważa się"). Each is
 * an in-place task on a verbatim anchor (BEFORE = AFTER: the text stays until the author writes),
 * so recommendations.ts shows it as an author task, never as a sentence with a slot.
 */

/** At most this many unsourced claims per audit: the first ones show the pattern. */
const MAX_UNSOURCED = 2;

const inPlace = (doc: Doc, text: string): Change | null =>
  text && unique(doc.content, text) ? { kind: 'replace', before: text, after: text } : null;

/** The claim already names who says it: a link or a proper name after its first word. */
const attributed = (s: string, lang: string): boolean =>
  /\]\(|https?:\/\//u.test(s) ||
  tokenizeKeepCase(s)
    .slice(1)
    .some((w) => (lang === 'de' ? /^\p{Lu}{2,}/u : /^\p{Lu}/u).test(w) && w !== 'I');

/**
 * Where a reader weighs who wrote it: a review, a comparison or a buying list (who tested), news
 * (who reports). Blind reviews r3 and r4 rejected the byline task on shop pages (wrong subject)
 * and on how-tos, glossaries and anecdotes, where a name fixes nothing the article lacks (noise).
 */
const JUDGED_BY_AUTHOR = new Set(['review', 'comparison', 'listicle', 'news']);

/** A credit line in another form, "Opis techniczny: Jan Kowalski, instalator …": a label, a name, a role. */
const CREDIT_LINE = /^[^\n:]{1,40}:\s*\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?\s*[,–—(]/u;
const namesCredit = (doc: Doc): boolean =>
  doc.blocks.some((b) => (b.kind === 'paragraph' || b.kind === 'quote') && CREDIT_LINE.test(b.text.trim()));

export const authorFindings = (doc: Doc, ctx: ScoringContext): Finding[] => {
  const { lang } = ctx;
  const rl = recLexiconFor(lang);
  const out: Finding[] = [];
  const h1 = doc.blocks.find((b) => b.kind === 'heading' && b.level === 1);
  const anchor = h1 ? h1.text : (doc.blocks.find((b) => b.kind === 'paragraph')?.text ?? '');
  // An explainer shaped as a list or a comparison ("7 facts about compound interest") answers a
  // question of knowledge (the keyword's intent is informational): nobody's judgement is weighed, so
  // a byline there is noise (blind review r7, twice). Reviews and news keep it whatever the keyword.
  const explainer =
    (ctx.kw.intent === 'informational' && (ctx.profile === 'listicle' || ctx.profile === 'comparison')) ||
    (ctx.profile === 'news' && !narratesEvent(doc));
  // A review, a comparison or a list earns a byline only by the writer's own use: on hearsay or a
  // vague compilation the name vouches for nothing (blind review r8, noise). News names its reporter.
  const unvouched = ctx.profile !== 'news' && !showsFirstHand(doc);
  const bylineAt =
    hasByline(doc) || namesCredit(doc) || !JUDGED_BY_AUTHOR.has(ctx.profile) || explainer || unvouched
      ? null
      : inPlace(doc, anchor.trim());
  if (bylineAt)
    out.push(
      finding({
        kind: 'byline',
        title: t(lang, 'Name the author', 'Podaj autora', 'Autor nennen'),
        problem: t(
          lang,
          'The page names no author: nothing shows who stands behind the advice.',
          'Strona nie podaje autora: nie widać, kto odpowiada za treść.',
          'Die Seite nennt keinen Autor: Nichts zeigt, wer hinter dem Rat steht.',
        ),
        suggestion: t(
          lang,
          "Add a byline with the author's experience.",
          'Dodaj podpis autora z jego doświadczeniem.',
          'Ergänzen Sie eine Autorenzeile mit der Erfahrung des Autors.',
        ),
        section: sectionName(doc, 0),
        sectionIndex: 0,
        actionType: 'add',
        severity: 0.15,
        change: bylineAt,
      }),
    );
  const claims = doc.sentences.filter((s) => {
    const lower = s.text.toLowerCase();
    // A sentence of stock phrasing is filler to cut (effort's cliché finding), not a claim to source.
    const filler = [...ctx.lex.throatClearing, ...ctx.lex.cliches].some((p) => lower.includes(p));
    return s.kind === 'prose' && !filler && rl.unsourced.some((p) => lower.includes(p)) && !attributed(s.text, lang);
  });
  for (const s of claims.slice(0, MAX_UNSOURCED)) {
    const change = inPlace(doc, s.text);
    if (!change) continue;
    const phrase = rl.unsourced.find((p) => s.text.toLowerCase().includes(p)) ?? '';
    out.push(
      finding({
        kind: 'unsourced',
        subject: phrase,
        title: t(lang, 'Name the source of a claim', 'Podaj źródło twierdzenia', 'Quelle einer Aussage nennen'),
        problem: t(
          lang,
          `"${excerpt(s.text)}" attributes a claim to no one ("${phrase}").`,
          `„${excerpt(s.text)}” nie przypisuje twierdzenia nikomu („${phrase}”).`,
          `„${excerpt(s.text)}“ schreibt die Aussage niemandem zu („${phrase}“).`,
        ),
        suggestion: t(
          lang,
          'Name the study or institution, with a link.',
          'Podaj badanie lub instytucję, z linkiem.',
          'Nennen Sie die Studie oder Institution, mit Link.',
        ),
        section: sectionName(doc, s.section),
        sectionIndex: s.section,
        actionType: 'replace',
        severity: 0.1,
        change,
      }),
    );
  }
  return out;
};
