import type { Finding, ScoringContext } from '../context.ts';
import { t } from '../labels.ts';
import type { Doc, Sentence } from '../types.ts';
import { finding, sectionName, unique } from './helpers.ts';

/** At most this many filler paragraphs are offered for cutting per audit. */
const MAX_CUTS = 3;

/**
 * Filler is cut, not padded (issue 23): a paragraph whose every sentence is generic filler
 * (gaming.ts: no value, not naming the keyphrase, mostly function words, few of the page's own
 * words) is offered for removal whole. Only where its section keeps a paragraph that says
 * something, so no section is left empty, and never a paragraph that announces what follows (ends
 * with a colon) or asks a question the next block answers. The never-harm gate (grounding.ts)
 * still refuses a cut that takes a figure, a named source or a definition with it.
 */
export const fillerCuts = (doc: Doc, ctx: ScoringContext, filler: ReadonlySet<Sentence>): Finding[] => {
  const { lang } = ctx;
  const byBlock = new Map<string, Sentence[]>();
  for (const s of doc.sentences) {
    if (s.kind !== 'prose') continue;
    const k = `${s.section}:${s.block}`;
    byBlock.set(k, [...(byBlock.get(k) ?? []), s]);
  }
  const isFiller = (g: Sentence[]) => g.length > 0 && g.every((s) => filler.has(s));
  const out: Finding[] = [];
  for (const [k, g] of byBlock) {
    if (out.length >= MAX_CUTS || !isFiller(g)) continue;
    const [sec, bi] = k.split(':').map(Number) as [number, number];
    const block = doc.sections[sec]?.blocks[bi];
    if (!block || block.kind !== 'paragraph' || !unique(doc.content, block.raw)) continue;
    if (/[:?？]\s*$/u.test(block.text)) continue;
    const keepsSubstance = [...byBlock.entries()].some(
      ([other, os]) => other !== k && other.startsWith(`${sec}:`) && !isFiller(os),
    );
    if (!keepsSubstance) continue;
    out.push(
      finding({
        kind: 'filler',
        title: t(
          lang,
          'Cut a paragraph that says nothing about the subject',
          'Usuń akapit, który nic nie mówi o temacie',
          'Einen Absatz streichen, der nichts zum Thema sagt',
        ),
        problem: t(
          lang,
          'This paragraph is generic: no figure, no name, hardly a word of the page’s subject; it would fit any article.',
          'Ten akapit jest ogólnikowy: bez liczby, bez nazwy, prawie bez słów z tematu strony; pasowałby do każdego artykułu.',
          'Dieser Absatz ist allgemein: keine Zahl, kein Name, kaum ein Wort zum Thema der Seite; er passte in jeden Artikel.',
        ),
        suggestion: t(
          lang,
          'Delete the paragraph; the section keeps what it says about the subject.',
          'Usuń akapit; sekcja zachowuje to, co mówi o temacie.',
          'Den Absatz streichen; der Abschnitt behält, was er zum Thema sagt.',
        ),
        section: sectionName(doc, sec),
        sectionIndex: sec,
        actionType: 'remove',
        severity: 0.5,
        change: { kind: 'replace', before: block.raw, after: '' },
      }),
    );
  }
  return out;
};
