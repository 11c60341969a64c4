import type { Finding } from '../context.ts';
import { isProtected, type GateContext } from '../grounding.ts';
import { count, num, t } from '../labels.ts';
import { recLexiconFor } from '../text/recLexicon.ts';
import { tokenize, wordSpans } from '../text/segment.ts';
import type { Doc, Sentence } from '../types.ts';
import { finding, round2, sectionName, unique } from './helpers.ts';
import { usesIn } from '../keyphraseCut.ts';

/**
 * Stuffing trimmed in place (issue 23): on a page whose keyword density is over the natural range,
 * each paragraph keeps its first use of the keyphrase, and the later uses are shortened where an
 * edit is safe by construction, so the AFTER is the same text with words removed, never added:
 * - a local keyphrase's place appended bare ("serwis klimatyzacji Poznań jest …"): the place goes,
 *   the words before it keep their form (the place stays named where the paragraph first says it);
 * - in English, a noun phrase after a determiner shrinks to its head noun ("this Stanley Cup
 *   review" → "this review"): same noun, same number, and the determiner now points back to the
 *   first use. Polish and German inflect the determiner and the noun by the words dropped, so there
 *   this edit is not offered (the lexicon's backReference list is empty).
 * A sentence with a figure, a named source or a definition, quoted speech or a list item is left
 * whole; where no safe edit exists nothing is offered (the rewrite task stays).
 */

type Span = { word: string; start: number; end: number };

export interface Trim {
  sentence: Sentence;
  after: string;
  /** Keyphrase uses shortened in the sentence. */
  cuts: number;
}

/** The characters to cut to shorten one repeated use, or null where no edit is safe by construction. */
const cutFor = (text: string, spans: Span[], [from, to]: [number, number], ctx: GateContext): Span | null => {
  const last = spans[to - 1]!;
  const prev = spans[to - 2]!;
  const after = text.slice(last.end);
  // A name appended bare to a noun phrase ("serwis klimatyzacji Poznań", "mole removal Manchester";
  // no comma, no preposition) adds nothing the paragraph has not said, and it is undeclined, so
  // the words before it keep their form. A name after a name ("Ford Puma") is one name and stays
  // whole, unless the page shows the keyword is local (its last word used as a place: "in
  // Leipzig"); German capitalises every noun, so there only a local keyword qualifies. A letter or
  // code ("typ C", "kategorii B", "OS") belongs to the noun phrase: the name is a capital and two
  // small letters.
  const local = ctx.kw.intent === 'local';
  const appended =
    /^\p{Lu}\p{Ll}{2}/u.test(last.word) &&
    (local || (ctx.lang !== 'de' && /^\p{Ll}/u.test(prev.word))) &&
    /^\s+$/u.test(text.slice(prev.end, last.start));
  if (appended) return { word: '', start: prev.end, end: last.end };
  const backRef = recLexiconFor(ctx.lang).backReference;
  const det = spans[from - 1];
  if (!det || !backRef.includes(det.word.toLowerCase()) || text.slice(det.end, spans[from]!.start) !== ' ') return null;
  // The head noun as a common noun (a capitalised one is a name), the dropped words the entity's own.
  if (!/^\p{Ll}/u.test(last.word)) return null;
  const dropped = spans.slice(from, to - 1).map((s) => ctx.an.stem(s.word.toLowerCase()));
  if (!dropped.every((d) => ctx.kw.entityStems.includes(d))) return null;
  // Used as a modifier ("this Stanley Cup review process") the phrase is not the noun phrase: the
  // next word must be a function word, or punctuation must follow.
  const next = spans[to];
  const nextOk = !next || /\S/u.test(text.slice(last.end, next.start)) || ctx.an.stop.has(next.word.toLowerCase());
  if (!nextOk || /^['’]/u.test(after)) return null;
  return { word: '', start: spans[from]!.start, end: last.start };
};

/** Keyphrases whose words can be shortened: two or more words, no joining word ("vs", "czy", "oder"). */
const trimmable = (ctx: GateContext): string[] | null => {
  const words = tokenize(ctx.kw.text);
  const joints = ctx.an.contentStems(ctx.kw.text).filter((c) => !ctx.kw.stems.includes(c));
  return words.length >= 2 && !joints.length ? words.map((w) => ctx.an.stem(w)) : null;
};

/** Per sentence, the AFTER with its repeated uses shortened; `skip` are sentences another change takes. */
export const stuffingTrims = (doc: Doc, ctx: GateContext, skip: Set<string>): Trim[] => {
  const kwSeq = trimmable(ctx);
  if (!kwSeq) return [];
  const named = new Set<string>();
  const out: Trim[] = [];
  // Uses of the keyphrase each paragraph keeps after its cuts: a trim that leaves the paragraph
  // still repeating it ("Our press is the perfect french press … This french press …") is no fix
  // an editor keeps (blind reviews r16 and r17), so there the rewrite task stays.
  const left = new Map<string, number>();
  for (const s of doc.sentences) {
    if (s.kind !== 'prose') continue;
    const spans = wordSpans(s.text);
    const uses = usesIn(spans, kwSeq, ctx.an.stem);
    if (!uses.length) continue;
    const para = `${s.section}:${s.block}`;
    left.set(para, (left.get(para) ?? 0) + uses.length);
    // A sentence another change cuts whole names nothing afterwards: the next use is the first.
    if (skip.has(s.text)) continue;
    // The paragraph's first use stays: the title, the opening and each paragraph still name it.
    const repeats = named.has(para) ? uses : uses.slice(1);
    named.add(para);
    if (!repeats.length || !unique(doc.content, s.text)) continue;
    if (isProtected(s.text, ctx) || /["„“”«»]/u.test(s.text)) continue;
    // A name tagged onto other phrases too ("wymiana zamków Gdańsk, ślusarz Gdańsk, …") is a list of
    // search tags: shortening one of them leaves the list; the whole sentence is the author's to cut.
    const tail = spans[uses[0]![1] - 1]!.word.toLowerCase();
    if (spans.filter((w) => w.word.toLowerCase() === tail).length > uses.length) continue;
    const cuts = repeats.map((u) => cutFor(s.text, spans, u, ctx)).filter((c): c is Span => c !== null);
    if (!cuts.length) continue;
    const after = cuts.reduceRight((x, c) => x.slice(0, c.start) + x.slice(c.end), s.text);
    out.push({ sentence: s, after, cuts: cuts.length });
    left.set(para, left.get(para)! - cuts.length);
  }
  return out.filter((x) => left.get(`${x.sentence.section}:${x.sentence.block}`)! <= 1);
};

/** Runs of trimmed sentences of one paragraph not broken by a sentence another change takes. */
const runsOf = (doc: Doc, trims: Trim[], skip: Set<string>): Trim[][] => {
  const byS = new Map(trims.map((x) => [x.sentence, x]));
  const runs: Trim[][] = [];
  let run: Trim[] = [];
  let para = '';
  for (const s of doc.sentences) {
    const key = `${s.section}:${s.block}`;
    if (key !== para || skip.has(s.text)) {
      if (run.length) runs.push(run);
      run = [];
      para = key;
    }
    const x = byS.get(s);
    if (x) run.push(x);
  }
  if (run.length) runs.push(run);
  return runs;
};

/** One change per run: BEFORE the verbatim text from its first to its last trimmed sentence. */
const changeOf = (doc: Doc, run: Trim[]): { before: string; after: string } | null => {
  const a = doc.content.indexOf(run[0]!.sentence.text);
  const last = run[run.length - 1]!.sentence.text;
  const b = doc.content.indexOf(last, a) + last.length;
  const before = doc.content.slice(a, b);
  if (a < 0 || b < a || /\n\s*\n/u.test(before) || !unique(doc.content, before)) return null;
  let after = before;
  let at = 0;
  for (const x of run) {
    const i = after.indexOf(x.sentence.text, at);
    if (i < 0) return null;
    after = after.slice(0, i) + x.after + after.slice(i + x.sentence.text.length);
    at = i + x.after.length;
  }
  return { before, after };
};

export const trimFindings = (
  doc: Doc,
  ctx: GateContext,
  figures: { kd: number; uses: number; counted: number; ceiling: number },
  skip: Set<string>,
): { findings: Finding[]; trimmed: Set<string> } => {
  const { kw, lang } = ctx;
  const trims = stuffingTrims(doc, ctx, skip);
  const findings: Finding[] = [];
  const trimmed = new Set<string>();
  for (const run of runsOf(doc, trims, skip)) {
    const change = changeOf(doc, run);
    if (!change) continue;
    const cuts = run.reduce((n, x) => n + x.cuts, 0);
    for (const x of run) trimmed.add(x.sentence.text);
    const kd = round2(figures.kd);
    findings.push(
      finding({
        kind: 'stuffingTrim',
        subject: kw.text,
        title: t(
          lang,
          'Stop repeating the keyword in this paragraph',
          'Nie powtarzaj frazy w każdym zdaniu akapitu',
          'Das Keyword im Absatz nicht ständig wiederholen',
        ),
        problem: t(
          lang,
          `Keyword density is ${kd}% (${figures.uses} uses in ${figures.counted} words; natural up to ${figures.ceiling}%); after naming "${kw.text}", this paragraph repeats it ${cuts} more ${cuts === 1 ? 'time' : 'times'}.`,
          `Gęstość frazy to ${num('pl', kd)}% (${count('pl', figures.uses, ['', ''], ['użycie', 'użycia', 'użyć'])} na ${count('pl', figures.counted, ['', ''], ['słowo', 'słowa', 'słów'])}; naturalnie do ${num('pl', figures.ceiling)}%); po pierwszym użyciu „${kw.text}” ten akapit powtarza ją jeszcze ${count('pl', cuts, ['time', 'times'], ['raz', 'razy', 'razy'])}.`,
          `Die Keyword-Dichte beträgt ${num('de', kd)} % (${figures.uses} Nennungen in ${figures.counted} Wörtern; natürlich bis ${num('de', figures.ceiling)} %); nach der ersten Nennung wiederholt dieser Absatz „${kw.text}“ noch ${cuts}-mal.`,
        ),
        suggestion: t(
          lang,
          'Keep the first mention and shorten the repeats as shown.',
          'Zostaw pierwsze użycie, a powtórzenia skróć jak w propozycji.',
          'Die erste Nennung behalten und die Wiederholungen wie gezeigt kürzen.',
        ),
        section: sectionName(doc, run[0]!.sentence.section),
        sectionIndex: run[0]!.sentence.section,
        actionType: 'replace',
        severity: 1,
        gate: figures.kd > figures.ceiling + 1,
        change: { kind: 'replace', before: change.before, after: change.after },
        figure: t(
          lang,
          `${figures.uses} uses in ${figures.counted} words (${kd}%); ${cuts} shortened here`,
          `${count('pl', figures.uses, ['', ''], ['użycie', 'użycia', 'użyć'])} na ${count('pl', figures.counted, ['', ''], ['słowo', 'słowa', 'słów'])} (${num('pl', kd)}%); skrócone tutaj: ${cuts}`,
          `${figures.uses} Nennungen in ${figures.counted} Wörtern (${num('de', kd)} %); ${cuts} hier gekürzt`,
        ),
      }),
    );
  }
  return { findings, trimmed };
};
